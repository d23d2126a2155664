// The two tools a user would pick instead, as baselines for bench/compare.bench.mjs, each run from
// .cache/baselines/ (never committed; nothing of theirs is in this repository):
//   - the original command-scout (github.com/JohnXu22786/command-scout, plain Node ESM, reads the
//     root's Makefile, package.json, justfile and deno.json only): a checkout of it at
//     .cache/baselines/command-scout-original, run as `node bin/command-scout.mjs scan --format json`.
//     It is on no package registry: clone it there by hand (the bench says so when it is missing).
//   - oh-my-pi's recipe runners (packages/coding-agent/src/tools/recipe/runners/*.ts of
//     @oh-my-pi/pi-coding-agent 14.9.9, the last release that ships them) under bun: each runner's
//     detect(cwd), as its recipe tool calls them, from a small driver written at run time. Installed by
//     `installOhMyPi()` with npm (the package's tarball, and @oh-my-pi/pi-utils and pi-natives, which
//     the runners import; about 1 GB, mostly pi-natives' prebuilt binaries for every platform), when
//     COMMAND_SCOUT_BENCH_BASELINES=install; bun is the pinned one of test/setup/10-runners.sh.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const DIR = join(REPO, '.cache/baselines')
const ORIGINAL = join(DIR, 'command-scout-original')
const OMP = join(DIR, 'oh-my-pi')
const QUIET = { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }
export const OMP_VERSION = '14.9.9'

/** The original command-scout: { name, run(dir) } or { name, skip } saying how to get it. */
export function originalScout() {
  const bin = join(ORIGINAL, 'bin/command-scout.mjs')
  const name = 'the original command-scout'
  const short = 'original'
  if (!existsSync(bin)) return { name, short, skip: `not at ${ORIGINAL}: git clone https://github.com/JohnXu22786/command-scout ${ORIGINAL} (on no registry)` }
  const run = (dir) => execFileSync(process.execPath, [bin, 'scan', '--format', 'json', '--root', dir], QUIET)
  return { name, short, run }
}

/** bun: the pinned one (test/setup/10-runners.sh), else one on PATH. */
function bunBin() {
  const pinned = join(process.env.COMMAND_SCOUT_RUNNERS_BIN ?? join(REPO, '.cache/runners/node_modules/.bin'), 'bun')
  if (existsSync(pinned)) return pinned
  const r = spawnSync('bun', ['--version'], { stdio: 'ignore' })
  return r.status === 0 ? 'bun' : undefined
}

// The driver: every runner's detect(cwd) at once, as the recipe tool does, then the task count.
const DRIVER = `import { RUNNERS } from './runners/index.ts'
const cwd = process.argv[2]
const found = (await Promise.all(RUNNERS.map((r) => r.detect(cwd)))).filter(Boolean)
process.stdout.write(JSON.stringify(found.map((r) => ({ id: r.id, tasks: r.tasks.length }))) + '\\n')
`

/** Installs oh-my-pi's runners and what they import under .cache/baselines/oh-my-pi (npm only). */
export function installOhMyPi() {
  const scratch = mkdtempSync(join(tmpdir(), 'cs-omp-'))
  try {
    mkdirSync(OMP, { recursive: true })
    const manifest = { private: true, description: 'oh-my-pi recipe runners, a benchmark baseline (bench/baselines.mjs)' }
    writeFileSync(join(OMP, 'package.json'), JSON.stringify(manifest))
    const packages = [`@oh-my-pi/pi-utils@${OMP_VERSION}`, `@oh-my-pi/pi-natives@${OMP_VERSION}`]
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages], { cwd: OMP, stdio: 'inherit' })
    execFileSync('npm', ['pack', '--silent', `@oh-my-pi/pi-coding-agent@${OMP_VERSION}`], { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] })
    const tgz = readdirSync(scratch).find((f) => f.endsWith('.tgz'))
    execFileSync('tar', ['xzf', tgz, 'package/src/tools/recipe/runners'], { cwd: scratch })
    rmSync(join(OMP, 'runners'), { recursive: true, force: true })
    cpSync(join(scratch, 'package/src/tools/recipe/runners'), join(OMP, 'runners'), { recursive: true })
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** oh-my-pi's runners under bun: { name, run(dir) } or { name, skip }. */
export function ohMyPiRunners() {
  const name = `oh-my-pi's runners under bun`
  const short = 'oh-my-pi'
  const bun = bunBin()
  if (!bun) return { name, short, skip: 'bun is not installed (bash test/setup/10-runners.sh installs it)' }
  if (!existsSync(join(OMP, 'runners/index.ts')) && process.env.COMMAND_SCOUT_BENCH_BASELINES === 'install') installOhMyPi()
  if (!existsSync(join(OMP, 'runners/index.ts')) || !existsSync(join(OMP, 'node_modules/@oh-my-pi/pi-utils'))) {
    return { name, short, skip: `not installed at ${OMP}: run the bench with COMMAND_SCOUT_BENCH_BASELINES=install (npm, about 1 GB)` }
  }
  writeFileSync(join(OMP, 'detect.ts'), DRIVER)
  return { name, short, run: (dir) => execFileSync(bun, [join(OMP, 'detect.ts'), dir], { cwd: OMP, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }) }
}
