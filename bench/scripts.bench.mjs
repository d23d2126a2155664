// The scripts collector on a synthetic pnpm monorepo (250, 500 and 1,000 packages), against the
// package managers' own workspace listings in the same run: `pnpm -r ls --depth -1 --json` on the
// pnpm tree, and `npm query .workspace` on an npm-style copy (workspaces in package.json; npm needs
// an offline, dependency-free install first to link the workspaces, done once, outside the timing).
// Prints medians and ratios. Usage: node bench/scripts.bench.mjs (after npm run build; the pinned
// runners on PATH: source test/setup/10-runners.sh, or npm run bench).
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { accessSync, constants } from 'node:fs'

const DIST = new URL('../dist/', import.meta.url)

/**
 * Writes a monorepo of `count` packages under `dir`: groups `packages/*`, `apps/*` and
 * `libs/<area>/*` (a `**` pattern), a negated `examples/*`, a node_modules decoy in every tenth
 * package, each package with 6 scripts. `style` is 'pnpm' (pnpm-workspace.yaml) or 'npm' (package.json).
 */
export function makeMonorepo(dir, count, style = 'pnpm') {
  const patterns = ['packages/*', 'apps/*', 'libs/**', '!examples/*']
  const root = {
    name: 'bench-monorepo',
    version: '1.0.0',
    private: true,
    ...(style === 'pnpm' ? { packageManager: 'pnpm@9.1.0' } : { workspaces: patterns }),
    scripts: { build: 'turbo run build', test: 'turbo run test', lint: 'eslint .', format: 'prettier -w .' },
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify(root, null, 2))
  if (style === 'pnpm') writeFileSync(join(dir, 'pnpm-workspace.yaml'), `packages:\n${patterns.map((p) => `  - '${p}'`).join('\n')}\n`)
  for (let i = 0; i < count; i++) {
    const group = i % 3 === 0 ? 'packages' : i % 3 === 1 ? 'apps' : `libs/area-${i % 7}`
    const pkgDir = join(dir, group, `pkg-${i}`)
    mkdirSync(pkgDir, { recursive: true })
    const pkg = {
      name: `@bench/pkg-${i}`,
      version: '1.0.0',
      description: 'A synthetic package with the fields a real one has.',
      main: 'dist/index.js',
      scripts: { build: 'tsc -p .', dev: 'tsc -w', test: 'vitest run', 'test:watch': 'vitest', lint: 'eslint src', prepare: 'echo prepared' },
      keywords: ['bench', 'synthetic'],
      license: 'MIT',
    }
    writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(pkg, null, 2))
    if (i % 10 === 0) {
      mkdirSync(join(pkgDir, 'node_modules', 'decoy'), { recursive: true })
      writeFileSync(join(pkgDir, 'node_modules', 'decoy', 'package.json'), '{"name":"decoy","scripts":{"x":"y"}}')
    }
  }
  for (let i = 0; i < 5; i++) {
    mkdirSync(join(dir, 'examples', `ex-${i}`), { recursive: true })
    writeFileSync(join(dir, 'examples', `ex-${i}`, 'package.json'), `{"name":"ex-${i}","version":"1.0.0","scripts":{"start":"node ."}}`)
  }
}

export function findBin(name) {
  for (const d of [process.env.COMMAND_SCOUT_RUNNERS_BIN, ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean)) {
    try {
      accessSync(join(d, name), constants.X_OK)
      return join(d, name)
    } catch {}
  }
  return undefined
}

/** No network for any runner: a dead proxy and registry, no update checks, no install scripts. */
export const OFFLINE_ENV = {
  ...process.env,
  NO_COLOR: '1',
  HTTP_PROXY: 'http://127.0.0.1:9/',
  HTTPS_PROXY: 'http://127.0.0.1:9/',
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_update_notifier: 'false',
  npm_config_ignore_scripts: 'true',
  DENO_NO_UPDATE_CHECK: '1',
}
/** pnpm must not fetch or switch to the version a packageManager field names (npm warns on these keys). */
export const PNPM_ENV = { ...OFFLINE_ENV, npm_config_manage_package_manager_versions: 'false', npm_config_package_manager_strict: 'false' }

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** Median wall time in ms of `fn` over `runs` runs, after one warm-up run. */
export function time(fn, runs) {
  fn()
  const samples = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    fn()
    samples.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(samples)
}

export function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)))
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '))
}

const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`

async function main() {
  const { scriptsCollector } = await import(new URL('src/collectors/scripts/collect.js', DIST))
  const { normalizeConfig } = await import(new URL('src/book/config.js', DIST))
  const options = normalizeConfig({}).collectors.scripts
  const pnpm = findBin('pnpm')
  const npm = findBin('npm')
  const base = mkdtempSync(join(tmpdir(), 'scout-bench-scripts-'))
  const rows = [['packages', 'collector (in process)', 'pnpm -r ls', 'ratio', 'npm query .workspace', 'ratio', 'recipes']]
  const linear = []
  try {
    for (const count of [250, 500, 1000]) {
      const pnpmDir = join(base, `pnpm-${count}`)
      const npmDir = join(base, `npm-${count}`)
      makeMonorepo(pnpmDir, count, 'pnpm')
      makeMonorepo(npmDir, count, 'npm')
      const result = scriptsCollector.collect({ root: pnpmDir, options })
      const packages = new Set(result.recipes.map((r) => r.cwd)).size - 1
      if (packages !== count) throw new Error(`the collector found ${packages} packages, expected ${count}`)
      const ours = time(() => scriptsCollector.collect({ root: pnpmDir, options }), 15)
      linear.push([count, ours])
      let pnpmMs = NaN
      if (pnpm) {
        const listed = JSON.parse(execFileSync(pnpm, ['-r', 'ls', '--depth', '-1', '--json', '--offline'], { cwd: pnpmDir, env: PNPM_ENV, maxBuffer: 1 << 28 })).length - 1
        if (listed !== count) throw new Error(`pnpm listed ${listed} packages, expected ${count}`)
        pnpmMs = time(() => execFileSync(pnpm, ['-r', 'ls', '--depth', '-1', '--json', '--offline'], { cwd: pnpmDir, env: PNPM_ENV, maxBuffer: 1 << 28 }), 5)
      }
      let npmMs = NaN
      if (npm) {
        execFileSync(npm, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: npmDir, env: OFFLINE_ENV, stdio: 'ignore' })
        const listed = JSON.parse(execFileSync(npm, ['query', '.workspace', '--offline'], { cwd: npmDir, env: OFFLINE_ENV, maxBuffer: 1 << 28 })).length
        if (listed !== count) throw new Error(`npm listed ${listed} packages, expected ${count}`)
        npmMs = time(() => execFileSync(npm, ['query', '.workspace', '--offline'], { cwd: npmDir, env: OFFLINE_ENV, maxBuffer: 1 << 28 }), 5)
      }
      rows.push([count, fmt(ours), pnpm ? fmt(pnpmMs) : 'n/a', pnpm ? `${(pnpmMs / ours).toFixed(1)}x` : '', npm ? fmt(npmMs) : 'n/a', npm ? `${(npmMs / ours).toFixed(1)}x` : '', result.recipes.length])
      rmSync(npmDir, { recursive: true, force: true })
    }
    console.log('scripts collector vs the package managers\' own workspace listing (medians; ratio = theirs / ours)')
    printTable(rows)
    const [[n0, t0]] = linear
    console.log(`linearity (time per package, relative to ${n0}): ${linear.map(([n, t]) => `${n}: ${((t / n) / (t0 / n0)).toFixed(2)}`).join(', ')}`)
    if (!pnpm || !npm) console.log('(a baseline is n/a when its manager is not on PATH: source test/setup/10-runners.sh)')
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
