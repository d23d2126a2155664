// The caches are written only where no one else can change what the path leads to: a cache base
// in a world-writable or foreign-owned directory, or behind another user's link, means no cache
// (the run is right, silently); a folder swapped for a link during a long run is not written
// through; a damaged code cache is discarded and written again instead of crashing V8; the
// folders stay within their bounds.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cacheFolder, privateDir, trustedChain, writePrivate } from '../../dist/src/base/cache-dir.js'
import { settled } from '../support/files.mjs'
import { tempDir, waitUntil } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
const BUNDLE = new URL('../../dist/src/cli.bundle.cjs', import.meta.url).pathname
const ROOT = process.getuid?.() === 0
/** A user id nobody on the machine has: "another user" for chown, as root. */
const OTHER = 4242

function cli(args, env, options = {}) {
  const e = { ...process.env, ...env }
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete e[k]
  delete e.COMMAND_SCOUT_CACHE
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: e, ...options })
}

/** Every file under `dir`, relative. */
function tree(dir) {
  const out = []
  const walk = (d, rel) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      out.push(r)
      if (e.isDirectory()) walk(join(d, e.name), r)
    }
  }
  if (existsSync(dir)) walk(dir, '')
  return out.sort()
}

const noCacheDirEnv = (home) => ({ HOME: home, XDG_CACHE_HOME: undefined, COMMAND_SCOUT_CACHE_DIR: undefined })

test('a world-writable home directory gets no cache: the run is right and writes nothing there', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled' }, (t) => {
  const base = tempDir(t, 'cs-cache-home-')
  const home = join(base, 'home')
  mkdirSync(home)
  chmodSync(home, 0o777)
  const trusted = join(base, 'trusted')
  mkdirSync(trusted, { mode: 0o700 })
  const expected = cli(['recipes', 'list'], { COMMAND_SCOUT_CACHE_DIR: trusted })
  const r = cli(['recipes', 'list'], noCacheDirEnv(home))
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, expected.stdout)
  assert.equal(r.stderr, '')
  assert.deepEqual(tree(home), [], 'nothing was made in a directory others can write')
  // The same home, private: the cache is made there.
  chmodSync(home, 0o700)
  assert.equal(cli(['recipes', 'list'], noCacheDirEnv(home)).status, 0)
  assert.ok(tree(home).some((p) => /^\.cache\/command-scout\/code\/recipes-.*\.bin$/.test(p)), tree(home).join(', '))
})

test('a shared XDG_CACHE_HOME (writable by others) and a cache folder behind another user\'s link get no cache', { skip: (!ROOT && 'needs root to give a link another owner') || (!existsSync(BUNDLE) && 'the CLI is not bundled') }, (t) => {
  const base = tempDir(t, 'cs-cache-xdg-')
  const home = join(base, 'home')
  mkdirSync(home, { mode: 0o700 })
  const shared = join(base, 'shared')
  mkdirSync(shared)
  chmodSync(shared, 0o777)
  const r = cli(['recipes', 'list'], { HOME: home, XDG_CACHE_HOME: shared, COMMAND_SCOUT_CACHE_DIR: undefined })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(tree(shared), [])
  // ~/.cache/command-scout as a link another user made (to a directory of theirs, or a victim's).
  const victim = join(base, 'victim')
  mkdirSync(join(victim, 'code'), { recursive: true, mode: 0o700 })
  mkdirSync(join(home, '.cache'), { mode: 0o700 })
  symlinkSync(victim, join(home, '.cache', 'command-scout'))
  lchownSync(join(home, '.cache', 'command-scout'), OTHER, OTHER)
  assert.equal(cli(['recipes', 'list'], noCacheDirEnv(home)).status, 0)
  assert.deepEqual(tree(victim), ['code'], 'nothing was written through the link')
  // A cache root another user owns (though not writable by others) is no place either.
  const foreign = join(base, 'foreign')
  mkdirSync(foreign, { mode: 0o755 })
  chownSync(foreign, OTHER, OTHER)
  assert.equal(cli(['recipes', 'list'], { COMMAND_SCOUT_CACHE_DIR: foreign }).status, 0)
  assert.deepEqual(tree(foreign), [])
})

test('a cache folder swapped for a link while a long run goes on is not written through at its end', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled' }, async (t) => {
  const base = tempDir(t, 'cs-cache-swap-')
  // The cache base sits in a directory another user could write: the swap below is theirs.
  const shared = join(base, 'shared')
  mkdirSync(shared)
  chmodSync(shared, 0o777)
  const victim = join(base, 'victim')
  mkdirSync(victim, { mode: 0o700 })
  const build = /^\/\*command-scout build ([0-9a-f]+)\*\//.exec(readFileSync(BUNDLE, 'utf8'))[1]
  const name = `mcp-${process.version}-${process.arch}-${build}.bin`
  writeFileSync(join(victim, name), 'a private file of the victim\n', { mode: 0o600 })
  const env = { ...process.env, COMMAND_SCOUT_CACHE_DIR: shared }
  delete env.COMMAND_SCOUT_CACHE
  const repo = tempDir(t, 'cs-cache-swap-repo-')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  const child = spawn(process.execPath, [BIN, 'mcp', '--root', repo], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  t.after(() => child.kill('SIGKILL'))
  let out = ''
  child.stdout.on('data', (c) => (out += c))
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`)
  await waitUntil(() => out.includes('"id":1'), { what: 'the MCP server to answer' })
  // The swap: the folder (made or not) becomes a link to the victim's directory.
  const folder = join(shared, 'code')
  if (existsSync(folder)) renameSync(folder, join(shared, 'moved'))
  symlinkSync(victim, folder)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.stdin.end()
  await exited
  assert.equal(readFileSync(join(victim, name), 'utf8'), 'a private file of the victim\n')
  assert.deepEqual(readdirSync(victim), [name])
})

test('writePrivate checks the folder again when it writes: a folder that became another user\'s link gets nothing', { skip: !ROOT && 'needs root to give a link another owner' }, (t) => {
  const base = tempDir(t, 'cs-cache-write-')
  const env = { COMMAND_SCOUT_CACHE_DIR: join(base, 'cache'), HOME: base }
  const dir = cacheFolder('scans', env)
  assert.equal(dir, join(base, 'cache', 'scans'))
  assert.equal(writePrivate(dir, 'a.json', ['{}'], undefined, env), true)
  assert.equal(statSync(join(dir, 'a.json')).mode & 0o777, 0o600)
  const victim = tempDir(t, 'cs-cache-write-victim-')
  writeFileSync(join(victim, 'a.json'), 'secret', { mode: 0o600 })
  renameSync(dir, join(base, 'cache', 'old'))
  symlinkSync(victim, dir)
  lchownSync(dir, OTHER, OTHER)
  assert.equal(trustedChain(dir, join(base, 'cache')), false)
  assert.equal(writePrivate(dir, 'a.json', ['{"x":1}'], undefined, env), false)
  assert.equal(readFileSync(join(victim, 'a.json'), 'utf8'), 'secret')
  assert.equal(privateDir(dir, env), undefined)
})

test('a damaged code cache is no crash: it is discarded and written again', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled' }, (t) => {
  const base = tempDir(t, 'cs-cache-damaged-')
  const env = { COMMAND_SCOUT_CACHE_DIR: base }
  const first = cli(['recipes', 'list'], env)
  assert.equal(first.status, 0, first.stderr)
  const code = join(base, 'code')
  const [file] = readdirSync(code).filter((n) => n.startsWith('recipes-')).map((n) => join(code, n))
  const good = readFileSync(file)
  assert.equal(good.subarray(0, 6).toString(), 'CSCC2 ', 'the file carries its checksum')
  // Eight bytes changed in V8's part: V8 would end the process with a fatal error (exit 133).
  const bad = Buffer.from(good)
  for (let i = 0; i < 8; i++) bad[2000 + i * 97] ^= 0x5a
  writeFileSync(file, bad)
  for (let run = 0; run < 2; run++) {
    const r = cli(['recipes', 'list'], env)
    assert.equal(r.status, 0, `run ${run}: ${r.stderr.slice(0, 300)}`)
    assert.equal(r.stdout, first.stdout)
    assert.doesNotMatch(r.stderr, /Fatal error|Native stack trace/)
  }
  const again = readFileSync(file)
  assert.notDeepEqual(again, bad, 'the damaged file was replaced')
  assert.equal(again.subarray(0, 6).toString(), 'CSCC2 ')
  // scan keeps V8's own checksum in its caches: a damaged one is rejected by V8's sanity check, never deserialized.
  const repo = tempDir(t, 'cs-cache-damaged-repo-')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  const scanned = cli(['scan', '--root', repo, '--no-cache'], env)
  assert.equal(scanned.status, 0, scanned.stderr)
  const shipped = new URL('../../dist/src/code-cache/', import.meta.url).pathname
  // The scan bundle's own cache (the parsing libraries' caches are named scan-lib.<name>-...).
  const scanName = readdirSync(shipped).find((n) => n.startsWith(`scan-${process.version}-`))
  const scanBytes = Buffer.from(readFileSync(join(shipped, scanName)))
  for (let i = 0; i < 8; i++) scanBytes[5000 + i * 131] ^= 0x5a
  writeFileSync(join(code, scanName), scanBytes, { mode: 0o600 })
  const damagedScan = cli(['scan', '--root', repo, '--no-cache'], env)
  assert.equal(damagedScan.status, 0, damagedScan.stderr.slice(0, 300))
  assert.equal(damagedScan.stdout, scanned.stdout)
  assert.doesNotMatch(damagedScan.stderr, /Fatal error|Native stack trace/)
  assert.notDeepEqual(readFileSync(join(code, scanName)), scanBytes, 'the damaged scan cache was written again')
})

test('the cache folders are kept within their bounds, oldest first', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled' }, async (t) => {
  const base = tempDir(t, 'cs-cache-bound-')
  const code = join(base, 'code')
  const scans = join(base, 'scans')
  mkdirSync(code, { recursive: true, mode: 0o700 })
  mkdirSync(scans, { mode: 0o700 })
  chmodSync(base, 0o700)
  const old = 1_600_000_000
  for (let i = 0; i < 60; i++) {
    writeFileSync(join(code, `old-${i}.bin`), Buffer.alloc(1024))
    utimesSync(join(code, `old-${i}.bin`), old + i, old + i)
  }
  for (let i = 0; i < 400; i++) {
    writeFileSync(join(scans, `old-${i}.json`), '{}')
    utimesSync(join(scans, `old-${i}.json`), old + i, old + i)
  }
  // A stale temporary file of a run that died while writing.
  writeFileSync(join(scans, 'x.json.1.abc.tmp'), 'half')
  utimesSync(join(scans, 'x.json.1.abc.tmp'), old, old)
  const env = { COMMAND_SCOUT_CACHE_DIR: base }
  // recipes writes a code cache (none shipped for it); a scan off a terminal writes its results.
  assert.equal(cli(['recipes', 'list'], env).status, 0)
  const repo = tempDir(t, 'cs-cache-bound-repo-')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  // Results are kept only of files that settled before the scan began (SETTLE_MS): wait for that state.
  await settled([repo], 2_100)
  assert.equal(cli(['scan', '--root', repo], env).status, 0)
  const codeFiles = readdirSync(code)
  assert.ok(codeFiles.length <= 32, `${codeFiles.length} code cache files`)
  assert.ok(codeFiles.some((n) => n.startsWith('recipes-')), 'the one just written stays')
  assert.ok(!codeFiles.includes('old-0.bin') && codeFiles.includes('old-59.bin'), 'the oldest went first')
  const scanFiles = readdirSync(scans)
  assert.ok(scanFiles.length <= 256, `${scanFiles.length} scan cache files`)
  assert.ok(!scanFiles.includes('old-0.json') && scanFiles.includes('old-399.json'))
  assert.ok(!scanFiles.includes('x.json.1.abc.tmp'), 'a stale temporary file is removed')
})
