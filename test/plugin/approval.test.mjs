// How the dsh face hands a call from `tools/pre-execute` (where it is resolved, decided and asked)
// to the tool's execute (where it runs): PreparedCalls keeps each call's preparation for the same
// arguments only, so a call whose arguments change after the ask is prepared again and refused
// unasked; a call that can never run (its runner is missing) is refused without asking anyone.
// Real Cordis with dsh's tools service and shell; commands run in a temp repository.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PreparedCalls } from '../../dist/src/dsh/approval.js'
import { onPath } from '../../dist/src/book/runners.js'
import { commandWithWords } from '../../dist/src/book/risk/index.js'
import * as curated from '../../dist/src/dsh/curated-tools.js'
import { runInHarnessShell } from '../../dist/src/dsh/shell-run.js'
import { startApp, text } from './app.mjs'
import { tempDir } from '../support/temp.mjs'
import { outputKept, sourcesKept, writeGateRepo } from '../gate/repos.mjs'

const exec = (callId, args) => ({ callId, arguments: args })

/** A refusal of the line `make <target> <words>` (as the book quotes the words) that no person was asked about. */
function unasked(target, words) {
  const line = commandWithWords({ command: `make ${target}` }, words).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`\`${line}\` was not run: no person was asked to approve this call`)
}

test('PreparedCalls: a preparation is taken once, for the same arguments, with whether a person allowed it', () => {
  const calls = new PreparedCalls()
  calls.keep(exec('a', { args: ['x'] }), 'prep-a')
  calls.keep(exec('b', { args: ['y'] }), 'prep-b')
  calls.allow(exec('b'))
  assert.deepEqual(calls.take(exec('a'), { args: ['x'] }), { prepared: 'prep-a', allowed: false })
  assert.equal(calls.take(exec('a'), { args: ['x'] }), undefined, 'taken once')
  assert.equal(calls.take(exec('b'), { args: ['z'] }), undefined, 'other arguments: no preparation')
  assert.equal(calls.take(exec('b'), { args: ['y'] }), undefined, 'and it is dropped')
  calls.keep(exec('c', 1n), 'prep-c')
  assert.equal(calls.take(exec('c'), 1n), undefined, 'arguments that are not JSON match nothing')
})

test('PreparedCalls: kept again, a call is not allowed any more; past 1,000 calls the oldest is dropped', () => {
  const calls = new PreparedCalls()
  calls.keep(exec('a', {}), 'first')
  calls.allow(exec('a'))
  calls.keep(exec('a', {}), 'second')
  assert.deepEqual(calls.take(exec('a'), {}), { prepared: 'second', allowed: false })
  for (let i = 0; i <= 1000; i++) calls.keep(exec(`c${i}`, {}), i)
  assert.equal(calls.take(exec('c0'), {}), undefined)
  assert.deepEqual(calls.take(exec('c1'), {}), { prepared: 1, allowed: false })
  assert.deepEqual(calls.take(exec('c1000'), {}), { prepared: 1000, allowed: false })
})

/** The gate repository in dsh, with an approval service that answers `approve` and records what it was asked. */
async function dsh(t, { cleans = 'src', approve = 'allowed-once' } = {}) {
  const root = writeGateRepo(tempDir(t, 'dsh-approval-'), { cleans })
  const app = await startApp({ root })
  t.after(() => app.stop())
  const asked = []
  app.ctx.provide('approval', { request: async (req) => { asked.push(req); return approve } })
  const agent = { id: 'agent-1', ctx: app.ctx, session: { id: 'session-1', header: { cwd: root } } }
  return { root, app, asked, call: (name, args = {}) => app.call(name, args, { agent }) }
}

/** A `tools/pre-execute` listener after the adapter's: it changes a call's arguments once the adapter let it through. */
function rewriteAfterAsk(app, name, args) {
  app.ctx.on('tools/pre-execute', async (e, next) => {
    if (e.name === name) e.arguments = Object.freeze(args)
    return next()
  })
}

test('dsh: a person\'s yes is for the call they were asked about: arguments changed after it make another call, refused', async (t) => {
  const { root, app, asked, call } = await dsh(t)
  rewriteAfterAsk(app, 'make_clean', { args: ['DIR=x'] })
  const r = await call('make_clean')
  assert.equal(r.isError, true)
  assert.equal(asked.length, 1, 'the person was asked about `make clean`')
  assert.match(text(r), unasked('clean', ['DIR=x']))
  assert.ok(sourcesKept(root))
})

test('dsh: a harmless call whose arguments turn it destructive after the gate is judged again and refused', async (t) => {
  const { root, app, asked, call } = await dsh(t, { cleans: 'dist' })
  rewriteAfterAsk(app, 'make_tidy', { args: ['DIR=src'] })
  const r = await call('make_tidy')
  assert.equal(r.isError, true)
  assert.equal(asked.length, 0, 'as it was called, it asked nothing')
  assert.match(text(r), unasked('tidy', ['DIR=src']))
  assert.ok(sourcesKept(root))
  assert.ok(outputKept(root), 'nothing ran')
})

test('dsh: an allowed call runs as it was asked, once', async (t) => {
  const { root, asked, call } = await dsh(t)
  const r = await call('make_clean')
  assert.equal(r.isError, false, text(r))
  assert.equal(asked.length, 1)
  assert.equal(r.value.command, 'make clean')
  assert.ok(!sourcesKept(root), 'the allowed clean ran')
})

const taskMissing = { skip: onPath('task') && 'task is installed here' }

test('dsh: a destructive call whose runner is not installed is refused with how to install it, and no one is asked', taskMissing, async (t) => {
  const root = writeGateRepo(tempDir(t, 'dsh-approval-task-'))
  await writeFile(join(root, 'Taskfile.yml'), "version: '3'\ntasks:\n  wipe:\n    desc: Wipe the sources\n    cmds: [rm -rf src]\n")
  const { default: taskPlugin } = await import('../../dist/src/dsh/collectors/task.js')
  const app = await startApp({ root, collectors: [taskPlugin] })
  t.after(() => app.stop())
  const asked = []
  app.ctx.provide('approval', { request: async (req) => { asked.push(req); return 'allowed-once' } })
  assert.match(app.ctx.tools.get('task_wipe').description, /Asks a person for approval first/)
  const r = await app.call('task_wipe', {}, { agent: { id: 'agent-1', ctx: app.ctx, session: { id: 's', header: { cwd: root } } } })
  assert.equal(r.isError, true)
  assert.match(text(r), /task is not installed here \(not on PATH\), so `task wipe` can't run; install go-task/)
  assert.equal(asked.length, 0)
  assert.ok(sourcesKept(root))
})

test('dsh curated: a person\'s yes is for the recipe run they were asked about: parameters changed after it are refused', async (t) => {
  const root = tempDir(t, 'dsh-approval-curated-')
  const { mkdir } = await import('node:fs/promises')
  await mkdir(join(root, 'keep'))
  await mkdir(join(root, 'other'))
  const app = await startApp({ root, collectors: [] })
  t.after(() => app.stop())
  const asked = []
  app.ctx.provide('approval', { request: async (req) => { asked.push(req); return 'allowed-once' } })
  const ran = []
  await app.ctx.plugin({
    name: 'curated-under-test', inject: ['tools'],
    apply: (c) => curated.mountCuratedTools(c, {
      config: { dirs: [new URL('../fixtures/curated/runnable/', import.meta.url).pathname], timeoutMs: 20_000, searchLimit: 20 },
      shipped: false, cwd: root, platform: 'linux',
      runCommand: (command, { cwd, exec: e }) => {
        ran.push(command)
        return runInHarnessShell(c, { command, cwd, timeoutMs: 20_000, signal: e.signal, exec: e })
      },
    }),
  })
  rewriteAfterAsk(app, curated.TOOL_NAMES.run, { id: 'files.remove_tree', params: { dir: 'keep' } })
  const agent = { id: 'agent-1', ctx: app.ctx, session: { id: 's', header: { cwd: root } } }
  const r = await app.call(curated.TOOL_NAMES.run, { id: 'files.remove_tree', params: { dir: 'other' } }, { agent })
  assert.equal(r.isError, true)
  assert.equal(asked.length, 1)
  assert.match(asked[0].reason, /rm -r other/)
  assert.match(text(r), /requires confirmation, and no confirmation was asked for this call; it was not run/)
  assert.deepEqual(ran, [])
})
