// The scripts collector against the real package managers (test/setup/runners, on PATH after
// `source test/setup/10-runners.sh`): on temp copies of the fixtures, each manager's own list of
// workspace packages (and scripts, where it can list them without running anything) must equal
// the collector's. The managers never reach the network: offline flags, a dead proxy and
// registry, no dependencies in the fixtures, and --ignore-scripts wherever something installs.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { accessSync, constants, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, relative, sep } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { parse as parseJsonc } from 'jsonc-parser'
import { scriptsCollector } from '../../dist/src/collectors/scripts/collect.js'
import { normalizeConfig } from '../../dist/src/book/config.js'

const FIXTURES = new URL('../fixtures/scripts/', import.meta.url).pathname
const DEFAULTS = normalizeConfig({}).collectors.scripts

function findBin(name) {
  const dirs = [process.env.COMMAND_SCOUT_RUNNERS_BIN, ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean)
  for (const dir of dirs) {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {}
  }
  return undefined
}
const BIN = Object.fromEntries(['npm', 'pnpm', 'yarn', 'bun'].map((n) => [n, findBin(n)]))
const missing = (name) => (BIN[name] ? false : `${name} is not on PATH or in COMMAND_SCOUT_RUNNERS_BIN; run \`source test/setup/10-runners.sh\` (npm test does)`)

const DEAD = 'http://127.0.0.1:9/'
const ENV = {
  ...process.env,
  NO_COLOR: '1',
  CI: '1',
  HTTP_PROXY: DEAD, HTTPS_PROXY: DEAD, http_proxy: DEAD, https_proxy: DEAD,
  npm_config_registry: DEAD,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_ignore_scripts: 'true',
  COREPACK_ENABLE_STRICT: '0',
  // yarn 1 keeps a v8-compile-cache-<uid> folder in the temp folder for good otherwise.
  DISABLE_V8_COMPILE_CACHE: '1',
}
// pnpm: never fetch or switch to the version a packageManager field names (npm warns on these keys).
const PNPM_ENV = { ...ENV, npm_config_manage_package_manager_versions: 'false', npm_config_package_manager_strict: 'false' }

const execFileAsync = promisify(execFile)
async function run(bin, args, cwd) {
  const { stdout } = await execFileAsync(BIN[bin], args, { cwd, env: bin === 'pnpm' ? PNPM_ENV : ENV, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 })
  return stdout
}

function copy(name, sub = '') {
  const dir = mkdtempSync(join(tmpdir(), `scout-runner-${name}-`))
  cpSync(join(FIXTURES, name, sub), dir, { recursive: true })
  return dir
}

const posixRel = (root, abs) => relative(root, abs).split(sep).join('/') || '.'

/** The collector's view with a given runner: package dirs (root excluded) and scripts per dir. */
function ours(root, runner) {
  const result = scriptsCollector.collect({ root, options: { ...DEFAULTS, runner } })
  const dirs = result.files.filter((f) => f.endsWith('package.json') && f !== 'package.json').map((f) => f.slice(0, -'/package.json'.length))
  const scripts = {}
  for (const r of result.recipes) (scripts[r.cwd] ??= {})[r.name] = r.description
  return { dirs: dirs.sort(), scripts }
}

function prefixed(prefix, dirs) {
  return dirs.map((d) => `${prefix}/${d}`)
}

// The managers mostly wait on their own start-up, so the comparisons run side by side.
describe('the scripts collector against npm, pnpm, yarn and bun', { concurrency: 4 }, () => {
// ---- npm: `npm query .workspace` needs the workspace links, made by an offline install with no
// dependencies and --ignore-scripts; it reports each package's location and scripts.
async function npmWorkspaces(dir) {
  await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], dir)
  const list = JSON.parse(await run('npm', ['query', '.workspace', '--offline'], dir))
  const rootScripts = JSON.parse(await run('npm', ['pkg', 'get', 'scripts', '--json', '--offline'], dir))
  const scripts = {}
  if (rootScripts && Object.keys(rootScripts).length) scripts['.'] = rootScripts
  for (const p of list) if (p.scripts && Object.keys(p.scripts).length) scripts[p.location] = p.scripts
  return { dirs: list.map((p) => p.location).sort(), scripts }
}

for (const name of ['npm-monorepo', 'glob-star', 'negation', 'yarn-object']) {
  test(`npm lists the same workspace packages and scripts as the collector: ${name}`, { skip: missing('npm') }, async () => {
    const dir = copy(name)
    try {
      assert.deepEqual(await npmWorkspaces(dir), ours(join(FIXTURES, name), 'npm'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

test('npm pkg --workspaces lists a package without a name under its directory name, as the collector does', { skip: missing('npm') }, async () => {
  const dir = copy('workspace-noname')
  try {
    const byName = JSON.parse(await run('npm', ['pkg', 'get', 'scripts', '--workspaces', '--json', '--offline'], dir))
    const want = ours(join(FIXTURES, 'workspace-noname'), 'npm')
    assert.deepEqual(want.dirs, ['tools/gen'])
    assert.deepEqual(byName, { gen: want.scripts['tools/gen'] })
    // npm query reads the installed tree, where npm links no package without a name.
    assert.deepEqual((await npmWorkspaces(dir)).dirs, [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('npm agrees on nested workspaces level by level (npm itself reads one level)', { skip: missing('npm') }, async () => {
  const top = copy('nested')
  const inner = copy('nested', 'apps/platform')
  try {
    const atRoot = await npmWorkspaces(top)
    const atPlatform = await npmWorkspaces(inner)
    const want = ours(join(FIXTURES, 'nested'), 'npm')
    assert.deepEqual([...atRoot.dirs, ...prefixed('apps/platform', atPlatform.dirs)].sort(), want.dirs)
    assert.deepEqual(atRoot.dirs, ['apps/platform', 'apps/site'], 'npm does not follow the nested workspaces field itself')
    for (const [dir, scripts] of Object.entries(atPlatform.scripts)) {
      assert.deepEqual(scripts, want.scripts[dir === '.' ? 'apps/platform' : `apps/platform/${dir}`])
    }
  } finally {
    rmSync(top, { recursive: true, force: true })
    rmSync(inner, { recursive: true, force: true })
  }
})

// ---- pnpm: `pnpm -r ls --depth -1 --json` lists the workspace projects (root included) offline.
async function pnpmWorkspaces(dir) {
  const list = JSON.parse(await run('pnpm', ['-r', 'ls', '--depth', '-1', '--json', '--offline'], dir))
  return list.map((p) => posixRel(dir, p.path)).filter((d) => d !== '.').sort()
}

test('pnpm lists the same workspace packages as the collector: globs, ** and ! negations, bower_components, decoys', { skip: missing('pnpm') }, async () => {
  const dir = copy('pnpm-monorepo')
  try {
    assert.deepEqual(await pnpmWorkspaces(dir), ours(join(FIXTURES, 'pnpm-monorepo'), 'pnpm').dirs)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('pnpm ignores the workspaces field of package.json, as the collector does when pnpm runs the scripts', { skip: missing('pnpm') }, async () => {
  const dir = copy('pnpm-monorepo')
  try {
    const want = ours(join(FIXTURES, 'pnpm-monorepo'), 'pnpm').dirs
    assert.ok(!want.includes('other/ignored'))
    assert.ok(!(await pnpmWorkspaces(dir)).includes('other/ignored'))
    // and npm, given the same tree, reads only that field
    assert.deepEqual(ours(join(FIXTURES, 'pnpm-monorepo'), 'npm').dirs, ['other/ignored'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('pnpm agrees on a nested pnpm-workspace.yaml level by level', { skip: missing('pnpm') }, async () => {
  const top = copy('nested-pnpm')
  const inner = copy('nested-pnpm', 'apps/platform')
  try {
    const got = [...await pnpmWorkspaces(top), ...prefixed('apps/platform', await pnpmWorkspaces(inner))].sort()
    assert.deepEqual(got, ours(join(FIXTURES, 'nested-pnpm'), 'pnpm').dirs)
  } finally {
    rmSync(top, { recursive: true, force: true })
    rmSync(inner, { recursive: true, force: true })
  }
})

test('pnpm with the npm-style fixtures turned into pnpm workspaces agrees too', { skip: missing('pnpm') }, async () => {
  for (const name of ['npm-monorepo', 'glob-star', 'negation', 'workspace-noname']) {
    const dir = copy(name)
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      const patterns = Array.isArray(pkg.workspaces) ? pkg.workspaces : pkg.workspaces.packages
      writeFileSync(join(dir, 'pnpm-workspace.yaml'), `packages:\n${patterns.map((p) => `  - '${p}'`).join('\n')}\n`)
      assert.deepEqual(await pnpmWorkspaces(dir), ours(dir, 'pnpm').dirs, name)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
})

// ---- yarn 1: `yarn workspaces info --json` maps names to locations.
async function yarnWorkspaces(dir) {
  const out = await run('yarn', ['--offline', '--silent', '--no-progress', 'workspaces', 'info', '--json'], dir)
  const info = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1))
  // With `**`, yarn 1 lists the root itself (location ''): the collector keeps the root apart.
  return Object.values(info).map((p) => p.location).filter((d) => d !== '').sort()
}

/** Script names as `yarn run` (no arguments) lists them: lines `   - name`. */
async function yarnScriptNames(dir) {
  let out
  try {
    out = await run('yarn', ['--offline', '--no-progress', 'run'], dir)
  } catch (error) {
    out = error.stdout // yarn 1 exits 1 after listing ("No command specified")
  }
  return [...out.matchAll(/^ {3}- (.+)$/gm)].map((m) => m[1]).sort()
}

for (const name of ['yarn-object', 'glob-star']) {
  test(`yarn 1 lists the same workspace packages as the collector: ${name}`, { skip: missing('yarn') }, async () => {
    const dir = copy(name)
    try {
      assert.deepEqual(await yarnWorkspaces(dir), ours(join(FIXTURES, name), 'yarn').dirs)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

test('yarn 1 lists the same script names in every package of the yarn fixture', { skip: missing('yarn') }, async () => {
  const dir = copy('yarn-object')
  try {
    const want = ours(join(FIXTURES, 'yarn-object'), 'yarn')
    for (const pkgDir of ['.', ...want.dirs]) {
      assert.deepEqual(await yarnScriptNames(join(dir, pkgDir)), Object.keys(want.scripts[pkgDir] ?? {}).sort(), pkgDir)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('where yarn 1 disagrees: it ignores ! negations, skips packages without name or version, takes a node_modules a glob reaches', { skip: missing('yarn') }, async () => {
  const negation = copy('negation')
  const noname = copy('workspace-noname')
  const monorepo = copy('npm-monorepo')
  try {
    // `apps/*` reaches the decoy apps/node_modules/package.json; yarn 1 takes it, no one else does.
    assert.deepEqual(await yarnWorkspaces(monorepo), ['apps/docs', 'apps/node_modules', 'apps/web', 'packages/ui', 'packages/utils'])
    assert.deepEqual(ours(join(FIXTURES, 'npm-monorepo'), 'yarn').dirs, ['apps/docs', 'apps/web', 'packages/ui', 'packages/utils'])
    assert.deepEqual(await yarnWorkspaces(negation), ['packages/current', 'packages/legacy'])
    assert.deepEqual(ours(join(FIXTURES, 'negation'), 'yarn').dirs, ['packages/current'], 'the collector applies the negation as npm, pnpm and bun do')
    assert.deepEqual(await yarnWorkspaces(noname), [])
    assert.deepEqual(ours(join(FIXTURES, 'workspace-noname'), 'yarn').dirs, ['tools/gen'], 'its scripts still run with yarn run in its directory')
  } finally {
    rmSync(negation, { recursive: true, force: true })
    rmSync(noname, { recursive: true, force: true })
    rmSync(monorepo, { recursive: true, force: true })
  }
})

// ---- bun: `bun install --lockfile-only --ignore-scripts` writes bun.lock (JSONC) without
// installing anything; its "workspaces" keys are the packages bun found.
async function bunWorkspaces(dir) {
  rmSync(join(dir, 'bun.lock'), { force: true })
  await run('bun', ['install', '--lockfile-only', '--ignore-scripts', '--no-progress', '--no-summary'], dir)
  // With no workspace package at all, bun deletes the empty lockfile.
  if (!existsSync(join(dir, 'bun.lock'))) return []
  const lock = parseJsonc(readFileSync(join(dir, 'bun.lock'), 'utf8'))
  return Object.keys(lock.workspaces).filter((d) => d !== '').sort()
}

for (const name of ['npm-monorepo', 'negation', 'yarn-object', 'glob-star']) {
  test(`bun lists the same workspace packages as the collector: ${name}`, { skip: missing('bun') }, async () => {
    const dir = copy(name)
    try {
      assert.deepEqual(await bunWorkspaces(dir), ours(join(FIXTURES, name), 'bun').dirs)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

test('where bun disagrees: it skips a workspace package without a name', { skip: missing('bun') }, async () => {
  const dir = copy('workspace-noname')
  try {
    assert.deepEqual(await bunWorkspaces(dir), [])
    assert.deepEqual(ours(join(FIXTURES, 'workspace-noname'), 'bun').dirs, ['tools/gen'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// ---- Nested workspaces: no manager follows a workspace package's own workspaces from the top
// (each reads one level), so each level is listed where it is declared and the union compared.
async function levelByLevel(list, fixture, inner, runner) {
  const top = copy(fixture)
  const nested = copy(fixture, inner)
  try {
    const atTop = await list(top)
    const got = [...atTop, ...prefixed(inner, await list(nested))].sort()
    assert.deepEqual(got, ours(join(FIXTURES, fixture), runner).dirs)
    assert.ok(!atTop.some((d) => d.startsWith(`${inner}/`)), 'the manager alone reads one level')
  } finally {
    rmSync(top, { recursive: true, force: true })
    rmSync(nested, { recursive: true, force: true })
  }
}

test('yarn 1 agrees on nested workspaces level by level', { skip: missing('yarn') }, async () => {
  await levelByLevel(yarnWorkspaces, 'nested', 'apps/platform', 'yarn')
})

test('bun agrees on nested workspaces level by level', { skip: missing('bun') }, async () => {
  await levelByLevel(bunWorkspaces, 'nested', 'apps/platform', 'bun')
})
})
