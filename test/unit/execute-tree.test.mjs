// runCommand stops the whole recorded tree: setsid children, children that ignore SIGTERM,
// double-fork daemons adopted by init, and it stops waiting on pipes the killed tree held.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// runCommand from the module itself, the same copy as its helpers (the package main gives its bundle's).
import { KILL_GRACE_MS, markedProcesses, runCommand, RUN_MARKER_VARIABLE } from '../../dist/src/book/execute.js'
import { alive, killIfAlive, pidFrom, waitFor } from '../support/processes.mjs'

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-tree-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

test('a timeout kills a setsid child that ignores SIGTERM, and the run returns', async (t) => {
  const dir = tempDir(t)
  const pidFile = join(dir, 'pid')
  const run = runCommand(`setsid sh -c 'trap "" TERM; echo $$ > ${pidFile}; exec sleep 1000' & sleep 1000`, { timeoutMs: 800 })
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  const r = await run
  assert.equal(r.timedOut, true)
  assert.equal(alive(pid), false, 'the setsid child survived')
})

test('a double-fork daemon that init adopted is found by its marker and killed', async (t) => {
  const dir = tempDir(t)
  const pidFile = join(dir, 'pid')
  // The middle shell exits at once: the daemon's parent is init, not the run's shell.
  const run = runCommand(`sh -c '(setsid sh -c "echo \\$\\$ > ${pidFile}; exec sleep 1000" &)'; sleep 1000`, { timeoutMs: 800 })
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  const r = await run
  assert.equal(r.killed, true)
  await waitFor(() => !alive(pid), 'the daemon to die', 5_000)
})

test('x: ; (setsid sleep 1000 &); sleep 1000 with a timeout returns and leaves nothing running', async (t) => {
  const dir = tempDir(t)
  const pidFile = join(dir, 'pid')
  // The daemon keeps the run's stdout and stderr open: waiting on the pipes alone would never end.
  const run = runCommand(`(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 1000' &); sleep 1000`, { timeoutMs: 1000 })
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  const r = await run
  assert.equal(r.timedOut, true)
  assert.match(r.stderr, /timed out after 1000 ms/)
  await waitFor(() => !alive(pid), 'the daemon holding the pipes to die', 5_000)
})

test('a shell that exits while a daemon holds its pipes ends at the timeout with the daemon killed', async (t) => {
  const dir = tempDir(t)
  const pidFile = join(dir, 'pid')
  const r = await runCommand(`(setsid sh -c 'echo $$ > ${pidFile}; trap "" TERM; exec sleep 1000' &); echo started`, { timeoutMs: 1000 })
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  assert.match(r.stdout, /started/)
  assert.equal(r.killed, true)
  assert.equal(alive(pid), false)
})

test('killSignal ends the tree with SIGKILL at once, without the SIGTERM grace', async (t) => {
  const dir = tempDir(t)
  const pidFile = join(dir, 'pid')
  const ac = new AbortController()
  const force = new AbortController()
  const run = runCommand(`sh -c 'trap "" TERM; echo $$ > ${pidFile}; exec sleep 1000'`, { signal: ac.signal, killSignal: force.signal, timeoutMs: 60_000 })
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  ac.abort()
  force.abort()
  const r = await run
  assert.equal(r.killed, true)
  assert.equal(alive(pid), false)
  // The point of a second Ctrl-C: it does not wait out the grace a SIGTERM gets.
  assert.ok(r.durationMs < KILL_GRACE_MS + 1500, `took ${r.durationMs} ms`)
})

test('every process of a run carries the marker, and none is left once it returns', async () => {
  const r = await runCommand(`echo $${RUN_MARKER_VARIABLE}`)
  const marker = r.stdout.trim()
  assert.match(marker, /^[0-9a-f]{24}$/)
  assert.deepEqual(markedProcesses(marker), [])
})

test('a slow reader pauses the command instead of buffering its output', async () => {
  const { Writable } = await import('node:stream')
  let received = 0
  let paused = 0
  // A sink that takes one chunk every few milliseconds and reports a full buffer each time.
  const sink = new Writable({
    highWaterMark: 1024,
    write(chunk, _enc, done) {
      received += chunk.length
      setTimeout(done, 2)
    },
  })
  const origWrite = sink.write.bind(sink)
  sink.write = (chunk) => {
    const ok = origWrite(chunk)
    if (!ok) paused++
    return ok
  }
  const r = await runCommand(`node -e "process.stdout.write('x'.repeat(4 * 1024 * 1024))"`, { stdoutSink: sink, maxBytes: 1024 })
  await new Promise((resolve) => sink.end(resolve))
  assert.equal(r.exitCode, 0)
  assert.equal(received, 4 * 1024 * 1024, 'every byte reached the sink')
  assert.ok(paused > 0, 'the sink pushed back')
})
