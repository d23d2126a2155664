// The whole `scan --format json` process on synthetic repositories shaped like four public ones:
// vite (a pnpm workspace of 279 packages), git (a 3,500-line Makefile with includes), tokio (a
// 40-crate Cargo workspace) and a Taskfile with includes. Beside it, in the same run: a bare
// `node -e 0` (the floor any Node CLI pays) and the runner's own listing of the same repository.
// The first run of each repository is reported apart (nothing cached yet). Also: peak memory
// against a bare Node, and a warm in-process discover() on the vite-shaped repository.
// Usage: node bench/shapes.bench.mjs (after npm run build); SHAPES_RUNS=15 for steadier medians.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { findBin, makeMonorepo, median, OFFLINE_ENV, PNPM_ENV, printTable } from './scripts.bench.mjs'

const BIN = new URL('../bin/command-scout', import.meta.url).pathname
const DIST = new URL('../dist/', import.meta.url)
const RUNS = Number(process.env.SHAPES_RUNS ?? 9)
const fmt = (ms) => (ms === undefined ? 'n/a' : `${ms.toFixed(1)} ms`)

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** git's shape: variables, conditionals over uname and config, includes, many rules, one big file. */
function makeGitLike(dir) {
  const lines = ['# A makefile shaped like git\'s', 'all::', 'SHELL_PATH = /bin/sh', "uname_S := $(shell sh -c 'uname -s 2>/dev/null || echo not')", 'include config.mak.uname', '-include config.mak.autogen', '-include config.mak', '']
  for (let i = 0; i < 400; i++) lines.push(`LIB_OBJS += lib/obj${i}.o`)
  for (let i = 0; i < 60; i++) lines.push(`ifdef NO_FEATURE_${i}`, `\tBASIC_CFLAGS += -DNO_FEATURE_${i}`, 'else', `\tLIB_OBJS += compat/feature${i}.o`, 'endif')
  lines.push('ifdef MSVC', 'include compat/vcbuild/scripts/clink.mk', 'endif', 'ifeq ($(uname_S),Darwin)', 'BASIC_LDFLAGS += -framework Security', 'endif')
  for (let i = 0; i < 300; i++) lines.push(`git-cmd${i}$X: builtin/cmd${i}.o GIT-LDFLAGS $(GITLIBS)`, `\t$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -o $@ $(ALL_LDFLAGS) $(filter %.o,$^) $(LIBS)`, '')
  lines.push('.PHONY: all install clean test doc html info reconfigure')
  for (const t of ['install', 'clean', 'test', 'doc', 'html', 'info']) lines.push(`${t}: ## ${t} everything`, `\t$(MAKE) -C sub ${t}`, '')
  lines.push('ifdef AUTOCONFIGURED', 'reconfigure: configure', '\t./configure', 'endif')
  while (lines.length < 3500) lines.push(`# filler comment line ${lines.length}`)
  write(join(dir, 'Makefile'), `${lines.join('\n')}\n`)
  const uname = ['ifeq ($(uname_S),Linux)', 'HAVE_ALLOCA_H = YesPlease', 'endif', 'ifeq ($(uname_S),Windows)', 'MSVC = 1', 'endif']
  for (let i = 0; i < 200; i++) uname.push(`ifeq ($(uname_S),OS${i})`, `\tNO_FEATURE_${i % 60} = YesPlease`, 'endif')
  write(join(dir, 'config.mak.uname'), `${uname.join('\n')}\n`)
}

/** tokio's shape: a virtual workspace of 40 crates with examples, tests and benches. */
function makeTokioLike(dir) {
  const members = Array.from({ length: 40 }, (_, i) => `crates/c${i}`)
  write(join(dir, 'Cargo.toml'), `[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n`)
  for (const [i, m] of members.entries()) {
    write(join(dir, m, 'Cargo.toml'), `[package]\nname = "c${i}"\nversion = "0.1.0"\nedition = "2021"\n\n[[example]]\nname = "ex${i}-declared"\npath = "examples/declared.rs"\n`)
    write(join(dir, m, 'src/lib.rs'), 'pub fn f() {}\n')
    for (let k = 0; k < 4; k++) write(join(dir, m, `examples/e${k}.rs`), 'fn main() {}\n')
    write(join(dir, m, 'examples/declared.rs'), 'fn main() {}\n')
    for (let k = 0; k < 3; k++) write(join(dir, m, `tests/t${k}.rs`), '#[test] fn t() {}\n')
  }
}

/** A Taskfile with includes: 10 included files of 20 tasks each, one of them flattened. */
function makeTaskfileLike(dir) {
  const includes = Array.from({ length: 10 }, (_, i) => `  ns${i}:\n    taskfile: ./tasks/ns${i}.yml${i === 0 ? '\n    flatten: true' : ''}`)
  write(join(dir, 'Taskfile.yml'), `version: '3'\nincludes:\n${includes.join('\n')}\ntasks:\n  default:\n    desc: Build everything\n    cmds: [echo all]\n`)
  for (let i = 0; i < 10; i++) {
    const tasks = Array.from({ length: 20 }, (_, k) => `  t${i}-${k}:\n    desc: Task ${k} of ${i}\n    cmds:\n      - echo ${k}`)
    write(join(dir, `tasks/ns${i}.yml`), `version: '3'\ntasks:\n${tasks.join('\n')}\n`)
  }
}

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
    ['vite (279 packages)', (d) => makeMonorepo(d, 279, 'pnpm'), () => { const pnpm = findBin('pnpm'); return pnpm && ((d) => execFileSync(pnpm, ['ls', '-r', '--depth', '-1', '--json'], { cwd: d, env: PNPM_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'pnpm ls -r --depth -1'],
    ['git (3,500-line Makefile)', makeGitLike, () => findBin('make') && ((d) => spawnSync('make', ['-pRrq', '-f', 'Makefile', ':'], { cwd: d, env: { PATH: process.env.PATH, LC_ALL: 'C' }, stdio: 'ignore' })), 'make -pRrq :'],
    ['tokio (40 crates)', makeTokioLike, () => { const cargo = findBin('cargo') ?? (existsSync('/root/.cargo/bin/cargo') ? '/root/.cargo/bin/cargo' : undefined); return cargo && ((d) => execFileSync(cargo, ['metadata', '--no-deps', '--offline', '--format-version', '1'], { cwd: d, env: OFFLINE_ENV, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })) }, 'cargo metadata --no-deps'],
    ['Taskfile with includes', makeTaskfileLike, () => findBin('task') && ((d) => execFileSync('task', ['--list-all'], { cwd: d, stdio: ['ignore', 'pipe', 'ignore'] })), 'task --list-all'],
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
