// Seeded fuzzing of the scripts collector's parsers: thousands of generated and mutated
// package.json and pnpm-workspace.yaml texts and workspace patterns. Nothing may throw or hang;
// where JSON.parse (what every package manager uses) reads a package.json, the collector must read
// the same scripts, and where JSON.parse refuses one, the collector must refuse it too.
// Replay a failure with FUZZ_SEED=<seed printed in the assertion>.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseDocument, stringify as yamlStringify } from 'yaml'
import { parseTree } from 'jsonc-parser'
import { parsePackageJson } from '../../dist/src/collectors/scripts/manifest.js'
import { matchWorkspaceDirs } from '../../dist/src/collectors/shared/workspaces.js'
import { parsePnpmWorkspace } from '../../dist/src/collectors/shared/pnpm-workspace.js'
import { rng } from '../support/random.mjs'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)

/** mulberry32: a small seeded generator, so every run sees the same inputs. */

const NAMES = ['build', 'test', 'dev', 'test:unit', 'a b', '__proto__', 'constructor', 'toString', '', 'préparer', '构建', '$x', "it's", '"q"', '\\', '1', '007', 'pre-build', 'hasOwnProperty']
const SPICE = ['{', '}', '[', ']', ',', ':', '"', '\\', '/', '*', '//', '/*', '\n', '\r\n', '\t', ' ', '\u00a0', '\u2028', '\ufeff', '\v', 'null', 'true', '1e9', '-', 'NaN', "'", '\u0000', '\ud800']

function pick(r, list) {
  return list[Math.floor(r() * list.length)]
}

function randomString(r) {
  if (r() < 0.5) return pick(r, NAMES)
  let s = ''
  const n = Math.floor(r() * 12)
  for (let i = 0; i < n; i++) s += String.fromCharCode(r() < 0.9 ? 32 + Math.floor(r() * 95) : Math.floor(r() * 0x3000))
  return s
}

function randomValue(r, depth = 0) {
  const k = r()
  if (depth > 3 || k < 0.45) return randomString(r)
  if (k < 0.55) return Math.floor(r() * 100)
  if (k < 0.6) return null
  if (k < 0.65) return r() < 0.5
  if (k < 0.8) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1))
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [randomString(r), randomValue(r, depth + 1)]))
}

function randomManifest(r) {
  const m = {}
  if (r() < 0.8) m.name = r() < 0.9 ? randomString(r) : randomValue(r)
  if (r() < 0.9) m.scripts = r() < 0.85 ? Object.fromEntries(Array.from({ length: Math.floor(r() * 8) }, () => [randomString(r), r() < 0.85 ? randomString(r) : randomValue(r)])) : randomValue(r)
  if (r() < 0.4) m.workspaces = r() < 0.5 ? Array.from({ length: Math.floor(r() * 4) }, () => randomString(r)) : r() < 0.5 ? { packages: randomValue(r) } : randomValue(r)
  if (r() < 0.3) m.packageManager = r() < 0.7 ? `${pick(r, ['npm', 'pnpm', 'yarn', 'bun', 'cnpm', ''])}@${Math.floor(r() * 10)}.0.0` : randomValue(r)
  if (r() < 0.3) m.dependencies = randomValue(r)
  return m
}

function mutate(r, text) {
  let out = text
  const edits = 1 + Math.floor(r() * 4)
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(r() * (out.length + 1))
    const k = r()
    if (k < 0.4) out = out.slice(0, at) + pick(r, SPICE) + out.slice(at)
    else if (k < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(r() * 5))
    else if (k < 0.85) out = out.slice(0, at) + out.slice(at, at + 10) + out.slice(at)
    else out = out.slice(0, at)
  }
  return out
}

/** What JSON.parse says the scripts are: every string-valued entry, by name. */
function scriptsByJsonParse(value) {
  const scripts = value?.scripts
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return {}
  return Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === 'string'))
}

test('package.json: generated and mutated texts never throw, and agree with JSON.parse', () => {
  const r = rng(SEED)
  let agreedValid = 0
  let agreedInvalid = 0
  for (let i = 0; i < 2500; i++) {
    const manifest = randomManifest(r)
    const pretty = JSON.stringify(manifest, null, pick(r, [0, 2, 4, '\t']))
    const text = r() < 0.5 ? pretty : mutate(r, pretty)
    const where = `seed ${SEED}, case ${i}: ${JSON.stringify(text).slice(0, 300)}`
    const parsed = parsePackageJson(text)
    let value
    let jsonOk = true
    try {
      value = JSON.parse(text)
    } catch {
      jsonOk = false
    }
    const isObject = jsonOk && typeof value === 'object' && value !== null && !Array.isArray(value)
    assert.equal(parsed.valid, isObject, where)
    for (const p of parsed.problems) {
      assert.ok(typeof p.message === 'string' && p.message.length > 0, where)
      if (p.line !== undefined) assert.ok(p.line >= 1 && p.line <= text.split(/\r\n?|\n/).length, where)
    }
    if (isObject) {
      agreedValid++
      const ours = Object.fromEntries(parsed.scripts.map((s) => [s.name, s.command]))
      assert.deepEqual(ours, scriptsByJsonParse(value), where)
      // Lines agree with jsonc-parser's syntax tree: the last key of each name in "scripts".
      const tree = parseTree(text, [])
      const scriptsNode = (tree.children ?? []).filter((p) => p.children?.[0]?.value === 'scripts').at(-1)?.children?.[1]
      const lastKey = new Map()
      for (const prop of scriptsNode?.type === 'object' ? scriptsNode.children ?? [] : []) lastKey.set(prop.children[0].value, prop.children[0].offset)
      for (const s of parsed.scripts) assert.equal(s.line, text.slice(0, lastKey.get(s.name)).split(/\r\n?|\n/).length, where)
      if (Array.isArray(value.workspaces)) assert.deepEqual(parsed.workspaces, value.workspaces.filter((w) => typeof w === 'string'), where)
    } else {
      agreedInvalid++
      assert.deepEqual(parsed.scripts, [], where)
      assert.ok(parsed.problems.length >= 1, where)
    }
  }
  assert.ok(agreedValid > 600 && agreedInvalid > 600, `both kinds were exercised (${agreedValid} valid, ${agreedInvalid} invalid)`)
})

test('package.json: deep nesting and huge inputs end with a diagnostic, not a crash', () => {
  for (const depth of [100, 10_000, 200_000]) {
    const parsed = parsePackageJson(`{"scripts": {"a": "b"}, "x": ${'['.repeat(depth)}${']'.repeat(depth)}}`)
    if (!parsed.valid) assert.match(parsed.problems[0].message, /nested too deeply/)
    else assert.deepEqual(parsed.scripts.map((s) => s.name), ['a'])
  }
  const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`s${i}`, `echo ${i}`]))
  const parsed = parsePackageJson(JSON.stringify({ scripts: many }, null, 1))
  assert.equal(parsed.scripts.length, 20_000)
  assert.equal(parsed.scripts.at(-1).line, 20_002)
})

test('pnpm-workspace.yaml: generated and mutated texts never throw, and list the string patterns', () => {
  const r = rng(SEED + 1)
  for (let i = 0; i < 1000; i++) {
    const doc = r() < 0.8 ? { packages: Array.from({ length: Math.floor(r() * 5) }, () => (r() < 0.85 ? randomString(r) : randomValue(r))) } : randomValue(r)
    if (r() < 0.3 && typeof doc === 'object' && doc) doc.catalog = randomValue(r)
    const clean = yamlStringify(doc)
    const text = r() < 0.5 ? clean : mutate(r, clean)
    const where = `seed ${SEED + 1}, case ${i}: ${JSON.stringify(text).slice(0, 300)}`
    const parsed = parsePnpmWorkspace(text)
    for (const p of parsed.problems) assert.ok(p.message.length > 0, where)
    if (text === clean && Array.isArray(doc?.packages)) {
      assert.deepEqual(parsed.patterns, doc.packages.filter((p) => typeof p === 'string'), where)
    }
  }
  // alias bombs stay bounded
  const bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\npackages: [*f]\n'
  const parsed = parsePnpmWorkspace(bomb)
  assert.ok(parsed.problems.length >= 1 || parsed.patterns !== undefined)
})

test('pnpm-workspace.yaml: line-shaped files read exactly as the YAML library reads them', () => {
  const pool = ['packages:', 'packages: # c', '  - a/*', '  - packages/**', "  - '!**/test/**'", "  - 'x y'", '  - "q/*"', '- b', '  - **', '  - !neg', '  - a # c', '  - a#b', '  - a: b', '  - a:b', 'catalog:', '    - deep', '  - "esc\\"q"', '\t- tab', '# c', '', '  ', '  - &x a', '  - *x', '  - [a]', "  - 'it''s'", '  - a b', '  -a', 'packages:  ', '  - "a" # "b"', '  - @x', '  - -x', '  - null', '  - true', '  - 1.5', '  - 0x1f', '  - .inf', '  - ~', '  - 2024/*', '  - apps/web', '  - apps/web', '  - libs/*']
  const r = rng(SEED + 4)
  let compared = 0
  for (let i = 0; i < 3000; i++) {
    const eol = r() < 0.9 ? '\n' : '\r\n'
    const text = (r() < 0.8 ? `packages:${eol}` : '') + Array.from({ length: 1 + Math.floor(r() * 6) }, () => pick(r, pool)).join(eol) + (r() < 0.5 ? eol : '')
    const where = `seed ${SEED + 4}, case ${i}: ${JSON.stringify(text)}`
    const ours = parsePnpmWorkspace(text)
    const doc = parseDocument(text, { uniqueKeys: false })
    if (doc.errors.length) continue
    let value
    try {
      value = doc.toJS({ maxAliasCount: 100 })
    } catch {
      continue
    }
    const packages = value?.packages
    if (!Array.isArray(packages)) continue
    compared++
    const strings = packages.filter((p) => typeof p === 'string')
    assert.deepEqual(ours.patterns ?? [], strings, where)
  }
  assert.ok(compared > 500, `compared ${compared}`)
})

test('workspace patterns: random globs, negations and paths never throw and never reach node_modules', () => {
  const root = mkdtempSync(join(tmpdir(), 'scout-fuzz-ws-'))
  try {
    const dirs = ['a', 'a/b', 'a/b/c', 'pkg-1', 'pkg-2/x', 'node_modules/n', 'a/node_modules/m', '.hidden/h', 'sp ace', '[br]', 'b{r}']
    for (const d of dirs) {
      mkdirSync(join(root, d), { recursive: true })
      writeFileSync(join(root, d, 'package.json'), '{}')
    }
    const parts = ['*', '**', 'a', 'b', 'c', 'pkg-*', '!', '..', '.', '/', '{a,b}', '[', ']', '?', 'node_modules', '\\', ' ', '(', ')', '+(a|b)', '!(a)', '@', '$', '']
    const r = rng(SEED + 2)
    for (let i = 0; i < 1500; i++) {
      const patterns = Array.from({ length: 1 + Math.floor(r() * 3) }, () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(r, parts)).join(pick(r, ['/', '', '/'])))
      const where = `seed ${SEED + 2}, case ${i}: ${JSON.stringify(patterns)}`
      const { dirs: found } = matchWorkspaceDirs(root, '.', patterns, r() < 0.5)
      for (const d of found) {
        assert.ok(!d.split('/').includes('node_modules'), where)
        assert.notEqual(d, '.', where)
        assert.ok(!d.startsWith('..') && !d.startsWith('/'), where)
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
