// Seeded fuzzing of the justfile parser and collector: random and mutated justfiles must never
// throw or hang, and every problem must carry a line inside the file. FUZZ_SEED=<n> replays a run.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, writeFileSync, rmSync, mkdirSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseJustfile } from '../../dist/src/collectors/just/parse.js'
import { collectJust } from '../../dist/src/collectors/just/collect.js'
import { rng } from '../support/random.mjs'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)
// Thousands of small writes: on a memory file system when there is one (disk writes dominate otherwise).
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()


const fx = (p) => readFileSync(fileURLToPath(new URL(`../fixtures/just/${p}`, import.meta.url)), 'utf8')
const CORPUS = [fx('basic/justfile'), fx('modules/justfile'), fx('modules/api.just'), fx('imports/justfile'), fx('broken-syntax/justfile')]
const PIECES = [
  'a', 'build', '_x', '@', ':', ':=', '=', '+', '*', '$', '&&', '(', ')', '[', ']', '{{', '}}', '{{{{', "'", '"', '`', "'''", '"""', '```',
  '#', '#!', '\\', '\n', '\n    ', '\t', ' ', 'alias ', 'mod ', 'mod? ', 'import ', 'import? ', 'set ', 'export ', '[private]', "[group('g')]",
  "[doc('d')]", '::', 'x::y', ',', 'if ', ' else ', '==', '\r\n', '\u00e9', '\u{1F600}', '\0',
]

function mutate(text, r) {
  const ops = 1 + Math.floor(r() * 6)
  for (let k = 0; k < ops; k++) {
    const at = Math.floor(r() * (text.length + 1))
    const op = r()
    if (op < 0.4) text = text.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + text.slice(at)
    else if (op < 0.7) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(r() * 8))
    else if (op < 0.85) text = text.slice(0, at) + text.slice(Math.floor(r() * text.length))
    else text = text.slice(0, at) + text.slice(at, at + 40).split('').reverse().join('') + text.slice(at + 40)
  }
  return text
}

function random(r) {
  let t = ''
  const n = Math.floor(r() * 60)
  for (let k = 0; k < n; k++) t += PIECES[Math.floor(r() * PIECES.length)]
  return t
}

test(`parseJustfile never throws on 4000 random and mutated justfiles (seed ${SEED})`, () => {
  const r = rng(SEED)
  for (let k = 0; k < 4000; k++) {
    const text = k % 4 === 0 ? random(r) : mutate(CORPUS[k % CORPUS.length], r)
    let parsed
    try {
      parsed = parseJustfile(text)
    } catch (error) {
      assert.fail(`seed ${SEED}, case ${k}: ${error?.stack ?? error}\n--- input ---\n${text}`)
    }
    const lines = text.split(/\r?\n/).length
    for (const p of parsed.problems) {
      assert.ok(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines, `seed ${SEED}, case ${k}: line ${p.line} outside 1..${lines}`)
    }
  }
})

test(`the just collector never throws on mutated justfile trees (seed ${SEED})`, () => {
  const r = rng(SEED + 1)
  const dir = mkdtempSync(join(SCRATCH, 'cs-just-fuzz-'))
  try {
    mkdirSync(join(dir, 'api'))
    for (let k = 0; k < 150; k++) {
      writeFileSync(join(dir, 'justfile'), mutate(fx('modules/justfile') + fx('imports/justfile').replace('mod sub', ''), r))
      writeFileSync(join(dir, 'api.just'), mutate(fx('modules/api.just') + "\nmod api\nimport 'api.just'\n", r))
      try {
        const result = collectJust(dir)
        for (const d of result.diagnostics) assert.ok(d.message.length > 0)
      } catch (error) {
        assert.fail(`seed ${SEED + 1}, case ${k}: ${error?.stack ?? error}`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
