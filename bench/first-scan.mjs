// The first scan, as a user meets it: every run with an empty cache directory of its own
// (COMMAND_SCOUT_CACHE_DIR a fresh empty folder; the code cache shipped in dist/ stays), on the
// vite- and git-shaped repositories and on the growth shapes (pnpm workspaces of 1,000 and 5,000
// packages, Makefiles of 1,000 and 10,000 targets), each beside a bare `node -e 0` and the floor
// program (bench/floor.cjs) in the same rounds, whose order rotates. Then in process, each in a
// fresh process: importing the package main, and its first discover() of the vite shape, beside the
// floor program's own work in process. bench/shapes.bench.mjs prints it first.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeMonorepo, median, printTable } from './scripts.bench.mjs'
import { makeBigMakefile, SHAPES } from './shapes.mjs'
import { ms, signedMs as over, wall } from './support.mjs'

// SCOUT_CHECKOUT=<dir> measures another checkout's build the same way (a before/after comparison).
const CHECKOUT = process.env.SCOUT_CHECKOUT ? new URL(`file://${process.env.SCOUT_CHECKOUT.replace(/\/?$/, '/')}`) : new URL('..', import.meta.url)
const BIN = new URL('bin/command-scout', CHECKOUT).pathname
const FLOOR = new URL('floor.cjs', import.meta.url).pathname
const MAIN = new URL('dist/src/index.js', CHECKOUT).href

/** The repositories, with the goal of each: first scan over `node -e 0`. */
const REPOS = [
  ['vite (279 packages)', SHAPES.vite, 35],
  ['git (3,500-line Makefile)', SHAPES.git, 20],
  ['pnpm workspace, 1,000 packages', (d) => makeMonorepo(d, 1000, 'pnpm')],
  ['pnpm workspace, 5,000 packages', (d) => makeMonorepo(d, 5000, 'pnpm'), 250],
  ['Makefile, 1,000 targets', (d) => makeBigMakefile(d, 1000)],
  ['Makefile, 10,000 targets', (d) => makeBigMakefile(d, 10000), 120],
]

/** One scan --format json with a cache directory of its own, made empty for it and removed after (outside the timing). */
export function firstScan(dir) {
  const cache = mkdtempSync(join(tmpdir(), 'scout-bench-empty-cache-'))
  try {
    const env = { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache }
    const argv = [BIN, 'scan', '--format', 'json', '--root', dir]
    return wall(() => execFileSync(process.execPath, argv, { env, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }))
  } finally {
    rmSync(cache, { recursive: true, force: true })
  }
}

function scans(base, runs) {
  const rows = [['repository', 'recipes', 'first scan', 'node -e 0', 'floor', 'first - node (paired)', 'floor - node (paired)', 'goal']]
  for (const [name, make, goal] of REPOS) {
    const dir = join(base, name.replace(/\W+/g, '-'))
    make(dir)
    const argv = [BIN, 'scan', '--format', 'json', '--no-cache', '--root', dir]
    const output = execFileSync(process.execPath, argv, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] })
    const recipes = JSON.parse(output).recipes.length
    const kinds = {
      scan: () => firstScan(dir),
      node: () => wall(() => execFileSync(process.execPath, ['-e', '0'])),
      floor: () => wall(() => execFileSync(process.execPath, [FLOOR, dir, String(output.length)], { maxBuffer: 1 << 28 })),
    }
    const order = Object.keys(kinds)
    const t = { scan: [], node: [], floor: [] }
    const d = { scan: [], floor: [] }
    for (let i = 0; i < runs; i++) {
      const round = {}
      for (let k = 0; k < order.length; k++) {
        const kind = order[(i + k) % order.length]
        round[kind] = kinds[kind]()
      }
      for (const kind of order) t[kind].push(round[kind])
      d.scan.push(round.scan - round.node)
      d.floor.push(round.floor - round.node)
    }
    const times = [ms(median(t.scan)), ms(median(t.node)), ms(median(t.floor))]
    rows.push([name, recipes, ...times, over(median(d.scan)), over(median(d.floor)), goal ? `≤ +${goal} ms` : ''])
  }
  return rows
}

/** In a fresh process: the package main's import, then the first discover() of `dir`. */
function inProcess(dir) {
  const program = `const t0 = performance.now(); const { discover } = await import(${JSON.stringify(MAIN)}); const t1 = performance.now();
    discover(${JSON.stringify(dir)}); const t2 = performance.now(); process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]))`
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`importing the package main failed: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** The floor program's own work (walk, reads, parses) on `dir`, measured inside it. */
function floorInProcess(dir) {
  const r = spawnSync(process.execPath, [FLOOR, dir, '0'], { encoding: 'utf8', env: { ...process.env, FLOOR_TIME: '1' } })
  return Number(r.stderr)
}

export function firstScanFigures(runs) {
  const base = mkdtempSync(join(tmpdir(), 'scout-bench-first-'))
  try {
    console.log(`first scan, every run with an empty cache directory (medians of ${runs} rounds, order rotating; the code cache shipped in dist/ stays)`)
    printTable(scans(base, runs))
    const vite = join(base, 'vite-279-packages-')
    const imports = []
    const firsts = []
    const floors = []
    for (let i = 0; i < runs; i++) {
      const [a, b] = i % 2 === 0 ? [inProcess(vite), floorInProcess(vite)] : (([y, x]) => [x, y])([floorInProcess(vite), inProcess(vite)])
      imports.push(a[0])
      firsts.push(a[1])
      floors.push(b)
    }
    console.log('\nin process, each in a fresh process')
    printTable([
      ['measure', 'median', 'baseline', 'goal'],
      ['importing the package main (dist/src/index.js)', ms(median(imports)), '', '≤ 30 ms'],
      ['first discover() of the vite shape', ms(median(firsts)), `${ms(median(floors))} (the floor program's reads and parses, in process)`, '≤ 20 ms'],
    ])
    console.log('')
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) firstScanFigures(Number(process.env.SHAPES_RUNS ?? 9))
