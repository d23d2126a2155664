// The whole `scan --format json` process on synthetic repositories shaped like four public ones:
// vite (a pnpm workspace of 279 packages), git (a 3,500-line Makefile with includes), tokio (a
// 40-crate Cargo workspace) and a Taskfile with includes. Beside it, in the same run: a bare
// `node -e 0` (the floor any Node CLI pays), bench/floor.cjs (the least any Node program pays to
// read the same manifests and print as much) and the runner's own listing of the same repository.
// An empty directory's first scan shows what a scan costs before it reads any manifest.
// The first scan of each repository is reported apart: with no cache at all (no code cache, no
// results), and with the code cache of earlier runs but no results for this repository yet. A
// repeat scan is the remembered one, replayed. Then what each part buys (the bundle, V8's code
// cache, the collectors' results reused while their files are unchanged, the whole scan
// replayed), peak memory against a bare Node, and discover() in process on the vite-shaped one.
// First of all, the figures of the load goals (bench/first-scan.mjs): first scans with an empty cache
// directory, growth, and in process the package main's import and the first discover().
// Usage: node bench/shapes.bench.mjs (after npm run build); SHAPES_RUNS=15 for steadier medians;
// SHAPES_ONLY=first for those figures alone.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findBin, median, OFFLINE_ENV, PNPM_ENV, printTable } from './scripts.bench.mjs'
import { SHAPES } from './shapes.mjs'
import { firstScanFigures } from './first-scan.mjs'

const BIN = new URL('../bin/command-scout', import.meta.url).pathname
const FLOOR = new URL('floor.cjs', import.meta.url).pathname
const DIST = new URL('../dist/', import.meta.url)
const RUNS = Number(process.env.SHAPES_RUNS ?? 9)
const fmt = (ms) => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`)
/** `t` over `base`, signed: on a busy machine a small difference can come out below zero. */
const over = (t, base) => `${t >= base ? '+' : '−'}${Math.abs(t - base).toFixed(1)} ms`

function wall(fn) {
  const t = process.hrtime.bigint()
  fn()
  return Number(process.hrtime.bigint() - t) / 1e6
}

/** Peak resident memory (KiB) of a process, from GNU time; undefined where it is not installed. */
function peakKiB(file, args, env = process.env) {
  if (!existsSync('/usr/bin/time')) return undefined
  const r = spawnSync('/usr/bin/time', ['-f', '%M', file, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'ignore', 'pipe'] })
  return Number(r.stderr.trim().split('\n').at(-1))
}

const base = mkdtempSync(join(tmpdir(), 'scout-bench-shapes-'))
const cacheBase = mkdtempSync(join(tmpdir(), 'scout-bench-cache-'))
const WITH_CACHE = { ...process.env, COMMAND_SCOUT_CACHE_DIR: cacheBase }
const NO_CACHE = { ...process.env, COMMAND_SCOUT_CACHE: 'off' }

/** Newest change under `dir`, so that the bench can wait until the files are old enough to be kept. */
function newest(dir) {
  let n = statSync(dir).ctimeMs
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    n = Math.max(n, e.isDirectory() ? newest(p) : statSync(p).ctimeMs)
  }
  return n
}

firstScanFigures(RUNS)
if (process.env.SHAPES_ONLY === 'first') process.exit(0)

try {
  const repos = [
    ['vite (279 packages)', SHAPES.vite, () => { const pnpm = findBin('pnpm'); return pnpm && ((d) => execFileSync(pnpm, ['ls', '-r', '--depth', '-1', '--json'], { cwd: d, env: PNPM_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'pnpm ls -r --depth -1'],
    ['git (3,500-line Makefile)', SHAPES.git, () => findBin('make') && ((d) => spawnSync('make', ['-pRrq', '-f', 'Makefile', ':'], { cwd: d, env: { PATH: process.env.PATH, LC_ALL: 'C' }, stdio: 'ignore' })), 'make -pRrq :'],
    ['tokio (40 crates)', SHAPES.tokio, () => { const cargo = findBin('cargo') ?? (existsSync('/root/.cargo/bin/cargo') ? '/root/.cargo/bin/cargo' : undefined); return cargo && ((d) => execFileSync(cargo, ['metadata', '--no-deps', '--offline', '--format-version', '1'], { cwd: d, env: OFFLINE_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'cargo metadata --no-deps'],
    ['Taskfile with includes', SHAPES.taskfile, () => findBin('task') && ((d) => execFileSync('task', ['--list-all'], { cwd: d, stdio: ['ignore', 'pipe', 'ignore'] })), 'task --list-all'],
  ]
  const dirOf = (name) => join(base, name.split(' ')[0])
  const scan = (dir, env, ...extra) => execFileSync(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir, ...extra], { env, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
  const node0 = () => execFileSync(process.execPath, ['-e', '0'])
  /** Forgets the remembered whole scans (src/book/scan-record.ts), and with `all` the collectors' results too; the code cache stays. */
  const forgetScans = (all = false) => {
    const dir = join(cacheBase, 'scans')
    for (const n of existsSync(dir) ? readdirSync(dir) : []) if (all || n.endsWith('.rec')) unlinkSync(join(dir, n))
  }
  // The code cache of earlier runs, as a user has it after the first scan of any repository.
  const warmup = join(base, 'warmup')
  SHAPES.git(warmup)
  scan(warmup, WITH_CACHE, '--no-cache')
  for (const [name, make] of repos) make(dirOf(name))
  // A result is kept only when the files it read had settled (2 s): wait for that state.
  const made = Math.max(...repos.map(([name]) => newest(dirOf(name))))
  while (Date.now() - made < 2_100) execFileSync('sleep', ['0.1'])

  const rows = [['repository', 'recipes', 'no cache at all', 'first scan', 'repeat scan', 'node -e 0', 'floor - node', 'first - node', 'repeat - node', 'runner listing', 'repeat / runner', 'peak MiB first', 'peak MiB repeat']]
  for (const [name, , runnerFor, runnerName] of repos) {
    const dir = dirOf(name)
    const output = scan(dir, NO_CACHE)
    const recipes = JSON.parse(output).recipes.length
    const floorRun = () => execFileSync(process.execPath, [FLOOR, dir, String(output.length)], { maxBuffer: 1 << 28 })
    // Interleaved, so that load on a shared machine hits all alike. A first scan: the code cache of
    // earlier runs, but nothing remembered of this repository (forgotten before each).
    const colds = []
    const firsts = []
    const scans = []
    const floors = []
    const leasts = []
    for (let i = 0; i < RUNS; i++) {
      floors.push(wall(node0))
      leasts.push(wall(floorRun))
      colds.push(wall(() => scan(dir, NO_CACHE)))
      forgetScans(true)
      firsts.push(wall(() => scan(dir, WITH_CACHE)))
      scans.push(wall(() => scan(dir, WITH_CACHE)))
    }
    // Peaks before the runner's listing: a runner may write into the repository (pnpm does), and a
    // scan of files that just changed is not remembered, so the repeat would not be a replay.
    forgetScans(true)
    const peakFirst = peakKiB(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir], WITH_CACHE)
    const peak = peakKiB(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir], WITH_CACHE)
    const runner = runnerFor()
    const runnerMs = runner ? median(Array.from({ length: Math.max(3, Math.floor(RUNS / 2)) }, () => wall(() => runner(dir)))) : undefined
    const [cold, first, ms, floor, least] = [colds, firsts, scans, floors, leasts].map(median)
    const mib = (k) => (k ? (k / 1024).toFixed(1) : 'n/a')
    rows.push([name, recipes, fmt(cold), fmt(first), fmt(ms), fmt(floor), over(least, floor), over(first, floor), over(ms, floor), runner ? `${fmt(runnerMs)} (${runnerName})` : `n/a (${runnerName.split(' ')[0]} not installed)`, runnerMs ? `${(ms / runnerMs).toFixed(2)}x` : 'n/a', mib(peakFirst), mib(peak)])
  }
  // What a first scan costs before any manifest: the CLI's own start, every collector's look for its files, the results and the record.
  const empty = join(base, 'empty')
  mkdirSync(empty)
  const emptyFirst = []
  const emptyNode = []
  for (let i = 0; i < RUNS; i++) {
    emptyNode.push(wall(node0))
    forgetScans(true)
    emptyFirst.push(wall(() => scan(empty, WITH_CACHE)))
  }
  console.log(`command-scout scan --format json, whole process (medians of ${RUNS}; goal: scan - node within 30 ms, peak within 15 MiB of a bare node; floor: bench/floor.cjs)`)
  printTable(rows)
  console.log(`an empty directory, first scan: ${over(median(emptyFirst), median(emptyNode))} over node -e 0`)
  const nodePeak = peakKiB(process.execPath, ['-e', '0'])
  if (nodePeak) console.log(`peak memory of node -e 0: ${(nodePeak / 1024).toFixed(1)} MiB`)

  // What each part buys: the same scans, interleaved, each with one more part than the one before.
  const unbundled = new URL('src/cli/main.js', DIST).href
  const viaUnbundled = (dir) => execFileSync(process.execPath, ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(unbundled)}); process.exitCode = await main(process.argv.slice(1))`, 'scan', '--format', 'json', '--no-cache', '--root', dir], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
  const parts = [['repository', 'unbundled (dist/src/cli/main.js)', '+ bundle', '+ code cache', '+ results reused', '+ whole scan replayed', 'node -e 0']]
  for (const [name] of repos) {
    const dir = dirOf(name)
    const cols = [[], [], [], [], [], []]
    for (let i = 0; i < RUNS; i++) {
      cols[0].push(wall(() => viaUnbundled(dir)))
      cols[1].push(wall(() => scan(dir, NO_CACHE)))
      cols[2].push(wall(() => scan(dir, WITH_CACHE, '--no-cache')))
      forgetScans()
      cols[3].push(wall(() => scan(dir, WITH_CACHE)))
      cols[4].push(wall(() => scan(dir, WITH_CACHE)))
      cols[5].push(wall(node0))
    }
    parts.push([name, ...cols.map((c) => fmt(median(c)))])
  }
  console.log('\nwhat each part buys (medians, interleaved; "+ code cache" still reads every manifest; "+ results reused" is a scan whose whole record is gone, as after a change that leaves the collectors\' files alone)')
  printTable(parts)

  // Per collector, in process: where a scan's time goes (first call, then warm).
  const { BUILTIN_COLLECTORS } = await import(new URL('src/collectors/index.js', DIST))
  const { normalizeConfig } = await import(new URL('src/book/config.js', DIST))
  const cfg = normalizeConfig({})
  const per = [['repository', ...BUILTIN_COLLECTORS.map((c) => c.source)]]
  for (const [name] of repos) {
    const dir = dirOf(name)
    per.push([name, ...BUILTIN_COLLECTORS.map((c) => {
      const run = () => c.collect({ root: dir, options: cfg.collectors[c.source] })
      run()
      return fmt(median(Array.from({ length: 9 }, () => wall(run))))
    })])
  }
  console.log('\nper collector, warm, in process, every manifest read (medians of 9)')
  printTable(per)

  // In one process: what an embedding (the harness, an MCP server) pays per re-scan.
  const { discover } = await import(new URL('src/index.js', DIST))
  const vite = dirOf('vite')
  for (let i = 0; i < 5; i++) discover(vite, {}, { cache: false })
  const warm = median(Array.from({ length: 30 }, () => wall(() => discover(vite, {}, { cache: false }))))
  discover(vite)
  const reused = median(Array.from({ length: 30 }, () => wall(() => discover(vite))))
  console.log(`discover() in process on the vite-shaped repository: ${fmt(warm)} reading every manifest, ${fmt(reused)} with the results reused (goal: under 10 ms)`)
} finally {
  rmSync(base, { recursive: true, force: true })
  rmSync(cacheBase, { recursive: true, force: true })
}
