// The whole `scan --format json` process on synthetic repositories shaped like four public ones:
// vite (a pnpm workspace of 279 packages), git (a 3,500-line Makefile with includes), tokio (a
// 40-crate Cargo workspace) and a Taskfile with includes. Beside it, in the same run: a bare
// `node -e 0` (the floor any Node CLI pays) and the runner's own listing of the same repository.
// The first run of each repository is reported apart (nothing cached yet). Also: peak memory
// against a bare Node, and a warm in-process discover() on the vite-shaped repository.
// Usage: node bench/shapes.bench.mjs (after npm run build); SHAPES_RUNS=15 for steadier medians.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findBin, median, OFFLINE_ENV, PNPM_ENV, printTable } from './scripts.bench.mjs'
import { SHAPES } from './shapes.mjs'

const BIN = new URL('../bin/command-scout', import.meta.url).pathname
const DIST = new URL('../dist/', import.meta.url)
const RUNS = Number(process.env.SHAPES_RUNS ?? 9)
const fmt = (ms) => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`)

function wall(fn) {
  const t = process.hrtime.bigint()
  fn()
  return Number(process.hrtime.bigint() - t) / 1e6
}

/** Peak resident memory (KiB) of a process, from GNU time; undefined where it is not installed. */
function peakKiB(file, args) {
  if (!existsSync('/usr/bin/time')) return undefined
  const r = spawnSync('/usr/bin/time', ['-f', '%M', file, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] })
  return Number(r.stderr.trim().split('\n').at(-1))
}

const base = mkdtempSync(join(tmpdir(), 'scout-bench-shapes-'))
try {
  const repos = [
    ['vite (279 packages)', SHAPES.vite, () => { const pnpm = findBin('pnpm'); return pnpm && ((d) => execFileSync(pnpm, ['ls', '-r', '--depth', '-1', '--json'], { cwd: d, env: PNPM_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'pnpm ls -r --depth -1'],
    ['git (3,500-line Makefile)', SHAPES.git, () => findBin('make') && ((d) => spawnSync('make', ['-pRrq', '-f', 'Makefile', ':'], { cwd: d, env: { PATH: process.env.PATH, LC_ALL: 'C' }, stdio: 'ignore' })), 'make -pRrq :'],
    ['tokio (40 crates)', SHAPES.tokio, () => { const cargo = findBin('cargo') ?? (existsSync('/root/.cargo/bin/cargo') ? '/root/.cargo/bin/cargo' : undefined); return cargo && ((d) => execFileSync(cargo, ['metadata', '--no-deps', '--offline', '--format-version', '1'], { cwd: d, env: OFFLINE_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'cargo metadata --no-deps'],
    ['Taskfile with includes', SHAPES.taskfile, () => findBin('task') && ((d) => execFileSync('task', ['--list-all'], { cwd: d, stdio: ['ignore', 'pipe', 'ignore'] })), 'task --list-all'],
  ]
  const floorSamples = []
  const rows = [['repository', 'recipes', 'first scan', 'scan', 'node -e 0', 'scan - node', 'runner listing', 'scan / runner', 'peak MiB (node: see below)']]
  for (const [name, make, runnerFor, runnerName] of repos) {
    const dir = join(base, name.split(' ')[0])
    make(dir)
    const scan = () => execFileSync(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
    const first = wall(scan)
    const recipes = JSON.parse(scan()).recipes.length
    // Interleaved, so that load on a shared machine hits both alike.
    const scans = []
    const floors = []
    for (let i = 0; i < RUNS; i++) {
      floors.push(wall(() => execFileSync(process.execPath, ['-e', '0'])))
      scans.push(wall(scan))
    }
    floorSamples.push(...floors)
    const runner = runnerFor()
    const runnerMs = runner ? median(Array.from({ length: Math.max(3, Math.floor(RUNS / 2)) }, () => wall(() => runner(dir)))) : undefined
    const ms = median(scans)
    const floor = median(floors)
    const peak = peakKiB(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir])
    rows.push([name, recipes, fmt(first), fmt(ms), fmt(floor), `+${(ms - floor).toFixed(1)} ms`, runner ? `${fmt(runnerMs)} (${runnerName})` : `n/a (${runnerName.split(' ')[0]} not installed)`, runnerMs ? `${(ms / runnerMs).toFixed(2)}x` : 'n/a', peak ? (peak / 1024).toFixed(1) : 'n/a'])
  }
  console.log(`command-scout scan --format json, whole process (medians of ${RUNS}; goal: scan - node within 30 ms, peak within 15 MiB of a bare node)`)
  printTable(rows)
  const nodePeak = peakKiB(process.execPath, ['-e', '0'])
  if (nodePeak) console.log(`peak memory of node -e 0: ${(nodePeak / 1024).toFixed(1)} MiB`)

  // What the bundle buys: the same scan through the unbundled tsc output (about 45 modules).
  const unbundled = new URL('src/cli.js', DIST).href
  const viaEntry = (entry, dir) => execFileSync(process.execPath, ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(process.argv.slice(1))`, 'scan', '--format', 'json', '--root', dir], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
  const bundled = new URL('src/cli.bundle.mjs', DIST).href
  const approach = [['repository', 'unbundled (dist/src/cli.js)', 'bundle (dist/src/cli.bundle.mjs)', 'node -e 0']]
  for (const [name] of repos) {
    const dir = join(base, name.split(' ')[0])
    const a = []
    const b = []
    const f = []
    for (let i = 0; i < RUNS; i++) {
      a.push(wall(() => viaEntry(unbundled, dir)))
      b.push(wall(() => viaEntry(bundled, dir)))
      f.push(wall(() => execFileSync(process.execPath, ['-e', '0'])))
    }
    approach.push([name, fmt(median(a)), fmt(median(b)), fmt(median(f))])
  }
  console.log(`\nwhat the bundle buys (same scans, interleaved; V8's compile cache: ${typeof (await import('node:module')).default.enableCompileCache === 'function' ? 'on in bin/command-scout' : `not in Node ${process.version} (module.enableCompileCache needs 22.1), so not measured`})`)
  printTable(approach)

  // Per collector, in process: where a cold scan's time goes (first call, then warm).
  const { BUILTIN_COLLECTORS } = await import(new URL('collectors/index.js', DIST))
  const { normalizeConfig } = await import(new URL('src/config.js', DIST))
  const cfg = normalizeConfig({})
  const per = [['repository', ...BUILTIN_COLLECTORS.map((c) => c.source)]]
  for (const [name] of repos) {
    const dir = join(base, name.split(' ')[0])
    per.push([name, ...BUILTIN_COLLECTORS.map((c) => {
      const run = () => c.collect({ root: dir, options: cfg.collectors[c.configKey] })
      run()
      return fmt(median(Array.from({ length: 9 }, () => wall(run))))
    })])
  }
  console.log('\nper collector, warm, in process (medians of 9)')
  printTable(per)

  // Warm, in one process: what an embedding (the harness, an MCP server) pays per re-scan.
  const { discover } = await import(new URL('src/index.js', DIST))
  const vite = join(base, 'vite')
  for (let i = 0; i < 5; i++) discover(vite)
  const warm = median(Array.from({ length: 30 }, () => wall(() => discover(vite))))
  console.log(`warm in-process discover() on the vite-shaped repository: ${fmt(warm)} (goal: under 10 ms)`)
} finally {
  rmSync(base, { recursive: true, force: true })
}
