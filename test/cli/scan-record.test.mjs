// A whole scan remembered (src/book/scan-record.ts): the launcher writes the same bytes again while
// everything the scan was computed from holds, and any change to one of those inputs gives
// exactly what a scan that reads everything gives.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { settled as settledFor, write } from '../support/files.mjs'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
// A scan is remembered only when what it read last changed this long before it began (SETTLE_MS).
const SETTLED_MS = 2_100

/** Waits until nothing under the folders changed for SETTLED_MS. */
const settled = (...dirs) => settledFor(dirs, SETTLED_MS)

/** A scan as a user runs it: its stdout, stderr and exit code. */
function scan(args, { cwd, env }) {
  const r = spawnSync(process.execPath, [BIN, 'scan', ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 })
  return { stdout: r.stdout, stderr: r.stderr, status: r.status }
}

function records(cacheBase) {
  try {
    return readdirSync(join(cacheBase, 'scans')).filter((n) => n.endsWith('.rec')).map((n) => join(cacheBase, 'scans', n))
  } catch {
    return []
  }
}

/** Rewrites `from` as `to` (the same length) in a record's remembered output, so that a replay shows. */
function tamper(file, from, to) {
  assert.equal(from.length, to.length)
  const data = readFileSync(file)
  const at = data.indexOf(10)
  const body = data.subarray(at + 1)
  const i = body.indexOf(from)
  assert.ok(i >= 0, `${from} is not in the record`)
  body.write(to, i)
  writeFileSync(file, data)
}

function env(cacheBase, extra = {}) {
  const e = { ...process.env, COMMAND_SCOUT_CACHE_DIR: cacheBase, ...extra }
  delete e.COMMAND_SCOUT_CACHE
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete e[k]
  return e
}

/** A repository with a workspace, a Makefile (with a whole-second mtime an edit can put back) and pnpm as its runner. */
function repo(t) {
  const dir = tempDir(t, 'cs-record-')
  write(join(dir, 'package.json'), JSON.stringify({ name: 'r', packageManager: 'pnpm@9.0.0', scripts: { build: 'tsc' } }))
  write(join(dir, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n')
  write(join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', scripts: { test: 'vitest' } }))
  write(join(dir, 'Makefile'), 'build: ## Build it\n\techo build\n')
  utimesSync(join(dir, 'Makefile'), 1_700_000_000, 1_700_000_000)
  write(join(dir, 'CMakePresets.json'), JSON.stringify({ version: 3, configurePresets: [{ name: 'dev', condition: { type: 'equals', lhs: '$env{CS_RECORD_WANT}', rhs: 'yes' } }] }))
  write(join(dir, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.20)\n')
  return dir
}

/** PATH without any pnpm, plus `extra` first. */
function pathWithoutPnpm(...extra) {
  const dirs = (process.env.PATH ?? '').split(':').filter((d) => {
    try {
      statSync(join(d, 'pnpm'))
      return false
    } catch {
      return true
    }
  })
  return [...extra, ...dirs].join(':')
}

test('record: a repeat scan replays its output, and each kind of change gives what reading everything gives', async (t) => {
  // Each case: its own repository and cache, the scan's arguments and environment, and the change.
  const fakePnpm = tempDir(t, 'cs-record-bin-')
  const cases = [
    { name: 'a same-size edit with the old mtime put back', change: (dir) => {
      writeFileSync(join(dir, 'Makefile'), 'build: ## Build me\n\techo buil\n')
      utimesSync(join(dir, 'Makefile'), 1_700_000_000, 1_700_000_000)
    } },
    { name: 'a new workspace package', change: (dir) => write(join(dir, 'packages/b/package.json'), JSON.stringify({ name: 'b', scripts: { lint: 'eslint' } })) },
    { name: 'a removed manifest', change: (dir) => writeFileSync(join(dir, 'packages/a/package.json'), '{"name":"a"}') },
    { name: 'the runner installed on PATH', env: { PATH: pathWithoutPnpm() }, changeEnv: { PATH: pathWithoutPnpm(fakePnpm) } },
    { name: 'an environment variable a collector reads', env: { CS_RECORD_WANT: 'yes' }, changeEnv: { CS_RECORD_WANT: undefined } },
    { name: 'the table width off a terminal', args: ['--format', 'table'], env: { COLUMNS: '60' }, changeEnv: { COLUMNS: '120' } },
    { name: 'other arguments', changeArgs: ['--format', 'json', '--no-make'] },
  ]
  writeFileSync(join(fakePnpm, 'pnpm'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(fakePnpm, 'pnpm'), 0o755)
  for (const c of cases) {
    c.dir = repo(t)
    c.cache = tempDir(t, 'cs-record-cache-')
    c.args ??= ['--format', 'json']
    c.extra = c.env ?? {}
    c.env = env(c.cache, c.extra)
  }
  await settled(...cases.map((c) => c.dir))
  for (const c of cases) {
    const opts = { cwd: c.dir, env: c.env }
    const first = scan(c.args, opts)
    assert.equal(first.status, 0, `${c.name}: ${first.stderr}`)
    const [rec] = records(c.cache)
    assert.ok(rec, `${c.name}: the scan was not remembered`)
    assert.equal(statSync(rec).mode & 0o777, 0o600)
    assert.deepEqual(scan(c.args, opts), first, `${c.name}: the replay differs from the scan`)
    // The next scan is the record's: an edit of its remembered bytes shows.
    tamper(rec, 'make build', 'make bXild')
    assert.match(scan(c.args, opts).stdout, /make bXild/, `${c.name}: the scan was not replayed`)
    // The change: the output is a fresh scan's, the same as one that reads everything.
    c.change?.(c.dir)
    const args = c.changeArgs ?? c.args
    const changedOpts = { cwd: c.dir, env: env(c.cache, { ...c.extra, ...c.changeEnv }) }
    const after = scan(args, changedOpts)
    const fresh = scan([...args, '--no-cache'], changedOpts)
    assert.doesNotMatch(after.stdout, /bXild/, `${c.name}: a stale record was replayed`)
    assert.deepEqual(after, fresh, `${c.name}: the scan after the change differs from a full scan`)
    assert.notDeepEqual(after.stdout + after.stderr, first.stdout + first.stderr, `${c.name}: the change changed nothing`)
  }
})

test('record: nothing is remembered from files still changing, with --no-cache or with the caches off; a damaged record is a miss', async (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-record-cache-')
  const opts = { cwd: dir, env: env(cache) }
  // Just written: not kept.
  assert.equal(scan(['--format', 'json'], opts).status, 0)
  assert.deepEqual(records(cache), [])
  await settled(dir)
  assert.equal(scan(['--format', 'json', '--no-cache'], opts).status, 0)
  assert.deepEqual(records(cache), [], '--no-cache remembered the scan')
  assert.equal(scan(['--format', 'json'], { cwd: dir, env: { ...opts.env, COMMAND_SCOUT_CACHE: 'off' } }).status, 0)
  assert.deepEqual(records(cache), [], 'COMMAND_SCOUT_CACHE=off remembered the scan')
  const full = scan(['--format', 'json'], opts)
  const [rec] = records(cache)
  assert.ok(rec)
  // Damaged in three ways: cut short, a header that is not JSON, a header of another shape.
  const good = readFileSync(rec)
  for (const bad of [good.subarray(0, good.length - 5), Buffer.from(`{oops\n${good.subarray(good.indexOf(10) + 1)}`), Buffer.from(`{"format":1,"key":1}\n${good.subarray(good.indexOf(10) + 1)}`)]) {
    writeFileSync(rec, bad)
    assert.deepEqual(scan(['--format', 'json'], opts), full)
    assert.deepEqual(readFileSync(rec), good, 'the damaged record was not written again')
  }
  // A root that can't be scanned is never remembered: the failure is told each time.
  const missing = scan(['--format', 'json', '--root', join(dir, 'nowhere')], opts)
  assert.equal(missing.status, 1)
  assert.equal(records(cache).length, 1)
})

/** The collectors' results file of the one root scanned with `cacheBase` (src/book/scan-cache.ts), parsed. */
function resultsFile(cacheBase) {
  const names = readdirSync(join(cacheBase, 'scans')).filter((n) => n.endsWith('.json'))
  assert.equal(names.length, 1, `one results file, got ${names.join(', ')}`)
  return join(cacheBase, 'scans', names[0])
}

test('record: a first scan remembered whole keeps one copy of its results; the next scan that computes writes them, and the one after reuses them', async (t) => {
  const dir = repo(t)
  const cache = tempDir(t, 'cs-record-cache-')
  const opts = { cwd: dir, env: env(cache) }
  await settled(dir)
  const fresh = scan(['--format', 'json', '--no-cache'], opts)
  // The first scan: its record, and an empty results file for the root.
  assert.deepEqual(scan(['--format', 'json'], opts), fresh)
  assert.equal(records(cache).length, 1)
  assert.deepEqual(JSON.parse(readFileSync(resultsFile(cache), 'utf8')).entries, {})
  // Its record gone (as after a change elsewhere, or another command line): computed again, and the results written.
  for (const rec of records(cache)) unlinkSync(rec)
  assert.deepEqual(scan(['--format', 'json'], opts), fresh)
  const file = resultsFile(cache)
  const data = JSON.parse(readFileSync(file, 'utf8'))
  const make = Object.entries(data.entries).find(([key]) => key.includes('\0make\0'))
  assert.ok(make, `the make collector's result is kept (keys: ${Object.keys(data.entries).join(' | ')})`)
  assert.equal(typeof make[1].result.recipes[0].description, 'string')
  // Reused from the file: a description changed there shows in the next scan whose record is gone.
  make[1].result.recipes[0].description = 'Kept it'
  writeFileSync(file, JSON.stringify(data))
  for (const rec of records(cache)) unlinkSync(rec)
  const reused = scan(['--format', 'json'], opts)
  assert.equal(reused.status, 0)
  assert.match(reused.stdout, /"description": "Kept it"/)
})

test('record: a replay whose reader goes away ends quietly with 141', async (t) => {
  const dir = tempDir(t, 'cs-record-pipe-')
  // Output far larger than a pipe holds, so that the replay is still writing when the reader leaves.
  const scripts = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`task-${i}`, `echo ${'x'.repeat(40)} ${i}`]))
  write(join(dir, 'package.json'), JSON.stringify({ name: 'big', scripts }))
  const cache = tempDir(t, 'cs-record-cache-')
  const e = env(cache)
  await settled(dir)
  const full = scan(['--format', 'json'], { cwd: dir, env: e })
  assert.equal(full.status, 0)
  assert.ok(full.stdout.length > 1 << 20)
  assert.equal(records(cache).length, 1)
  tamper(records(cache)[0], 'task-0"', 'tasX-0"')
  const child = spawn(process.execPath, [BIN, 'scan', '--format', 'json'], { cwd: dir, env: e, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let first = ''
  child.stderr.on('data', (c) => (stderr += c))
  child.stdout.once('data', (c) => {
    first = String(c)
    child.stdout.destroy()
  })
  const code = await new Promise((resolve) => child.on('close', (c) => resolve(c)))
  assert.match(first, /^\{/)
  assert.equal(code, 141, stderr)
  assert.doesNotMatch(stderr, /Error|at /)
  // It was the replay that wrote (the tampered name is what a whole read gives).
  assert.match(scan(['--format', 'json'], { cwd: dir, env: e }).stdout, /tasX-0/)
})

test('record: a scan at a terminal is never remembered, and its table fits the terminal', async (t) => {
  const script = ['/usr/bin/script', '/bin/script'].find((p) => {
    try {
      return statSync(p).isFile()
    } catch {
      return false
    }
  })
  if (!script) return t.skip('util-linux script (a pseudo-terminal to run the CLI in) is not installed')
  const dir = repo(t)
  write(join(dir, 'Makefile'), Array.from({ length: 20 }, (_, i) => `target_${i}: ## ${'a long description of what this target does '.repeat(3)}\n\t@true\n`).join(''))
  const cache = tempDir(t, 'cs-record-cache-')
  await settled(dir)
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`
  const inner = `stty cols 60 rows 40; ${quote(process.execPath)} ${quote(BIN)} scan --root ${quote(dir)}`
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(script, ['-qec', inner, '/dev/null'], { env: env(cache), encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    // The table's rows (the terminal also shows the diagnostics on stderr, which are not cut).
    const lines = r.stdout.split(/\r?\n/).filter((l) => /^(TOOL |[a-z]+_)/.test(l))
    // The table took the terminal's width (off a terminal, without COLUMNS, it would not be cut).
    assert.ok(lines.some((l) => l.startsWith('make_') && l.length > 50), r.stdout)
    for (const l of lines) assert.ok(l.length <= 60, `a line is wider than the terminal: ${JSON.stringify(l)}`)
  }
  assert.deepEqual(records(cache), [])
  // Not remembered whole, so its first scan kept the collectors' results for the next.
  assert.notDeepEqual(JSON.parse(readFileSync(resultsFile(cache), 'utf8')).entries, {})
})
