// The mise collector against the real mise (npm @jdxcode/mise, pinned in test/setup/node-tools,
// installed by test/setup/40-tools.sh): `mise tasks ls --json` on a temp copy of every fixture and
// of generated configs must list the collector's tasks: names in order, descriptions where mise has
// one, aliases, depends and the file each comes from. mise runs with throwaway data, cache, state
// and config directories, the copy trusted (MISE_TRUSTED_CONFIG_PATHS), no network. A config mise
// refuses must meet an error diagnostic.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { miseCollector } from '../../dist/src/collectors/mise/collect.js'
import { rng } from '../support/random.mjs'
import { skipWithout, toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/mise/', import.meta.url).pathname
const skip = skipWithout('mise')
const execFileAsync = promisify(execFile)

async function miseTasks(dir, home) {
  const env = {
    ...process.env, HOME: home, MISE_DATA_DIR: join(home, 'data'), MISE_CACHE_DIR: join(home, 'cache'), MISE_STATE_DIR: join(home, 'state'), MISE_CONFIG_DIR: join(home, 'config'),
    MISE_TRUSTED_CONFIG_PATHS: dir, MISE_YES: '1', MISE_OFFLINE: '1', NO_COLOR: '1', HTTP_PROXY: 'http://127.0.0.1:9/', HTTPS_PROXY: 'http://127.0.0.1:9/',
  }
  try {
    const { stdout } = await execFileAsync(toolBinary('mise'), ['tasks', 'ls', '--json'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 })
    return { ok: true, tasks: JSON.parse(stdout) }
  } catch (error) {
    return { ok: false, stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

async function compare(source, label, write) {
  const base = mkdtempSync(join(tmpdir(), 'scout-mise-'))
  const dir = join(base, 'repo')
  try {
    mkdirSync(dir)
    if (source) cpSync(source, dir, { recursive: true })
    write?.(dir)
    if (process.env.KEEP) cpSync(dir, `/tmp/mise-${label.replace(/\W+/g, '-')}`, { recursive: true })
    const result = miseCollector.collect({ root: dir, options: { enabled: true } })
    const real = await miseTasks(dir, join(base, 'home'))
    if (!real.ok) return assert.ok(result.diagnostics.some((d) => d.severity === 'error'), `${label}: mise refuses it (${real.stderr.split('\n')[0]}), the collector must report an error`)
    const theirs = real.tasks.map((t) => ({ name: t.name, aliases: t.aliases, depends: t.depends.map((d) => (Array.isArray(d) ? d[0] : d.split(/\s+/)[0])), file: relative(dir, t.source) }))
    const ours = result.recipes.map((r) => ({ name: r.name, aliases: [...r.aliases], depends: [...r.prerequisites], file: r.file }))
    const dropped = theirs.filter((t) => !ours.some((o) => o.name === t.name))
    for (const t of dropped) assert.ok(result.diagnostics.some((d) => d.message.includes(`"${t.name}"`) || d.file === t.file), `${label}: mise lists ${t.name}; the collector neither lists it nor says why`)
    assert.deepEqual(ours, theirs.filter((t) => !dropped.includes(t)), `${label}: the tasks mise lists`)
    for (const t of real.tasks) {
      if (t.description) assert.equal(result.recipes.find((r) => r.name === t.name)?.description, t.description, `${label}: description of ${t.name}`)
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

describe('the mise collector against mise tasks ls --json', { concurrency: 4 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`mise agrees with the collector: ${name}`, { skip }, () => compare(join(FIXTURES, name), name))
  }

  test('generated configs and file tasks (forms, precedence, hidden, aliases, depends, _default): mise and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const configs = ['mise.toml', '.mise.toml', 'mise/config.toml', '.config/mise.toml', 'mise.local.toml']
    const dirs = ['mise-tasks', '.mise-tasks', '.mise/tasks', 'mise/tasks', '.config/mise/tasks']
    for (let k = 0; k < 15; k++) {
      await compare(undefined, `generated case ${k}`, (dir) => {
        const names = ['build', 'test', 'lint', 'db:migrate', 'ci', 'fmt', 'dev']
        for (const file of configs.filter(() => pick(2))) {
          const lines = ['[tasks]']
          const tables = []
          for (const name of names.filter(() => pick(3) === 0)) {
            const q = name.includes(':') ? `"${name}"` : name
            const form = pick(3)
            if (form === 0) lines.push(`${q} = "echo ${name} ${file}"`)
            else if (form === 1) lines.push(`${q} = ["echo a", "echo b"]`)
            else {
              tables.push(`[tasks.${q}]`, `run = "echo ${name}"`)
              if (pick(2)) tables.push(`description = "${name} from ${file}"`)
              if (pick(3) === 0) tables.push(`alias = "${name[0]}${k}${pick(9)}"`)
              if (pick(3) === 0) tables.push(`depends = ["${names[pick(names.length)]}"]`)
              if (pick(5) === 0) tables.push('hide = true')
            }
          }
          mkdirSync(join(dir, file, '..'), { recursive: true })
          writeFileSync(join(dir, file), `${lines.join('\n')}\n\n${tables.join('\n')}\n`)
        }
        for (const d of dirs.filter(() => pick(3) === 0)) {
          for (const name of ['build', 'deploy', 'sub/task', 'sub/_default', 'tool.sh'].filter(() => pick(2))) {
            mkdirSync(join(dir, d, name, '..'), { recursive: true })
            const meta = [pick(2) ? `#MISE description="${name} in ${d}"` : '', pick(4) === 0 ? '#MISE hide=true' : '', pick(4) === 0 ? `#MISE alias=["${name[0]}x${k}"]` : ''].filter(Boolean)
            writeFileSync(join(dir, d, name), `#!/bin/sh\n${meta.join('\n')}\necho ${name}\n`)
            if (pick(5)) chmodSync(join(dir, d, name), 0o755)
          }
        }
      })
    }
  })
})
