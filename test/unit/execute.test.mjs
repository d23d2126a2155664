import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from '../../dist/src/index.js'
import { tempDir, waitUntil } from '../support/temp.mjs'

// A killed process may linger as a zombie until init reaps it: that is dead, not alive.
const alive = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

test('the result has the seed shape and runs in cwd through the shell', async (t) => {
  const dir = tempDir(t, 'cs-exec-')
  const r = await runCommand('pwd; echo err >&2; exit 3', { cwd: dir })
  assert.deepEqual(Object.keys(r).sort(), ['command', 'durationMs', 'exitCode', 'killed', 'ok', 'stderr', 'stdout', 'timedOut'].sort())
  assert.equal(r.stdout.trim(), dir)
  assert.equal(r.stderr.trim(), 'err')
  assert.equal(r.exitCode, 3)
  assert.equal(r.ok, false)
  assert.equal(r.killed, false)
  assert.ok(r.durationMs >= 0)
})

test('a timeout kills the whole tree, grandchildren included', async (t) => {
  const dir = tempDir(t, 'cs-exec-')
  const pids = join(dir, 'pids')
  // A shell that starts a background grandchild and a foreground child, both sleeping long.
  const cmd = `sh -c 'sleep 300 & echo $! >> ${pids}; sleep 300' & echo $! >> ${pids}; (sleep 300; echo late > ${join(dir, 'late')}) & echo $! >> ${pids}; wait`
  // 2 s: long enough for the shell to start all three even on a loaded machine.
  const r = await runCommand(cmd, { cwd: dir, timeoutMs: 2000 })
  assert.equal(r.killed, true)
  assert.equal(r.timedOut, true)
  assert.equal(r.ok, false)
  assert.match(r.stderr, /timed out after 2000 ms/)
  const list = readFileSync(pids, 'utf8').trim().split('\n').map(Number)
  assert.ok(list.length >= 3)
  // The kill is sent by the time runCommand returns; the kernel ends the processes soon after.
  await waitUntil(() => list.every((pid) => !alive(pid)), { what: `pids ${list.filter(alive).join(', ')} to end` })
  assert.equal(existsSync(join(dir, 'late')), false)
})

test('a setsid grandchild is found through the process table and killed', async (t) => {
  const dir = tempDir(t, 'cs-exec-')
  const pidFile = join(dir, 'pid')
  // Stopped once the grandchild has left the group (its pid file is written), not after a guessed time.
  const ac = new AbortController()
  const running = runCommand(`setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' & sleep 300`, { signal: ac.signal, timeoutMs: 120_000 })
  await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', { what: 'the setsid grandchild to start' })
  ac.abort()
  const r = await running
  assert.equal(r.killed, true)
  const pid = Number(readFileSync(pidFile, 'utf8'))
  await waitUntil(() => !alive(pid), { what: `the setsid grandchild ${pid} to end` })
})

test('an abort signal stops the command', async () => {
  const ac = new AbortController()
  setTimeout(() => ac.abort(), 200)
  const r = await runCommand('sleep 30', { signal: ac.signal, timeoutMs: 60_000 })
  assert.equal(r.killed, true)
  assert.equal(r.timedOut, false)
  assert.ok(r.durationMs < 10_000)
  assert.match(r.stderr, /cancelled/)
})

test('each stream is capped without killing the command', async (t) => {
  const dir = tempDir(t, 'cs-exec-')
  const script = join(dir, 'big.js')
  writeFileSync(script, `process.stdout.write('a'.repeat(3000)); process.stderr.write('b'.repeat(50)); require('fs').writeFileSync(${JSON.stringify(join(dir, 'done'))}, 'y')`)
  const r = await runCommand(`node ${script}`, { maxBytes: 1000 })
  assert.equal(r.ok, true)
  assert.equal(r.exitCode, 0)
  assert.ok(r.stdout.startsWith('a'.repeat(1000)))
  assert.match(r.stdout, /output truncated: 2000 more bytes/)
  assert.equal(r.stderr, 'b'.repeat(50))
  assert.ok(existsSync(join(dir, 'done')), 'the command ran to its end')
})

test('the default cap is 1 MiB', async () => {
  const r = await runCommand(`node -e "process.stdout.write('x'.repeat(1024*1024+10))"`)
  assert.equal(r.ok, true)
  assert.ok(r.stdout.startsWith('x'.repeat(1024 * 1024)))
  assert.match(r.stdout, /10 more bytes not shown \(limit 1048576 bytes\)/)
})

test('a missing cwd is a failed result, not a throw', async () => {
  const r = await runCommand('true', { cwd: '/nonexistent/dir/x' })
  assert.equal(r.ok, false)
  assert.match(r.stderr, /nonexistent/)
})
