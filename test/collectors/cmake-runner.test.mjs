// The cmake collector against the real CMake (the machine's cmake): `cmake --list-presets=all` on a
// temp copy of every fixture and of generated presets files (inherits, hidden, conditions, include,
// CMakeUserPresets.json) must list, kind by kind, the collector's presets in the same order with
// the same display names. A presets file cmake refuses must meet an error diagnostic.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { cmakeCollector } from '../../dist/src/collectors/cmake/collect.js'
import { rng } from '../support/random.mjs'
import { toolBinary } from '../support/tool-binary.mjs'

const FIXTURES = new URL('../fixtures/cmake/', import.meta.url).pathname
const CMAKE = toolBinary('cmake')
const skip = CMAKE ? false : 'cmake is not on PATH (it comes with the machine; apt-get install cmake)'
const execFileAsync = promisify(execFile)
const HEADINGS = { configure: 'configure', build: 'build', test: 'test', package: 'package', workflow: 'workflow' }

async function listPresets(dir) {
  try {
    const { stdout } = await execFileAsync(CMAKE, ['--list-presets=all'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, MODE: '' } })
    const out = []
    let kind
    for (const line of stdout.split('\n')) {
      const h = /^Available (\w+) presets:$/.exec(line)
      if (h) { kind = h[1]; continue }
      const m = /^ {2}"(.+?)"(?:\s+- (.*))?$/.exec(line)
      if (m && kind) out.push({ kind, name: m[1], displayName: m[2] ?? '' })
    }
    return { ok: true, presets: out }
  } catch (error) {
    return { ok: false, stderr: `${error.stderr ?? ''}${error.message}` }
  }
}

async function compare(source, label, write) {
  const dir = mkdtempSync(join(tmpdir(), 'scout-cmake-'))
  try {
    if (source) cpSync(source, dir, { recursive: true })
    write?.(dir)
    writeFileSync(join(dir, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.20)\nproject(fixture NONE)\n')
    const result = cmakeCollector.collect({ root: dir, options: { enabled: true } })
    const real = await listPresets(dir)
    if (!real.ok) {
      assert.ok(result.diagnostics.some((d) => d.severity === 'error'), `${label}: cmake refuses it (${real.stderr.split('\n')[0]}), the collector must report an error`)
      return
    }
    assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], `${label}: cmake accepts it`)
    for (const kind of Object.keys(HEADINGS)) {
      const theirs = real.presets.filter((p) => p.kind === kind)
      const ours = result.recipes.filter((r) => r.name.startsWith(`${kind}/`))
      assert.deepEqual(ours.map((r) => r.name.slice(kind.length + 1)), theirs.map((p) => p.name), `${label}: ${kind} presets, in order`)
      theirs.forEach((p, i) => { if (p.displayName) assert.ok(ours[i].description.startsWith(p.displayName), `${label}: ${kind} ${p.name} is described by its displayName "${p.displayName}" (got "${ours[i].description}")`) })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the cmake collector against cmake --list-presets=all', { concurrency: 4 }, () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`cmake agrees with the collector: ${name}`, { skip }, () => compare(join(FIXTURES, name), name))
  }

  test('generated presets (inherits, hidden, conditions, include, user presets): cmake and the collector agree', { skip }, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const conditions = [
      undefined, { type: 'const', value: false }, { type: 'equals', lhs: '${hostSystemName}', rhs: 'Linux' }, { type: 'notEquals', lhs: '${presetName}', rhs: 'x' },
      { type: 'inList', string: '${hostSystemName}', list: ['Windows', 'Darwin'] }, { type: 'matches', string: '${presetName}', regex: '1' }, { type: 'not', condition: { type: 'const', value: true } },
    ]
    for (let k = 0; k < 25; k++) {
      const files = { 'CMakePresets.json': { version: 6, configurePresets: [], buildPresets: [], testPresets: [], workflowPresets: [] } }
      const configure = []
      const n = 1 + pick(8)
      const all = []
      for (let i = 0; i < n; i++) {
        const p = { name: `c${i}` }
        if (pick(4) === 0) p.hidden = true
        if (configure.length && pick(2)) p.inherits = pick(2) ? configure[pick(configure.length)].name : [configure[pick(configure.length)].name]
        const c = conditions[pick(conditions.length)]
        if (c && pick(2)) p.condition = c
        if (pick(2)) p.displayName = `Config ${i}`
        if (pick(3) === 0) p.description = `About ${i}`
        configure.push(p)
        all.push(p)
      }
      const target = pick(3) === 0 ? 'user' : pick(2) ? 'inc' : 'main'
      const visible = configure.filter((c) => !c.hidden)
      const builds = []
      for (let i = 0; i < pick(4) && configure.length; i++) {
        const b = { name: `b${i}`, configurePreset: configure[pick(configure.length)].name }
        if (pick(2)) b.displayName = `Build ${i}`
        builds.push(b)
      }
      const tests = builds.slice(0, pick(builds.length + 1)).map((b, i) => ({ name: `t${i}`, configurePreset: b.configurePreset }))
      files['CMakePresets.json'].configurePresets = configure.filter((_, i) => target !== 'inc' || i % 2 === 0)
      files['CMakePresets.json'].buildPresets = builds
      files['CMakePresets.json'].testPresets = tests
      if (visible.length && builds.length && pick(2)) files['CMakePresets.json'].workflowPresets = [{ name: 'wf', steps: [{ type: 'configure', name: builds[0].configurePreset }, { type: 'build', name: builds[0].name }] }]
      if (target === 'inc') {
        files['CMakePresets.json'].include = ['more/presets.json']
        files['more/presets.json'] = { version: 6, configurePresets: configure.filter((_, i) => i % 2 === 1) }
      }
      if (target === 'user') files['CMakeUserPresets.json'] = { version: 6, configurePresets: [{ name: 'local', inherits: configure[0].name, displayName: 'Local' }], buildPresets: [{ name: 'local', configurePreset: 'local' }] }
      // A preset inheriting from one defined in a later file is valid for cmake only across files; keep each inherit valid.
      await compare(undefined, `generated case ${k}`, (dir) => {
        for (const [rel, body] of Object.entries(files)) {
          mkdirSync(join(dir, rel, '..'), { recursive: true })
          writeFileSync(join(dir, rel), JSON.stringify(body, null, 2))
        }
      })
    }
  })
})
