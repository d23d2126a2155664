import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInHarnessShell } from '../../dist/src/dsh/shell-run.js'
import { eventually, startApp, tempRepo, text } from './app.mjs'
// Liveness from /proc: a killed child that nobody has reaped yet (a zombie) is gone.
import { alive } from '../support/processes.mjs'


test('execution.timeoutMs kills the whole process tree, and the result says so', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir, config: { execution: { timeoutMs: 700 } } })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_slow')
  assert.equal(result.isError, false, text(result))
  assert.equal(result.value.killed, true)
  assert.equal(result.value.timedOut, true)
  assert.equal(result.value.ok, false)
  assert.match(result.value.stderr, /\[killed: timed out after 700 ms\]/)
  assert.match(text(result), /\[killed: timed out\]/)
  const child = Number(readFileSync(join(repo.dir, 'slow-child.pid'), 'utf8'))
  assert.ok(child > 0)
  await eventually(() => !alive(child), `background child ${child} to be gone`, 30_000)
})

test('the call\'s abort signal stops the whole process tree', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const controller = new AbortController()
  const pending = app.call('make_slow', {}, { signal: controller.signal })
  await eventually(() => existsSync(join(repo.dir, 'slow-child.pid')), 'the slow recipe to start')
  const child = Number(readFileSync(join(repo.dir, 'slow-child.pid'), 'utf8'))
  controller.abort()
  const result = await pending
  assert.equal(result.isError, true, 'a cancelled call is reported as aborted')
  await eventually(() => !alive(child), `background child ${child} to be gone`, 30_000)
})

test('runInHarnessShell maps the executor\'s result to RunResult', async (t) => {
  const repo = await tempRepo({ empty: true })
  const app = await startApp({ root: repo.dir, collectors: [] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const r = await runInHarnessShell(app.ctx, { command: 'echo out; echo err >&2; pwd; exit 3', cwd: repo.dir, timeoutMs: 5_000 })
  assert.deepEqual({ ...r, durationMs: 0 }, {
    command: 'echo out; echo err >&2; pwd; exit 3', ok: false, exitCode: 3,
    stdout: `out\n${repo.dir}\n`, stderr: 'err\n', killed: false, timedOut: false, durationMs: 0,
  })
  const missing = await runInHarnessShell(app.ctx, { command: 'true', cwd: join(repo.dir, 'nope'), timeoutMs: 5_000 })
  assert.equal(missing.ok, false)
  assert.match(missing.stderr, /could not start/)
  // the harness's credential scrub applies: a secret in the harness's environment does not reach the command
  process.env.COMMAND_SCOUT_TEST_API_KEY = 'secret-value'
  t.after(() => { delete process.env.COMMAND_SCOUT_TEST_API_KEY })
  const env = await runInHarnessShell(app.ctx, { command: 'echo "[${COMMAND_SCOUT_TEST_API_KEY:-scrubbed}]"', cwd: repo.dir, timeoutMs: 5_000 })
  assert.equal(env.stdout, '[scrubbed]\n')
})

test('runInHarnessShell without a shell executor says what to compose', async () => {
  const { Context } = await import('@deepseek-ai/cordis')
  await assert.rejects(runInHarnessShell(new Context(), { command: 'true', cwd: '/', timeoutMs: 1000 }), /no shell executor is mounted \(ctx\.shell\)/)
})

/** The fixture plus `nuke`, which deletes the sources, and a src/ for it to delete. */
async function repoWithNuke() {
  const repo = await tempRepo()
  const { appendFile, mkdir, writeFile } = await import('node:fs/promises')
  await appendFile(join(repo.dir, 'Makefile'), '\n## Start over\nnuke:\n\trm -rf src\n')
  await mkdir(join(repo.dir, 'src'))
  await writeFile(join(repo.dir, 'src', 'keep.txt'), 'kept')
  return repo
}

test('a destructive recipe asks before it runs; without an approval service the ask is refused with the reason', async (t) => {
  const repo = await repoWithNuke()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const result = await app.call('make_nuke')
  assert.equal(result.isError, true)
  assert.match(text(result), /`make nuke` was not run[\s\S]*What it does: `rm -rf src` deletes `src`[\s\S]*\(Makefile:\d+\)[\s\S]*How to allow it/)
  assert.ok(existsSync(join(repo.dir, 'src', 'keep.txt')), 'the command did not run')
  // ordinary build commands and build-output cleaning don't ask
  assert.equal((await app.call('make_build')).isError, false)
  assert.equal((await app.call('make_clean')).isError, false)
  // args are words: an operator in a string is refused before anything runs, and as a word it is one argument
  const sneaky = await app.call('make_build', { args: ['VERSION=$(rm -rf src)'] })
  assert.equal(sneaky.isError, true)
  assert.match(text(sneaky), /`make build 'VERSION=\$\(rm -rf src\)'` was not run/)
  assert.ok(existsSync(join(repo.dir, 'src', 'keep.txt')), 'the words did not run')
})

test('the ask reaches the approval service with the reason; allowed once, the command runs', async (t) => {
  const repo = await repoWithNuke()
  const app = await startApp({ root: repo.dir, config: { exposure: 'dispatcher' } })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const requests = []
  let answer = 'rejected'
  app.ctx.provide('approval', { request: async (req) => { requests.push(req); return answer } })
  const agent = { id: 'agent-1', ctx: app.ctx, session: { id: 'session-1', header: { cwd: repo.dir } } }
  const denied = await app.call('recipe', { op: 'nuke' }, { agent })
  assert.equal(denied.isError, true)
  assert.match(text(denied), /rejected/)
  assert.equal(requests.length, 1)
  assert.equal(requests[0].toolName, 'recipe')
  assert.match(requests[0].reason, /^`make nuke` needs your approval: `rm -rf src` deletes `src`/)
  assert.ok(existsSync(join(repo.dir, 'src', 'keep.txt')))
  answer = 'allowed-once'
  const allowed = await app.call('recipe', { op: 'nuke' }, { agent })
  assert.equal(allowed.isError, false, text(allowed))
  assert.equal(existsSync(join(repo.dir, 'src')), false, 'allowed, it ran')
  // a harmless op never asks
  await app.call('recipe', { op: 'build' }, { agent })
  assert.equal(requests.length, 2)
})
