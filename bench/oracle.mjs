// The shape every newer collector's benchmark shares: write a synthetic repository at three
// sizes, time the collector in process and its real tool's own listing command as a child
// process in the same run (medians), print both, the ratio and the collector's linearity.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findBin, printTable, time } from './scripts.bench.mjs'

const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`

/**
 * `make(dir, size)` writes the repository; `collect(dir)` runs the collector; `check(result, size)`
 * throws on an unexpected result; `oracle` is { bin, args, env?, cwd?(dir), setup?(dir, bin) } for a
 * tool's listing command, or { label, run(dir) } for an in-process baseline (a format no tool lists).
 */
export async function oracleBench({ title, unit, sizes, make, collect, check, oracle, runs = 15, oracleRuns = 5 }) {
  const base = mkdtempSync(join(tmpdir(), 'scout-bench-'))
  const bin = oracle?.run ? 'in-process' : oracle ? findBin(oracle.bin) : undefined
  const rows = [[unit, 'collector (in process)', oracle?.label ?? (oracle ? `${oracle.bin} ${oracle.args.join(' ')}` : 'no oracle'), 'ratio', 'recipes']]
  const linear = []
  try {
    for (const size of sizes) {
      const dir = join(base, `r-${size}`)
      make(dir, size)
      const result = collect(dir)
      check(result, size)
      const ours = time(() => collect(dir), runs)
      linear.push([size, ours])
      let theirs = NaN
      if (oracle?.run) theirs = time(() => oracle.run(dir), runs)
      else if (bin) {
        oracle.setup?.(dir, bin)
        const cwd = oracle.cwd ? oracle.cwd(dir) : dir
        const run = () => execFileSync(bin, oracle.args, { cwd, env: { ...process.env, ...(oracle.env?.(base) ?? {}) }, stdio: 'ignore', timeout: 300_000 })
        theirs = time(run, oracleRuns)
      }
      rows.push([size, fmt(ours), bin ? fmt(theirs) : 'n/a', bin ? `${(theirs / ours).toFixed(1)}x` : '', result.recipes.length])
    }
    console.log(`${title} (medians; ratio = theirs / ours)`)
    printTable(rows)
    const [[n0, t0]] = linear
    console.log(`linearity (time per ${unit}, relative to ${n0}): ${linear.map(([n, t]) => `${n}: ${((t / n) / (t0 / n0)).toFixed(2)}`).join(', ')}`)
    if (oracle && !bin) console.log(`(${oracle.bin} is not on PATH: source test/setup/40-tools.sh, or npm run bench)`)
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
