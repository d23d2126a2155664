// The cargo collector against `cargo metadata --no-deps --offline` on a synthetic workspace of N
// crates (members by glob, each with src/main.rs, src/bin, examples and tests), medians of
// several runs in the same process run; ratio (cargo / collector) and scaling 75 → 300 crates.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { collectCargo } from '../dist/src/collectors/cargo/collect.js'
import { timeMedian } from './support.mjs'

const RUNS = 11
const SIZES = [75, 150, 300]
const CARGO = [...(process.env.PATH ?? '').split(delimiter), join(process.env.HOME ?? '/root', '.cargo', 'bin'), '/root/.cargo/bin']
  .map((d) => join(d, 'cargo'))
  .find((p) => existsSync(p))

function build(n) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-cargo-'))
  writeFileSync(join(dir, 'Cargo.toml'), '[workspace]\nresolver = "2"\nmembers = ["crates/*", "tools/*"]\nexclude = ["crates/c0"]\n')
  for (let i = 0; i < n; i++) {
    const c = join(dir, i % 5 === 0 ? 'tools' : 'crates', `c${i}`)
    mkdirSync(join(c, 'src', 'bin'), { recursive: true })
    mkdirSync(join(c, 'examples'), { recursive: true })
    mkdirSync(join(c, 'tests'), { recursive: true })
    let manifest = `[package]\nname = "c${i}"\nversion = "0.1.0"\nedition = "2021"\n`
    if (i % 4 === 0) manifest += `\n[features]\nextra = []\n\n[[bin]]\nname = "x${i}"\npath = "src/x.rs"\nrequired-features = ["extra"]\n`
    writeFileSync(join(c, 'Cargo.toml'), manifest)
    writeFileSync(join(c, 'src', 'main.rs'), 'fn main() {}\n')
    writeFileSync(join(c, 'src', 'x.rs'), 'fn main() {}\n')
    writeFileSync(join(c, 'src', 'bin', `tool${i}.rs`), 'fn main() {}\n')
    writeFileSync(join(c, 'examples', 'demo.rs'), 'fn main() {}\n')
    writeFileSync(join(c, 'tests', 'it.rs'), '\n')
  }
  return dir
}

/** Median wall time of RUNS calls, after two warm-up calls (JIT for ours, page cache for both). */
const median = (fn) => timeMedian(fn, RUNS, 2)

const home = mkdtempSync(join(tmpdir(), 'cs-bench-cargo-home-'))
// Build every size first and warm the collector's code on all of them, as a long-lived harness
// process would have it.
const dirs = SIZES.map((n) => [n, build(n)])
for (let k = 0; k < 5; k++) for (const [, dir] of dirs) collectCargo(dir)
const rows = []
try {
  for (const [n, dir] of dirs) {
    const result = collectCargo(dir)
    if (result.diagnostics.some((d) => d.severity === 'error')) throw new Error(result.diagnostics[0].message)
    const row = { crates: n, listed: result.recipes.length, collector: median(() => collectCargo(dir)) }
    if (CARGO) {
      row.metadata = median(() => {
        const r = spawnSync(CARGO, ['metadata', '--no-deps', '--format-version', '1', '--offline'], {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
          env: { ...process.env, CARGO_HOME: home, CARGO_TERM_COLOR: 'never' },
        })
        if (r.status !== 0) throw new Error(`cargo metadata failed: ${r.stderr}`)
      })
    }
    rows.push(row)
  }
} finally {
  for (const [, dir] of dirs) rmSync(dir, { recursive: true, force: true })
}
rmSync(home, { recursive: true, force: true })

const ms = (x) => (x === undefined ? '-' : `${x.toFixed(2)} ms`)
console.log(`cargo collector vs ${CARGO ? `cargo metadata --no-deps --offline (${CARGO})` : 'cargo (not installed: baseline skipped)'}, median of ${RUNS} runs`)
console.log(['crates', 'targets', 'collector', 'cargo metadata', 'ratio'].join('\t'))
for (const r of rows) console.log([r.crates, r.listed, ms(r.collector), ms(r.metadata), r.metadata ? `${(r.metadata / r.collector).toFixed(1)}x` : '-'].join('\t'))
const [a, , c] = rows
console.log(`linearity: ${SIZES[2]}/${SIZES[0]} crates = ${SIZES[2] / SIZES[0]}x input, collector time ${(c.collector / a.collector).toFixed(1)}x (linear is about ${SIZES[2] / SIZES[0]}x)`)
