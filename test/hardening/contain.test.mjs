// No survivor: a run's processes are found however they left (setsid, a double fork, `env -i`
// dropping the marker), a timeout stops all of them, and when the process that started a run is
// killed with SIGKILL its watchdog stops the run. The containment API (src/base/contain.ts) as another
// part would use it: start contained, list members, kill all, dispose.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
// The same copies of the modules as the helpers imported beside it (the package main gives its bundle's).
import { runCommand } from '../../dist/src/book/execute.js'
import { contain, spawnContained } from '../../dist/src/base/contain.js'
import { alive, killIfAlive, pidFrom, waitFor } from '../support/processes.mjs'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
const EXECUTE = new URL('../../dist/src/book/execute.js', import.meta.url).href
const linux = process.platform === 'linux'
// Whether this system lets this user make a cgroup per run (what finds a process that dropped the marker).
const probe = linux ? contain({ watchdog: false }) : undefined
const CGROUPS = probe !== undefined && probe.kind !== 'process'
const CGROUP_PARENT = probe?.cgroup?.replace(/\/[^/]+$/, '')
probe?.dispose()
const NO_CGROUP = !linux ? 'Linux only' : !CGROUPS && 'this user may not make a cgroup here (the fallback cannot find an `env -i` process, as the README says)'
const haveMake = spawnSync('make', ['--version']).status === 0

/** Run cgroups a process with this pid made and left. */
function cgroupsOf(pid) {
  if (!CGROUP_PARENT) return []
  return readdirSync(CGROUP_PARENT).filter((n) => n.startsWith(`command-scout-${pid}-`))
}

/** A command that leaves three kinds of survivors, each writing its pid: a plain background child, a setsid child, an `env -i` double fork. */
function survivors(dir) {
  const p = (n) => join(dir, `pid${n}`)
  return {
    files: [p(1), p(2), p(3)],
    command: [
      `sleep 600 & echo $! > ${p(1)}`,
      `(setsid sh -c 'echo $$ > ${p(2)}; exec sleep 600' &)`,
      `setsid env -i sh -c 'sleep 600 < /dev/null > /dev/null 2>&1 & echo $! > ${p(3)}'`,
      'sleep 600',
    ].join('; '),
  }
}

test('a timeout stops an `env -i` double fork that left the group, the session and the marker behind', { skip: NO_CGROUP }, async (t) => {
  const dir = tempDir(t, 'cs-contain-timeout-')
  const { files, command } = survivors(dir)
  const r = await runCommand(command, { timeoutMs: 1_500 })
  const pids = await Promise.all(files.map(pidFrom))
  t.after(() => pids.forEach(killIfAlive))
  assert.equal(r.timedOut, true)
  for (const pid of pids) await waitFor(() => !alive(pid), `process ${pid} to be gone`)
  assert.deepEqual(cgroupsOf(process.pid), [], 'the run cgroup is removed')
})

test('command-scout run --timeout leaves no process of the command running', { skip: NO_CGROUP || (!haveMake && 'make is not installed') }, async (t) => {
  const dir = tempDir(t, 'cs-contain-run-')
  const { files, command } = survivors(dir)
  writeFileSync(join(dir, 'Makefile'), `spawn:\n\t${command.replace(/\$/g, '$$$$')}\n`)
  const r = spawnSync(process.execPath, [BIN, 'run', 'spawn', '--timeout', '1500', '--root', dir], { encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE: 'off' } })
  const pids = await Promise.all(files.map(pidFrom))
  t.after(() => pids.forEach(killIfAlive))
  assert.equal(r.status, 124, r.stderr)
  for (const pid of pids) await waitFor(() => !alive(pid), `process ${pid} to be gone`)
})

test('a starter killed with SIGKILL leaves no process of its runs: the watchdog stops them', { skip: !linux && 'Linux only' }, async (t) => {
  const dir = tempDir(t, 'cs-contain-orphan-')
  const { files, command } = survivors(dir)
  // Without a cgroup the `env -i` one is out of reach (README): the other two must still go.
  const watched = CGROUPS ? files : files.slice(0, 2)
  const script = `import { runCommand } from ${JSON.stringify(EXECUTE)}\nawait runCommand(${JSON.stringify(command)}, { timeoutMs: 600000 })\n`
  const starter = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' })
  t.after(() => killIfAlive(starter.pid))
  const pids = await Promise.all(files.map(pidFrom))
  t.after(() => pids.forEach(killIfAlive))
  for (const pid of pids) assert.ok(alive(pid))
  const gone = new Promise((resolve) => starter.once('exit', resolve))
  starter.kill('SIGKILL')
  await gone
  for (const pid of watched.map((f, i) => pids[i])) await waitFor(() => !alive(pid), `process ${pid} to be gone after its starter's SIGKILL`)
  if (CGROUPS) await waitFor(() => cgroupsOf(starter.pid).length === 0, 'the run cgroup to be removed')
})

test('command-scout run killed with SIGKILL leaves nothing of its command running', { skip: (!linux && 'Linux only') || (!haveMake && 'make is not installed') }, async (t) => {
  const dir = tempDir(t, 'cs-contain-cli-kill-')
  const { files, command } = survivors(dir)
  writeFileSync(join(dir, 'Makefile'), `spawn:\n\t${command.replace(/\$/g, '$$$$')}\n`)
  const cli = spawn(process.execPath, [BIN, 'run', 'spawn', '--root', dir], { stdio: 'ignore', env: { ...process.env, COMMAND_SCOUT_CACHE: 'off' } })
  t.after(() => killIfAlive(cli.pid))
  const pids = await Promise.all(files.map(pidFrom))
  t.after(() => pids.forEach(killIfAlive))
  const gone = new Promise((resolve) => cli.once('exit', resolve))
  cli.kill('SIGKILL')
  await gone
  for (const pid of (CGROUPS ? pids : pids.slice(0, 2))) await waitFor(() => !alive(pid), `process ${pid} to be gone`)
})

test('contain: members lists every process of the run, kill ends them all, dispose removes the cgroup', { skip: !linux && 'Linux only' }, async (t) => {
  const dir = tempDir(t, 'cs-contain-api-')
  const { files, command } = survivors(dir)
  const { child, containment } = spawnContained('/bin/sh', ['-c', command], { stdio: 'ignore' })
  t.after(() => containment.dispose())
  const pids = await Promise.all(files.map(pidFrom))
  t.after(() => pids.forEach(killIfAlive))
  const members = await containment.members()
  const reachable = CGROUPS ? pids : pids.slice(0, 2)
  for (const pid of [child.pid, ...reachable]) assert.ok(members.includes(pid), `${pid} is a member (${members.join(' ')})`)
  assert.equal(containment.env.COMMAND_SCOUT_RUN_ID, containment.marker)
  await containment.kill('SIGKILL')
  await waitFor(async () => containment.empty(), 'the run to be empty')
  for (const pid of reachable) assert.equal(alive(pid), false)
  const cgroup = containment.cgroup
  containment.dispose()
  if (cgroup) assert.equal(existsSync(cgroup), false, 'the cgroup is removed')
})

test('contain: a run that ended keeps the daemon it started on purpose, outside the run cgroup', { skip: !linux && 'Linux only' }, async (t) => {
  const dir = tempDir(t, 'cs-contain-daemon-')
  const pidFile = join(dir, 'pid')
  const { child, containment } = spawnContained('/bin/sh', ['-c', `setsid sleep 600 < /dev/null > /dev/null 2>&1 & echo $! > ${pidFile}`], { stdio: 'ignore' })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const pid = await pidFrom(pidFile)
  t.after(() => killIfAlive(pid))
  await exited
  const cgroup = containment.cgroup
  containment.dispose()
  assert.ok(alive(pid), 'the daemon lives on')
  if (cgroup) {
    assert.equal(existsSync(cgroup), false)
    assert.doesNotMatch(readFileSync(`/proc/${pid}/cgroup`, 'utf8'), /command-scout-/)
  }
})
