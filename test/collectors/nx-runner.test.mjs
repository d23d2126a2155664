// The nx collector against the real Nx (npm nx, pinned in test/setup/node-tools, installed by
// test/setup/40-tools.sh and linked into each temp copy's node_modules, as a workspace installs it):
// `nx show projects --json` and `nx show project <p> --json` on every fixture and on generated
// workspaces must give the collector's projects and, per project, its explicit targets: Nx's
// targets less the package.json scripts it also runs (executor nx:run-script, which the scripts
// collector lists). Nx runs without daemon, cloud or plugin isolation, its data in the temp dir.
// A workspace Nx refuses must meet an error diagnostic, or, for a plugin Nx can't load (none is
// installed here), the collector's warning that the plugin's targets are not read.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { nxCollector } from '../../dist/src/collectors/nx/collect.js'
import { rng } from '../support/random.mjs'
import { skipWithout, toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/nx/', import.meta.url).pathname
const skip = skipWithout('nx')
const execFileAsync = promisify(execFile)

async function nx(dir, args) {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false', NX_TUI: 'false', NX_WORKSPACE_DATA_DIRECTORY: join(dir, '..', 'nx-data'), NX_CACHE_DIRECTORY: join(dir, '..', 'nx-cache'), NX_SKIP_NX_CACHE: 'true', NO_COLOR: '1' }
  const { stdout } = await execFileAsync(toolBinary('nx'), args, { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  return JSON.parse(stdout)
}

async function compare(source, label, write) {
  const base = mkdtempSync(join(tmpdir(), 'scout-nx-'))
  const dir = join(base, 'ws')
  try {
    mkdirSync(dir)
    if (source) cpSync(source, dir, { recursive: true })
    write?.(dir)
    mkdirSync(join(dir, 'node_modules'), { recursive: true })
    // The nx package Nx looks for in the workspace: the pinned one (its own dependencies resolve from its real path).
    symlinkSync(dirname(dirname(realpathSync(toolBinary('nx')))), join(dir, 'node_modules', 'nx'))
    const result = nxCollector.collect({ root: dir, options: { enabled: true } })
    let names
    try {
      names = await nx(dir, ['show', 'projects', '--json'])
    } catch (error) {
      const said = result.diagnostics.some((d) => d.severity === 'error' || /plugin .* infers targets/.test(d.message))
      return assert.ok(said, `${label}: nx refuses it (${String(error.stderr).trim().split('\n').find(Boolean)}), the collector must say why`)
    }
    const ours = [...new Set(result.recipes.map((r) => r.scope))]
    const theirs = []
    for (const name of names) {
      const project = await nx(dir, ['show', 'project', name, '--json'])
      const explicit = Object.entries(project.targets ?? {}).filter(([, t]) => t.executor !== 'nx:run-script').map(([t]) => t)
      if (explicit.length) theirs.push(name)
      const mine = result.recipes.filter((r) => r.scope === name).map((r) => r.name.slice(name.length + 1))
      assert.deepEqual([...mine].sort(), [...explicit].sort(), `${label}: explicit targets of ${name}`)
    }
    assert.deepEqual([...ours].sort(), theirs.sort(), `${label}: the projects with explicit targets`)
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

describe('the nx collector against nx show', { concurrency: 2 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`nx agrees with the collector: ${name}`, { skip }, () => compare(join(FIXTURES, name), name))
  }

  test('generated workspaces (project.json, package.json "nx", names, JSONC): nx and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    for (let k = 0; k < 6; k++) {
      await compare(undefined, `generated case ${k}`, (dir) => {
        writeFileSync(join(dir, 'nx.json'), JSON.stringify({ targetDefaults: { build: { cache: true } } }))
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'gen-root', private: true, workspaces: ['packages/*'] }))
        const n = 1 + pick(6)
        for (let i = 0; i < n; i++) {
          const kindOf = pick(3)
          const pdir = join(dir, kindOf === 0 ? 'apps' : 'packages', `p${i}`)
          mkdirSync(pdir, { recursive: true })
          const targets = Object.fromEntries(Array.from({ length: 1 + pick(4) }, (_, t) => [`t${t}`, pick(2) ? { command: `echo ${i}-${t}` } : { executor: 'nx:run-commands', options: { command: `echo ${t}` }, dependsOn: pick(2) ? [`^t${t}`] : [] }]))
          if (kindOf === 0 || kindOf === 2) writeFileSync(join(pdir, 'project.json'), `// generated\n${JSON.stringify({ ...(pick(2) ? { name: `proj-${i}` } : {}), targets })}`)
          if (kindOf !== 0) writeFileSync(join(pdir, 'package.json'), JSON.stringify({ name: `@gen/p${i}`, scripts: pick(2) ? { build: 'tsc' } : {}, ...(kindOf === 1 ? { nx: { targets } } : {}) }))
        }
      })
    }
  })
})

// .nxignore and .gitignore: generated trees of projects with ignore files at the root and below
// (anchored and unanchored rules, directory-only rules, `!` rules, `*`, `?`, `[...]`, `**`) must
// give the projects `nx show projects` gives, no more and no fewer.
describe('the nx collector against nx show projects: .nxignore and .gitignore', { concurrency: 2 }, () => {
  test('generated ignore files: nx and the collector see the same projects', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const dirs = ['apps/a', 'apps/b', 'apps/c', 'b', 'c', 'libs/x1', 'libs/y', 'libs/z/deep', 'libs/deep', 'd/e', 'd/e/f', 'gen/out']
    const rules = ['apps/a', '/apps/b/', 'b', 'c/', '*/c', 'apps/*', '!apps/a', '!apps/b/', 'libs/**/deep', '**/deep', 'libs/x*', 'l?bs/y', '[ab]', '!b', 'd/', 'e', '!e/', 'project.json', '!project.json',
      '*.json', 'lib[s]/', 'gen/**', '!gen/out/', '# a comment', '', 'f/', 'z/deep', '/a', 'x1', '/e/f/', '!/b']
    const ruleSet = () => Array.from({ length: 1 + pick(4) }, () => rules[pick(rules.length)]).join('\n') + '\n'
    for (let k = 0; k < 15; k++) {
      const base = mkdtempSync(join(tmpdir(), 'scout-nx-ignore-'))
      const dir = join(base, 'ws')
      const written = {}
      try {
        mkdirSync(dir)
        writeFileSync(join(dir, 'nx.json'), '{}')
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'gen-root', private: true }))
        for (const d of dirs) {
          if (pick(4) === 0) continue
          mkdirSync(join(dir, d), { recursive: true })
          writeFileSync(join(dir, d, 'project.json'), JSON.stringify({ name: d.replace(/\//g, '-'), targets: { build: { command: 'echo' } } }))
        }
        for (const at of ['', 'apps', 'libs', 'd']) {
          for (const file of ['.gitignore', '.nxignore']) {
            if (pick(at === '' ? 2 : 4)) continue
            mkdirSync(join(dir, at), { recursive: true })
            writeFileSync(join(dir, at, file), (written[join(at, file)] = ruleSet()))
          }
        }
        const result = nxCollector.collect({ root: dir, options: { enabled: true } })
        mkdirSync(join(dir, 'node_modules'), { recursive: true })
        symlinkSync(dirname(dirname(realpathSync(toolBinary('nx')))), join(dir, 'node_modules', 'nx'))
        const theirs = await nx(dir, ['show', 'projects', '--json'])
        const ours = [...new Set(result.recipes.map((x) => x.scope))]
        assert.deepEqual(ours.sort(), [...theirs].sort(), `generated case ${k}: ${JSON.stringify(written)}`)
      } finally {
        rmSync(base, { recursive: true, force: true })
      }
    }
  })
})
