// The kitchen core launching the real cook runner: its command template passes the core's check,
// the core spawns dsh with it, and the core's own fold derives each outcome from the run file the
// runner wrote (done; a provider failure falling back to the next candidate in the same session).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable, dshEnv, makeHome } from '../e2e/harness.mjs'
import { startFakeModel, offersTool, messageText } from '../support/fake-model.mjs'
import { git, runLines, runnerTemplate, tempDir, until } from './support.mjs'
import { openKitchen } from '../../dist/src/kitchen/index.js'

const skip = dshAvailable()

async function kitchenWithRunner(t, config) {
  const scratch = await tempDir('cs-cook-kitchen-')
  const home = await makeHome('cs-cook-khome-')
  const model = await startFakeModel()
  const root = join(scratch, 'kitchen')
  const repo = join(scratch, 'api')
  git(scratch, 'init', '-q', '-b', 'main', repo)
  writeFileSync(join(repo, 'Makefile'), 'test:\n\t@echo ok\n')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'config.json'), JSON.stringify(config))
  const cookCommand = runnerTemplate({ kitchen: root })
  const opened = await openKitchen(root, { cookCommand, cookEnv: dshEnv({ home, model }), tickMs: 100, deliver: async () => true })
  assert.equal(opened.kind, 'owner')
  const kitchen = opened.kitchen
  t.after(async () => {
    // Each step runs even when an earlier one throws, so nothing is left behind; a cook still
    // running (a failed assertion) is killed with its group before its home goes.
    const live = await kitchen.views().then((r) => r.views.map((v) => v.live?.pid).filter(Boolean), () => [])
    for (const pid of live) {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    await until(() => live.every((pid) => { try { process.kill(pid, 0); return false } catch { return true } }), 'the cooks to be gone', 30_000).catch(() => {})
    await kitchen.shutdown().catch(() => {})
    await model.close().catch(() => {})
    await home.cleanup().catch(() => {})
    rmSync(scratch, { recursive: true, force: true })
  })
  await kitchen.addProject({ path: repo })
  return { kitchen, model, root, repo }
}

async function idle(kitchen, id) {
  return until(async () => {
    const v = await kitchen.view(id)
    return v.state.kind === 'idle' && !v.live ? v : undefined
  }, `${id} idle`, 120_000)
}

test('the kitchen dispatches to the runner and derives done from its run file', { skip }, async (t) => {
  const { kitchen, model, root } = await kitchenWithRunner(t, { models: { default: [{ model: 'deepseek-official/deepseek-v4-flash' }] } })
  const cook = model.route('cook', (b) => offersTool(b, 'chef_report'))
  cook.push(
    { tool: 'bash', args: { command: 'echo 1 > limit.txt && git add limit.txt && git -c user.name=c -c user.email=c@c commit -qm "Add limit"', description: 'commit' } },
    { tool: 'chef_report', args: { status: 'done', summary: 'Limit added and committed.' } },
  )
  const d = await kitchen.dispatch({ project: 'api', title: 'Add a limit', brief: 'Add limit.txt.' })
  const id = d.tasks[0].task
  const v = await idle(kitchen, id)
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'Limit added and committed.', reported: true })
  assert.equal(v.model, 'deepseek-official/deepseek-v4-flash')
  const task = v.spec
  assert.equal(git(task.worktree, 'log', '--format=%s', '-1').trim(), 'Add limit')
  // The brief prompt reached the model as the run's prompt.
  assert.match(messageText(cook.requests[0].body), /# Task api-1: Add a limit[\s\S]*Add limit\.txt\./)
  assert.equal(runLines(join(root, 'tasks', id, 'runs', '1.jsonl')).at(-1).type, 'settled')
})

test('a 402 on the first candidate: the kitchen relaunches on the next one in the same session', { skip }, async (t) => {
  const { kitchen, model } = await kitchenWithRunner(t, {
    models: { default: [{ model: 'deepseek-official/deepseek-v4-flash' }, { model: 'deepseek-official/deepseek-v4-pro' }] },
  })
  const cook = model.route('cook', (b) => offersTool(b, 'chef_report'))
  cook.push(
    (body) => (body.model === 'deepseek-v4-flash' ? { status: 402, message: 'Insufficient Balance' } : { text: `unexpected model ${body.model}` }),
    (body) => ({ tool: 'chef_report', args: { status: 'done', summary: `finished on ${body.model}` } }),
  )
  const d = await kitchen.dispatch({ project: 'api', title: 'Fallback', brief: 'MARKER-BRIEF' })
  const id = d.tasks[0].task
  const v = await until(async () => {
    const x = await kitchen.view(id)
    return x.state.kind === 'idle' && !x.live && x.state.run === 2 ? x : undefined
  }, 'run 2 idle', 120_000)
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'finished on deepseek-v4-pro', reported: true })
  assert.equal(v.model, 'deepseek-official/deepseek-v4-pro')
  assert.equal(cook.requests.length, 2)
  // Run 2 resumed run 1's session: the brief is in its history, with the fallback prompt after it.
  const second = messageText(cook.requests[1].body)
  assert.match(second, /MARKER-BRIEF/)
  assert.match(second, /stopped with a provider error: 402/)
})
