// Seeded fuzzing of the deno collector's reader: thousands of generated deno.jsonc texts (with
// comments and trailing commas placed at random) and mutations of them. Nothing may throw or hang;
// an unmutated text must give exactly the tasks of the value it was written from.
// Replay a failure with FUZZ_SEED=<seed printed in the assertion>.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseDenoConfig } from '../../dist/src/collectors/deno/config.js'
import { memberDirs } from '../../dist/src/collectors/deno/collect.js'
import { rng } from '../support/random.mjs'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)

const pick = (r, list) => list[Math.floor(r() * list.length)]
const NAMES = ['dev', 'build', 'test:unit', 'serve app', '__proto__', 'constructor', '', 'ü', '任务', "it's", '"', '//', '/*', '*/']
const SPICE = ['{', '}', '[', ']', ',', ':', '"', '\\', '//', '/*', '*/', '\n', ' ', '\t', "'", 'null', '\ufeff', '\u0000']

function randomString(r) {
  if (r() < 0.6) return pick(r, NAMES)
  return Array.from({ length: Math.floor(r() * 10) }, () => String.fromCharCode(32 + Math.floor(r() * 95))).join('')
}

function randomValue(r, depth = 0) {
  const k = r()
  if (depth > 3 || k < 0.5) return randomString(r)
  if (k < 0.6) return Math.floor(r() * 9)
  if (k < 0.65) return null
  if (k < 0.8) return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, depth + 1))
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, () => [randomString(r), randomValue(r, depth + 1)]))
}

function randomTask(r) {
  const k = r()
  if (k < 0.5) return randomString(r)
  if (k < 0.9) {
    const t = {}
    if (r() < 0.7) t.command = r() < 0.9 ? randomString(r) : randomValue(r)
    if (r() < 0.4) t.description = r() < 0.9 ? randomString(r) : randomValue(r)
    if (r() < 0.4) t.dependencies = r() < 0.8 ? Array.from({ length: Math.floor(r() * 3) }, () => randomString(r)) : randomValue(r)
    return t
  }
  return randomValue(r)
}

/** JSONC text of `value` with comments and trailing commas sprinkled where JSONC allows them. */
function jsonc(r, value, indent = '') {
  const comment = () => (r() < 0.15 ? (r() < 0.5 ? ' /* c */ ' : ' // c\n' + indent) : '')
  if (Array.isArray(value)) {
    if (value.length === 0) return `[${comment()}]`
    return `[${value.map((v) => `${comment()}${jsonc(r, v, indent + ' ')}`).join(',')}${r() < 0.3 ? ',' : ''}${comment()}]`
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 0) return `{${comment()}}`
    return `{\n${entries.map(([k, v]) => `${indent} ${comment()}${JSON.stringify(k)}${comment()}:${comment()}${jsonc(r, v, indent + ' ')}`).join(',\n')}${r() < 0.3 ? ',' : ''}${comment()}\n${indent}}`
  }
  return JSON.stringify(value)
}

function mutate(r, text) {
  let out = text
  for (let i = 0, n = 1 + Math.floor(r() * 4); i < n; i++) {
    const at = Math.floor(r() * (out.length + 1))
    const k = r()
    if (k < 0.4) out = out.slice(0, at) + pick(r, SPICE) + out.slice(at)
    else if (k < 0.75) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(r() * 5))
    else out = out.slice(0, at)
  }
  return out
}

/** The tasks a config value declares, as the collector should read them (last duplicate wins). */
function expectedTasks(config) {
  const tasks = config?.tasks
  if (!tasks || typeof tasks !== 'object' || Array.isArray(tasks)) return []
  const out = []
  for (const [name, v] of Object.entries(tasks)) {
    if (typeof v === 'string') out.push({ name, command: v, dependencies: [] })
    else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const str = (x) => (typeof x === 'string' ? x : undefined)
      const deps = Array.isArray(v.dependencies) ? v.dependencies.filter((d) => typeof d === 'string') : []
      out.push({ name, ...(str(v.command) !== undefined ? { command: v.command } : {}), ...(str(v.description) !== undefined ? { description: v.description } : {}), dependencies: deps })
    }
  }
  return out
}

test('deno.jsonc: generated and mutated texts never throw; unmutated ones give exactly their tasks', () => {
  const r = rng(SEED)
  let exact = 0
  for (let i = 0; i < 2500; i++) {
    const config = {}
    if (r() < 0.9) config.tasks = r() < 0.9 ? Object.fromEntries(Array.from({ length: Math.floor(r() * 6) }, () => [randomString(r), randomTask(r)])) : randomValue(r)
    if (r() < 0.3) config.workspace = r() < 0.7 ? Array.from({ length: Math.floor(r() * 3) }, () => randomString(r)) : randomValue(r)
    if (r() < 0.3) config.imports = randomValue(r)
    if (r() < 0.3) config.name = randomString(r)
    const clean = jsonc(r, config)
    const text = r() < 0.5 ? clean : mutate(r, clean)
    const where = `seed ${SEED}, case ${i}: ${JSON.stringify(text).slice(0, 300)}`
    const parsed = parseDenoConfig(text, 'deno.jsonc')
    for (const p of parsed.problems) {
      assert.ok(p.message.length > 0, where)
      if (p.line !== undefined) assert.ok(p.line >= 1 && p.line <= text.split(/\r\n?|\n/).length + 1, where)
    }
    if (!parsed.valid) assert.deepEqual(parsed.tasks, [], where)
    if (text === clean) {
      exact++
      assert.equal(parsed.valid, true, where)
      assert.deepEqual(parsed.tasks.map(({ line, ...t }) => t), expectedTasks(config), where)
      const lines = text.split('\n')
      for (const t of parsed.tasks) assert.ok(lines[t.line - 1].includes(JSON.stringify(t.name)), where)
    }
  }
  assert.ok(exact > 1000, `unmutated cases exercised: ${exact}`)
})

test('deno.jsonc: deep nesting and huge inputs end with a diagnostic, not a crash', () => {
  for (const depth of [10_000, 200_000]) {
    const parsed = parseDenoConfig(`{"tasks": {"a": "b"}, "x": ${'{"y":'.repeat(depth)}1${'}'.repeat(depth)}}`, 'deno.json')
    if (!parsed.valid) assert.match(parsed.problems[0].message, /nested too deeply/)
  }
  const unterminated = parseDenoConfig('{"tasks": {"a": "b"} /* never closed', 'deno.jsonc')
  assert.equal(unterminated.valid, false)
})

test('deno workspace members: random patterns never throw, never leave the root, never reach node_modules', () => {
  const root = mkdtempSync(join(tmpdir(), 'scout-fuzz-deno-'))
  try {
    for (const d of ['a', 'a/b', 'pk/x', 'pk/y', 'node_modules/n', 'pk/node_modules/m']) {
      mkdirSync(join(root, d), { recursive: true })
      writeFileSync(join(root, d, 'deno.json'), '{}')
    }
    const parts = ['*', '**', 'a', 'b', 'pk', '.', '..', '/', '!', '{a,pk}', '[', '?', 'node_modules', '\\', ' ', '(', '+(a|b)', '']
    const r = rng(SEED + 3)
    for (let i = 0; i < 1000; i++) {
      const patterns = Array.from({ length: 1 + Math.floor(r() * 3) }, () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(r, parts)).join(pick(r, ['/', '', './'])))
      const where = `seed ${SEED + 3}, case ${i}: ${JSON.stringify(patterns)}`
      for (const d of memberDirs(root, patterns, () => {})) {
        assert.ok(!d.split('/').includes('node_modules'), where)
        assert.ok(d !== '.' && !d.startsWith('..') && !d.startsWith('/'), where)
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
