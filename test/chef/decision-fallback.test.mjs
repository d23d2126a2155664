// End to end in the real dsh: a cook that needs a decision is relaunched by chef_send in the same
// session and remembers its first run; a first candidate model that answers HTTP 402 gives way to
// the next one in the same session, and the wake names the fallback; the model check names each
// skipped candidate and refuses a dispatch with none left.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { messageText } from '../support/fake-model.mjs'
import { afterTool, chefResults, chefWorld, cookTask, makeRepo, runFiles } from './support.mjs'

const skip = dshAvailable()

test('needs_decision, then chef_send relaunches the cook in the same session and it remembers run 1', { skip, timeout: 300_000 }, async (t) => {
  const cook = (body) => {
    const text = messageText(body)
    if (!text.includes('Message from the chef')) {
      return { tool: 'chef_report', args: { status: 'needs_decision', summary: 'Keep the cookie session or move to bearer tokens?' } }
    }
    if (!afterTool(body)) return { tool: 'bash', args: { description: 'commit', command: 'echo bearer > auth.txt && git add auth.txt && git commit -q -m "Use bearer tokens" && echo ok' } }
    return { tool: 'chef_report', args: { status: 'done', summary: 'moved to bearer tokens' } }
  }
  const w = await chefWorld(t, { cook, chef: { onWake: (text) => text.includes('needs a decision')
    ? [{ tool: 'chef_send', args: { task: 'api-1', message: 'Use bearer tokens.' } }, { text: 'answered' }]
    : [{ text: 'noted' }] } })
  const repo = makeRepo(w.repos, 'api')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'api', title: 'Login tokens', brief: 'Pick the login token scheme and implement it.' } },
  ])
  await w.cookRoute.waitForRequests(3, 200_000)
  const deadline = Date.now() + 120_000
  while (w.script.wakes.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  assert.equal(w.script.wakes.length, 2, `wakes: ${JSON.stringify(w.script.wakes)}`)
  assert.match(w.script.wakes[0], /api-1 "Login tokens" needs a decision: Keep the cookie session or move to bearer tokens\? Answer with chef_send api-1\./)
  assert.match(w.script.wakes[1], /api-1 "Login tokens" is done: moved to bearer tokens\./)
  const sent = chefResults(w.chefRoute.requests).find((r) => r.includes('relaunched'))
  assert.match(sent, /api-1 relaunched as run 2 in the same cook session/)

  // Run 2's model request carries run 1: its question (the report call) and the brief, then the answer.
  const run2 = w.cookRoute.requests.find((r) => messageText(r.body).includes('Message from the chef'))
  const seen = messageText(run2.body)
  assert.ok(seen.includes('Pick the login token scheme'), 'run 2 sees the brief of run 1')
  assert.ok(JSON.stringify(run2.body.messages).includes('Keep the cookie session or move to bearer tokens?'), 'run 2 sees its own question of run 1')
  assert.ok(seen.includes('Use bearer tokens.'))
  assert.deepEqual(runFiles(w.kitchen, 'api-1'), ['1.jsonl', '2.jsonl'])
})

test('a 402 on the first candidate: run 2 uses the next in the same session, and the wake names the fallback', { skip, timeout: 300_000 }, async (t) => {
  const cook = (body) => {
    if (body.model === 'deepseek-v4-pro') return { status: 402, message: 'Insufficient Balance' }
    if (!afterTool(body)) return { tool: 'bash', args: { description: 'commit', command: 'echo fast > speed.txt && git add speed.txt && git commit -q -m "Go fast" && echo ok' } }
    return { tool: 'chef_report', args: { status: 'done', summary: 'made it fast' } }
  }
  const models = { default: [{ model: 'deepseek-official/deepseek-v4-pro' }, { model: 'nope/model-x' }, { model: 'deepseek-official/deepseek-v4-flash' }] }
  const w = await chefWorld(t, { cook, config: { models } })
  const repo = makeRepo(w.repos, 'web')
  const turn = await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'web', title: 'Speed up', brief: 'Make it fast.' } },
  ])
  const [, dispatched] = chefResults(turn)
  assert.match(dispatched, /web-1 is cooking on branch issue\/web-1/)
  assert.match(dispatched, /Skipped models: nope\/model-x \(dsh has no provider "nope"/)

  const deadline = Date.now() + 150_000
  while (w.script.wakes.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  const wake = w.script.wakes.join('\n')
  assert.match(wake, /web-1 "Speed up" is done: made it fast\. The kitchen saw: new commits on issue\/web-1\. It fell back to deepseek-official\/deepseek-v4-flash after a provider error on deepseek-official\/deepseek-v4-pro \(.*402.*\)\. Review with chef_result web-1\./)
  assert.deepEqual(runFiles(w.kitchen, 'web-1'), ['1.jsonl', '2.jsonl'])
  const task = JSON.parse(readFileSync(join(w.kitchen, 'tasks/web-1/task.json'), 'utf8'))
  assert.deepEqual(task.models.map((m) => m.model), ['deepseek-official/deepseek-v4-pro', 'deepseek-official/deepseek-v4-flash'])
  // Run 2 went to the next model in the same session: its request holds run 1's brief.
  const flash = w.cookRoute.requests.find((r) => r.body.model === 'deepseek-v4-flash')
  assert.ok(messageText(flash.body).includes('Make it fast.'))
})

test('a dispatch with no candidate left is refused with every reason', { skip, timeout: 200_000 }, async (t) => {
  const models = { default: [{ model: 'nope/model-x' }, { model: 'deepseek-official/no-such-model' }] }
  const w = await chefWorld(t, { config: { models } })
  const repo = makeRepo(w.repos, 'svc')
  const turn = await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'svc', title: 'T', brief: 'B' } },
  ])
  const [, refused] = chefResults(turn)
  assert.match(refused, /no candidate model can run: nope\/model-x \(dsh has no provider "nope".*\); deepseek-official\/no-such-model \(provider deepseek-official lists no model "no-such-model"/)
  assert.deepEqual(runFiles(w.kitchen, 'svc-1'), [])
})
