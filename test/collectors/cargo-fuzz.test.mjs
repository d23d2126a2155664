// Seeded fuzzing of the cargo collector: random and mutated Cargo.toml files (root and members)
// must never throw or hang; a TOML error is a diagnostic with a line. FUZZ_SEED=<n> replays a run.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, writeFileSync, rmSync, mkdirSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectCargo } from '../../dist/src/collectors/cargo/collect.js'
import { rng } from '../support/random.mjs'

const SEED = Number(process.env.FUZZ_SEED ?? 20261130)
// Thousands of small writes: on a memory file system when there is one (disk writes dominate otherwise).
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()


const fx = (p) => readFileSync(fileURLToPath(new URL(`../fixtures/cargo/${p}`, import.meta.url)), 'utf8')
const CORPUS = [fx('single-layouts/Cargo.toml'), fx('autobins-off/Cargo.toml'), fx('workspace-virtual/Cargo.toml'), fx('workspace-virtual/crates/cli/Cargo.toml'), fx('broken-bin-path/Cargo.toml')]
const PIECES = [
  '[package]', '[workspace]', '[[bin]]', '[[example]]', '[[test]]', 'name = "x"', 'name = 3', 'path = "src/main.rs"', 'path = "../.."',
  'members = ["*"]', 'members = ["**"]', 'members = "x"', 'exclude = ["."]', 'autobins = false', 'autobins = "no"', 'edition = "2015"',
  'edition.workspace = true', 'required-features = ["a"]', 'required-features = 1', 'x = { path = ".." }', '[dependencies]',
  '=', '"', "'", '[', ']', '{', '}', '\n', '#', ',', '\u00e9', 'bin = 1', 'package = []', 'workspace = 1',
]

function mutate(text, r) {
  const ops = 1 + Math.floor(r() * 5)
  for (let k = 0; k < ops; k++) {
    const at = Math.floor(r() * (text.length + 1))
    const op = r()
    if (op < 0.5) text = text.slice(0, at) + (r() < 0.5 ? '\n' : '') + PIECES[Math.floor(r() * PIECES.length)] + '\n' + text.slice(at)
    else if (op < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(r() * 10))
    else text = text.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + text.slice(at)
  }
  return text
}

test(`the cargo collector never throws on 2000 mutated manifests (seed ${SEED})`, () => {
  const r = rng(SEED)
  const dir = mkdtempSync(join(SCRATCH, 'cs-cargo-fuzz-'))
  try {
    for (const d of ['src/bin', 'crates/a/src', 'crates/b', 'examples', 'tests']) mkdirSync(join(dir, d), { recursive: true })
    writeFileSync(join(dir, 'src/main.rs'), 'fn main() {}')
    writeFileSync(join(dir, 'src/bin/tool.rs'), 'fn main() {}')
    writeFileSync(join(dir, 'crates/a/src/main.rs'), 'fn main() {}')
    for (let k = 0; k < 2000; k++) {
      const root = mutate(CORPUS[k % CORPUS.length] + (k % 3 === 0 ? '\n[workspace]\nmembers = ["crates/*"]\n' : ''), r)
      writeFileSync(join(dir, 'Cargo.toml'), root)
      if (k % 4 === 0) writeFileSync(join(dir, 'crates/a/Cargo.toml'), mutate(CORPUS[(k + 1) % CORPUS.length], r))
      let result
      try {
        result = collectCargo(dir)
      } catch (error) {
        assert.fail(`seed ${SEED}, case ${k}: ${error?.stack ?? error}\n--- Cargo.toml ---\n${root}`)
      }
      for (const d of result.diagnostics) {
        assert.ok(d.message.length > 0)
        if (/not valid TOML/.test(d.message) && d.file === 'Cargo.toml') assert.ok(Number.isInteger(d.line), `seed ${SEED}, case ${k}: TOML error without a line`)
      }
      for (const rec of result.recipes) assert.match(rec.command, /^cargo (run|test|build|check)( |$)/)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
