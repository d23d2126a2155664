// The launcher compiles the CLI bundle with V8's code cache: one private file per subcommand,
// used by the next run, rewritten when V8 rejects it, never written with COMMAND_SCOUT_CACHE=off;
// and the errors of subcommands outside the bundle still get their one-line message.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
const BUNDLE = new URL('../../dist/src/cli.bundle.cjs', import.meta.url).pathname

function cli(args, env, cwd) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { ...process.env, ...env } })
}

test('code cache: a private file per subcommand, reused, rewritten when rejected, none when off', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled (no esbuild)' }, (t) => {
  const base = tempDir(t, 'cs-code-cache-')
  const env = { COMMAND_SCOUT_CACHE_DIR: base }
  // `recipes` has no cache from the build: its first run writes one.
  const first = cli(['recipes', 'list'], env)
  assert.equal(first.status, 0, first.stderr)
  const codeDir = join(base, 'code')
  const files = () => readdirSync(codeDir).filter((n) => n.endsWith('.bin'))
  assert.equal(statSync(codeDir).mode & 0o777, 0o700)
  const [cacheName] = files()
  assert.match(cacheName, new RegExp(`^recipes-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{24}\\.bin$`))
  assert.equal(statSync(join(codeDir, cacheName)).mode & 0o777, 0o600)
  const written = readFileSync(join(codeDir, cacheName))
  assert.ok(written.length > 10_000, `a cache of ${written.length} bytes`)
  // The next run reads it and leaves it as it is; its output is the same.
  const second = cli(['recipes', 'list'], env)
  assert.equal(second.stdout, first.stdout)
  assert.deepEqual(readFileSync(join(codeDir, cacheName)), written)
  // Another subcommand gets its own file.
  assert.equal(cli(['--version'], env).status, 0)
  assert.equal(files().length, 2)
  // A damaged cache: V8 rejects it, the run is right, and the file is written again.
  writeFileSync(join(codeDir, cacheName), Buffer.alloc(4096, 7))
  const third = cli(['recipes', 'list'], env)
  assert.equal(third.stdout, first.stdout)
  assert.ok(readFileSync(join(codeDir, cacheName)).length > 10_000)
  // COMMAND_SCOUT_CACHE=off: nothing is written.
  const off = tempDir(t, 'cs-code-cache-off-')
  const plain = cli(['recipes', 'list'], { COMMAND_SCOUT_CACHE_DIR: off, COMMAND_SCOUT_CACHE: 'off' })
  assert.equal(plain.stdout, first.stdout)
  assert.deepEqual(readdirSync(off), [])
  // An unwritable cache directory is no error.
  const ro = tempDir(t, 'cs-code-cache-ro-')
  writeFileSync(join(ro, 'code'), 'a file where the directory should be')
  const blocked = cli(['recipes', 'list'], { COMMAND_SCOUT_CACHE_DIR: ro })
  assert.equal(blocked.status, 0, blocked.stderr)
  assert.equal(blocked.stdout, first.stdout)
})

test('code cache: errors thrown by subcommands loaded from outside the bundle keep their exit codes and one-line messages', (t) => {
  const base = tempDir(t, 'cs-code-cache-err-')
  const repo = tempDir(t, 'cs-code-cache-err-repo-')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  for (let i = 0; i < 2; i++) {
    // run (outside the bundle): an unknown name is a usage error listing what there is.
    const missing = cli(['run', 'nosuch', '--root', repo], { COMMAND_SCOUT_CACHE_DIR: base })
    assert.equal(missing.status, 2)
    assert.match(missing.stderr, /^command-scout: no command "nosuch"; available:\n(  \S+ +make.*\n)*  make_build +make build\n/)
    assert.doesNotMatch(missing.stderr, /\n\s+at /)
    // recipes (outside the bundle): a usage error.
    const bad = cli(['recipes', 'show'], { COMMAND_SCOUT_CACHE_DIR: base })
    assert.equal(bad.status, 2, bad.stderr)
    assert.doesNotMatch(bad.stderr, /\n\s+at /)
  }
})

test('code cache: the build ships one for scan and docs, and a first run starts from it', { skip: !existsSync(BUNDLE) && 'the CLI is not bundled (no esbuild)' }, (t) => {
  const shipped = new URL('../../dist/src/code-cache/', import.meta.url).pathname
  const names = readdirSync(shipped).sort()
  // The bundle's, and each of its libraries' (dist/src/cli-libs/) that the build's scans loaded.
  assert.deepEqual([...new Set(names.map((n) => n.split('-')[0]))], ['docs', 'scan'])
  const build = /^\/\*command-scout build ([0-9a-f]{24})\*\//.exec(readFileSync(BUNDLE, 'utf8'))[1]
  for (const s of ['docs', 'scan']) assert.ok(names.includes(`${s}-${process.version}-${process.arch}-${build}.bin`), `the bundle's cache for ${s}`)
  for (const n of names) assert.ok(n.endsWith(`-${process.version}-${process.arch}-${build}.bin`), `${n} is for this bundle and this Node`)
  // A first run starts from the shipped cache and, V8 taking it, writes none of its own (nor makes the folder).
  const base = tempDir(t, 'cs-code-cache-first-')
  const repo = tempDir(t, 'cs-code-cache-first-repo-')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  const r = cli(['scan', '--format', 'json', '--root', repo], { COMMAND_SCOUT_CACHE_DIR: base })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(existsSync(join(base, 'code')) ? readdirSync(join(base, 'code')) : [], [])
  assert.match(r.stdout, /"command": "make build"/)
})
