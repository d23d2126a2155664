// `docs --output`: the names of the standard streams are the streams themselves, never a file put
// in their place; any other path under /dev, /proc or /sys is refused; an empty path says so.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { lstatSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { outputTarget } from '../../dist/src/cli/docs.js'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname

function repo(t) {
  const dir = tempDir(t, 'cs-docs-out-')
  writeFileSync(join(dir, 'Makefile'), 'build: ## Build it\n\techo build\n')
  return dir
}

function docs(args, cwd, stdio) {
  return spawnSync(process.execPath, [BIN, 'docs', ...args], { cwd, encoding: 'utf8', ...(stdio ? { stdio } : {}) })
}

test('outputTarget: the streams by name are descriptors, other system paths are refused, an empty path is a usage error', () => {
  // First, so that no CLI below ever replaces a device on a build that gets this wrong.
  assert.equal(outputTarget('/dev/stdout', '/'), 1)
  assert.equal(outputTarget('/dev/stderr', '/'), 2)
  assert.equal(outputTarget('/dev/fd/1', '/'), 1)
  assert.equal(outputTarget('/dev/fd/7', '/'), 7)
  assert.equal(outputTarget('/proc/self/fd/2', '/'), 2)
  assert.equal(outputTarget(`/proc/${process.pid}/fd/1`, '/'), 1)
  assert.equal(outputTarget('-', '/'), 1)
  assert.equal(outputTarget('stdout', '/dev'), 1, 'relative to a working directory in /dev')
  for (const bad of ['/dev/null', '/dev/sda', '/dev/shm/x', '/proc/sys/kernel/hostname', '/proc/1/environ', '/sys/kernel/x', '/dev']) {
    assert.throws(() => outputTarget(bad, '/'), { name: 'CliFailure', message: /system path/ }, bad)
  }
  assert.throws(() => outputTarget('', '/tmp'), { name: 'UsageError', message: /--output is empty/ })
  assert.equal(outputTarget('docs/COMMANDS.md', '/repo'), '/repo/docs/COMMANDS.md')
})

test('docs --output /dev/stdout, /dev/fd/1 and /proc/self/fd/1 write the stream, and /dev/stdout stays what it was', (t) => {
  const dir = repo(t)
  const before = lstatSync('/dev/stdout')
  const plain = docs(['--output', '-'], dir)
  assert.equal(plain.status, 0, plain.stderr)
  assert.match(plain.stdout, /^# Commands/)
  for (const name of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
    const r = docs(['--output', name], dir)
    assert.equal(r.status, 0, `${name}: ${r.stderr}`)
    assert.equal(r.stdout, plain.stdout, name)
  }
  const after = lstatSync('/dev/stdout')
  assert.equal(after.isSymbolicLink(), before.isSymbolicLink())
  assert.equal(after.ino, before.ino, '/dev/stdout was not replaced')
  // /dev/stderr is stderr.
  const err = docs(['--output', '/dev/stderr'], dir)
  assert.equal(err.status, 0)
  assert.equal(err.stdout, '')
  assert.match(err.stderr, /^# Commands/)
})

test('docs --output /dev/fd/3 writes to descriptor 3 as the shell opened it', (t) => {
  const dir = repo(t)
  const file = join(dir, 'out.md')
  const fd = openSync(file, 'w')
  try {
    const r = docs(['--output', '/dev/fd/3'], dir, ['ignore', 'pipe', 'pipe', fd])
    assert.equal(r.status, 0, r.stderr)
  } finally {
    closeSync(fd)
  }
  assert.match(readFileSync(file, 'utf8'), /^# Commands/)
})

test('docs --output: a device or kernel path is refused in one line, an empty one says it is empty', (t) => {
  const dir = repo(t)
  const devnull = docs(['--output', '/dev/null'], dir)
  assert.equal(devnull.status, 1)
  assert.match(devnull.stderr, /^command-scout: won't write COMMANDS\.md to \/dev\/null: it is a system path .*\n$/)
  assert.ok(lstatSync('/dev/null').isCharacterDevice())
  const empty = docs(['--output', ''], dir)
  assert.equal(empty.status, 2)
  assert.match(empty.stderr, /^command-scout: --output is empty; give a file path, or '-' for stdout\nTry 'command-scout docs --help'\.\n$/)
  assert.doesNotMatch(empty.stderr, /is a directory/)
})
