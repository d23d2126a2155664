// The CLI as a process: run --timeout returns and leaves nothing running, a second Ctrl-C and
// SIGHUP end the tree, a closed stdout ends the CLI quietly and ends what it started.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { alive, killIfAlive, pidFrom, waitFor } from '../support/processes.mjs'

const bin = new URL('../../bin/command-scout', import.meta.url).pathname

function project(t, makefile) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cliproc-'))
  writeFileSync(join(dir, 'Makefile'), makefile)
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Starts the CLI; resolves its exit with the output. The process is killed if the test ends first. */
function start(t, args, options = {}) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...options })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (c) => (stdout += c))
  child.stderr?.on('data', (c) => (stderr += c))
  const exit = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  t.after(() => killIfAlive(child.pid))
  return { child, exit }
}

test('run --timeout returns with 124 while a setsid child ignores SIGTERM and holds the pipes', async (t) => {
  const dir = project(t, `x:\n\t(setsid sh -c 'trap "" TERM; echo $$$$ > daemon.pid; exec sleep 1000' &); sleep 1000\n`)
  const { exit } = start(t, ['run', 'make_x', '--root', dir, '--timeout', '1000'])
  const daemon = await pidFrom(join(dir, 'daemon.pid'))
  t.after(() => killIfAlive(daemon))
  const r = await exit
  assert.equal(r.code, 124, r.stderr)
  assert.match(r.stderr, /timed out after 1000 ms/)
  assert.equal(alive(daemon), false, 'the setsid daemon survived the timeout')
})

test('a second Ctrl-C kills children that ignore SIGTERM', async (t) => {
  const dir = project(t, `x:\n\tsh -c 'trap "" TERM INT; echo $$$$ > child.pid; exec sleep 1000'\n`)
  const { child, exit } = start(t, ['run', 'make_x', '--root', dir])
  const pid = await pidFrom(join(dir, 'child.pid'))
  t.after(() => killIfAlive(pid))
  child.kill('SIGINT')
  // The second Ctrl-C comes while the first one's SIGTERM is being ignored.
  await waitFor(() => alive(pid), 'the child still running after the first Ctrl-C')
  child.kill('SIGINT')
  const r = await exit
  assert.equal(r.code, 130, r.stderr)
  await waitFor(() => !alive(pid), 'the child to be killed by the second Ctrl-C', 5_000)
})

test('SIGHUP (the terminal closed) ends the detached tree', async (t) => {
  const dir = project(t, `x:\n\t(setsid sh -c 'echo $$$$ > daemon.pid; exec sleep 1000' &); sleep 1000\n`)
  const { child, exit } = start(t, ['run', 'make_x', '--root', dir])
  const daemon = await pidFrom(join(dir, 'daemon.pid'))
  t.after(() => killIfAlive(daemon))
  child.kill('SIGHUP')
  const r = await exit
  assert.equal(r.code, 129, r.stderr)
  await waitFor(() => !alive(daemon), 'the daemon to end after SIGHUP', 5_000)
})

test('scan --format json | head ends quietly, without an EPIPE stack trace', async (t) => {
  // Enough targets that the JSON is far larger than a pipe buffer.
  const dir = project(t, Array.from({ length: 3000 }, (_, i) => `target_${i}: ## target number ${i}\n\t@true\n`).join(''))
  const { child, exit } = start(t, ['scan', '--root', dir, '--format', 'json'])
  await new Promise((resolve) => child.stdout.once('data', resolve))
  child.stdout.destroy()
  const r = await exit
  assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at .*\.js/)
  assert.equal(r.code, 141)
})

test('run ... | head -c 10 ends quietly and ends the command it started', async (t) => {
  const dir = project(t, `spam:\n\t@echo $$$$ > spam.pid; exec yes\n`)
  const { child, exit } = start(t, ['run', 'make_spam', '--root', dir])
  const pid = await pidFrom(join(dir, 'spam.pid'))
  t.after(() => killIfAlive(pid))
  await new Promise((resolve) => child.stdout.once('data', resolve))
  child.stdout.destroy()
  const r = await exit
  assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at .*\.js/)
  assert.equal(r.code, 141)
  await waitFor(() => !alive(pid), 'the command to end after its reader went away', 5_000)
})
