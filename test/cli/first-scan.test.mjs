// A first scan with an empty cache directory (bin/command-scout): the caches the build ships stand in
// for the user's, the user's folders are made only to write in, a file in a folder someone else can
// change is never read, and each parsing library is its own script, used only with the bundle it
// was built with.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { settled, write } from '../support/files.mjs'
import { tempDir } from '../support/temp.mjs'

const ROOT = new URL('../../', import.meta.url).pathname
const BIN = join(ROOT, 'bin/command-scout')
const BUNDLE = join(ROOT, 'dist/src/cli.bundle.cjs')
const LIBS = join(ROOT, 'dist/src/cli-libs')
const bundled = { skip: !existsSync(BUNDLE) && 'the CLI is not bundled (no esbuild)' }
// A scan is remembered only when what it read last changed this long before it began (SETTLE_MS).
const SETTLED_MS = 2_100

function scan(bin, root, env) {
  const options = { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 }
  const r = spawnSync(process.execPath, [bin, 'scan', '--format', 'json', '--root', root], options)
  return { stdout: r.stdout, stderr: r.stderr, status: r.status }
}

/** What a scan that reads everything prints, with every cache off. */
function plainScan(bin, root) {
  return scan(bin, root, { COMMAND_SCOUT_CACHE: 'off' })
}

/** A repository whose scan needs a YAML and a glob library: a pnpm workspace, and a Makefile. */
function repo(t) {
  const dir = tempDir(t, 'cs-first-')
  write(join(dir, 'package.json'), JSON.stringify({ name: 'r', packageManager: 'pnpm@9.0.0', scripts: { build: 'tsc' } }))
  write(join(dir, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n')
  write(join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', scripts: { test: 'vitest' } }))
  write(join(dir, 'Makefile'), 'build: ## Build it\n\techo build\n')
  return dir
}

function buildOf(file) {
  return /^\/\*command-scout build ([0-9a-f]{24})\*\//.exec(readFileSync(file, 'latin1'))?.[1]
}

/** Whether the build shipped caches for this Node (it makes them with the Node that builds; V8 takes no other's). */
const shippedHere = () => existsSync(join(ROOT, 'dist/src/code-cache', `scan-${process.version}-${process.arch}-${buildOf(BUNDLE)}.bin`))

/** The user's code cache files, none when the folder was never made. */
function codeFiles(cache) {
  const code = join(cache, 'code')
  return existsSync(code) ? readdirSync(code) : []
}

test('first scan: the shipped caches stand in, nothing is made in the code folder, and the scan is remembered privately', bundled, (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-first-cache-')
  const r = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(r, plainScan(BIN, dir))
  assert.match(r.stdout, /"command": "make build"/)
  assert.match(r.stdout, /"command": "pnpm test"|"command": "pnpm run test"/)
  // V8 took the shipped caches of the bundle and of the libraries the scan loaded: none of the user's was written
  // (on a Node the build did not make them for, the run writes its own).
  if (shippedHere()) assert.deepEqual(codeFiles(cache), [])
  else assert.ok(codeFiles(cache).some((n) => n.startsWith(`scan-${process.version}-`)), 'the run wrote its own cache')
  // The results and the remembered scan are written, in a folder only this user can read.
  const scans = join(cache, 'scans')
  assert.equal(statSync(scans).mode & 0o777, 0o700)
  assert.ok(readdirSync(scans).some((n) => n.endsWith('.json')), 'the per-root results are kept')
})

test('libraries: each a script of its own with the bundle\'s build id, and shipped caches for those a scan loads', bundled, () => {
  const build = buildOf(BUNDLE)
  const names = readdirSync(LIBS)
  for (const lib of ['js-yaml', 'tinyglobby', 'picomatch']) assert.ok(names.includes(`${lib}.cjs`), `${lib} is split out`)
  for (const n of names) assert.equal(buildOf(join(LIBS, n)), build, `${n} is from the bundle's build`)
  // The bundle no longer holds them: each comes through the launcher's loader.
  const text = readFileSync(BUNDLE, 'latin1')
  assert.match(text, /__bundleRequire\("js-yaml"\)/)
  assert.doesNotMatch(text, /\brequire\("js-yaml"\)/)
  if (!shippedHere()) return
  const shipped = readdirSync(join(ROOT, 'dist/src/code-cache'))
  for (const lib of ['js-yaml', 'tinyglobby', 'picomatch']) {
    assert.ok(shipped.includes(`scan-lib.${lib}-${process.version}-${process.arch}-${build}.bin`), `a shipped cache for ${lib}`)
  }
})

test('the scan path is inside the bundle: scan, docs and the table are never imported from outside it', bundled, () => {
  const text = readFileSync(BUNDLE, 'latin1')
  const outside = [...text.matchAll(/__bundleImport\("([^"]+)"\)/g)].map((m) => m[1])
  assert.ok(outside.includes('./cli/run.js'), 'the other subcommands are outside')
  for (const module of ['./cli/scan.js', './cli/docs.js', './cli/table.js']) assert.ok(!outside.includes(module), `${module} is in the bundle`)
})

/** The launcher and its built files in a folder of their own, so that a test can change them. */
function copyOfTheBuild(t) {
  const copy = tempDir(t, 'cs-first-build-')
  cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true })
  mkdirSync(join(copy, 'dist/src'), { recursive: true })
  for (const part of ['cli.bundle.cjs', 'launcher.cjs', 'launcher-start.cjs', 'cli-libs', 'code-cache']) {
    cpSync(join(ROOT, 'dist/src', part), join(copy, 'dist/src', part), { recursive: true })
  }
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'))
  return copy
}

test('libraries: one from another build is compiled without any cache, and the scan is the same', bundled, (t) => {
  const copy = copyOfTheBuild(t)
  const yaml = join(copy, 'dist/src/cli-libs/js-yaml.cjs')
  const text = readFileSync(yaml, 'latin1')
  const other = text.replace(/^\/\*command-scout build [0-9a-f]{24}\*\//, `/*command-scout build ${'0'.repeat(24)}*/`)
  assert.notEqual(other, text)
  writeFileSync(yaml, other, 'latin1')
  const dir = repo(t)
  const cache = tempDir(t, 'cs-first-other-')
  const r = scan(join(copy, 'bin/command-scout'), dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(r, plainScan(BIN, dir))
  // No cache was made for the library from another build (nor, where the build shipped them, for anything else).
  assert.ok(!codeFiles(cache).some((n) => n.includes('lib.js-yaml')), 'no cache for the library from another build')
  if (shippedHere()) assert.deepEqual(codeFiles(cache), [])
})

test('a code cache in a folder others can write is never read; in the user\'s own folder a damaged one is replaced', bundled, (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-first-open-')
  const build = buildOf(BUNDLE)
  const code = join(cache, 'code')
  mkdirSync(code, { mode: 0o700 })
  const file = join(code, `scan-${process.version}-${process.arch}-${build}.bin`)
  const damaged = Buffer.alloc(4096, 7)
  writeFileSync(file, damaged, { mode: 0o600 })
  chmodSync(code, 0o777)
  const open = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(open.status, 0, open.stderr)
  assert.deepEqual(readFileSync(file), damaged, 'a file in a folder others can write is left alone, unread')
  chmodSync(code, 0o700)
  const own = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(own.status, 0, own.stderr)
  assert.equal(own.stdout, open.stdout)
  const rewritten = readFileSync(file)
  assert.notDeepEqual(rewritten, damaged, 'V8 refused the damaged file, and the run wrote a good one')
  assert.ok(rewritten.length > 10_000)
})

test('a remembered scan in a folder others can write is never replayed', bundled, async (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-first-record-')
  await settled([dir], SETTLED_MS)
  const first = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(first.status, 0, first.stderr)
  const scans = join(cache, 'scans')
  const [record] = readdirSync(scans).filter((n) => n.endsWith('.rec'))
  assert.ok(record, 'the scan is remembered')
  // The remembered output changed in place (same length), so that a replay shows.
  const data = readFileSync(join(scans, record))
  const body = data.indexOf('make build', data.indexOf(10))
  assert.ok(body > 0)
  data.write('make BUILD', body)
  writeFileSync(join(scans, record), data)
  chmodSync(scans, 0o777)
  const open = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(open.stdout, first.stdout, 'read in full, not replayed')
  chmodSync(scans, 0o700)
  const own = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.match(own.stdout, /make BUILD/, 'in the user\'s own folder the record is replayed')
})

test('a scan whose output is large ends with all of it written, and with its exit codes', bundled, (t) => {
  const dir = tempDir(t, 'cs-first-large-')
  const targets = Array.from({ length: 3000 }, (_, i) => `t${i}: ## target ${i} ${'x'.repeat(40)}\n\techo ${i}\n`)
  write(join(dir, 'Makefile'), targets.join(''))
  const cache = tempDir(t, 'cs-first-large-cache-')
  const r = scan(BIN, dir, { COMMAND_SCOUT_CACHE_DIR: cache })
  assert.equal(r.status, 0, r.stderr)
  assert.ok(r.stdout.length > 500_000, `${r.stdout.length} bytes`)
  const names = new Set(JSON.parse(r.stdout).recipes.map((recipe) => recipe.name))
  for (const name of ['t0', 't1500', 't2999']) assert.ok(names.has(name), `${name} is in the output`)
  assert.equal(r.stdout, plainScan(BIN, dir).stdout)
  assert.equal(scan(BIN, join(dir, 'missing'), { COMMAND_SCOUT_CACHE_DIR: cache }).status, 1)
  const usage = spawnSync(process.execPath, [BIN, 'scan', '--format', 'nope'], { encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache } })
  assert.equal(usage.status, 2)
})

test('the flags of a scan are set without a deprecation warning, even where every deprecation throws', bundled, (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-first-flags-')
  for (const flags of [[], ['--pending-deprecation', '--throw-deprecation']]) {
    const r = spawnSync(process.execPath, [...flags, BIN, 'scan', '--format', 'json', '--root', dir], {
      encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache },
    })
    assert.equal(r.status, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /Deprecation|DEP0\d+/, `no deprecation warning with ${flags.join(' ') || 'no flags'}`)
    assert.match(r.stdout, /"command": "make build"/)
  }
})
