// End to end in the real dsh: the `/chef send`, `/chef stop` and `/chef close` a person types (the
// live board offers them to copy) do what the chef's tools do. The message lands in the task's inbox
// exactly as typed, the cook stops, the task closes; an unknown task and a missing message are
// refused with what to type, and nothing in an answer shows a control character raw.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { afterTool, chefWorld, cookPid, cookTask, gatedCommit, groupAlive, makeRepo, readLog, waitFor } from './support.mjs'

const skip = dshAvailable()
const ESC = '\u001b'

/** Every message file of the task's inbox (pending and handled), with its text. */
function inboxTexts(kitchen, task) {
  const out = []
  for (const dir of [join(kitchen, 'tasks', task, 'inbox'), join(kitchen, 'tasks', task, 'inbox', 'handled')]) {
    if (!existsSync(dir)) continue
    for (const name of readdirSync(dir)) if (name.endsWith('.msg')) out.push(readFileSync(join(dir, name), 'utf8'))
  }
  return out
}

test('/chef send, stop and close change the kitchen as the tools do', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t, {})
  // The cook waits in its first step (its go file never comes), so the task is cooking until stopped.
  w.cookRoute.fallback = (body) => {
    const task = cookTask(body)
    if (!afterTool(body)) return gatedCommit(w.home.root, task, `marker-${task}`)
    return { tool: 'chef_report', args: { status: 'done', summary: `${task} finished` } }
  }
  const repo = makeRepo(w.repos, 'api')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'api', title: 'Slow', brief: 'Take your time.' } },
  ])
  const pid = await waitFor(() => cookPid(w.kitchen, 'api-1'), 'the cook process')
  const answers = []
  const cmd = async (line) => {
    const r = await w.web.command(w.sessionId, line)
    answers.push(r.text)
    return r
  }

  // refusals first: nothing written
  const unknown = await cmd('/chef send nope-9 hello')
  assert.equal(unknown.kind, 'error')
  assert.match(unknown.text, /there is no task nope-9/)
  const bare = await cmd('/chef send api-1')
  assert.equal(bare.kind, 'error')
  assert.match(bare.text, /needs a message: type \/chef send api-1 <message>/)
  assert.deepEqual(inboxTexts(w.kitchen, 'api-1'), [])

  const message = `Also "update the changelog", 'please'  ${ESC}[31mnow${ESC}[0m \\n`
  const sent = await cmd(`/chef send api-1 ${message}`)
  assert.equal(sent.kind, 'success', sent.text)
  assert.equal(sent.text, 'Sent to api-1: the cook of run 1 takes it after its current step.')
  await waitFor(() => inboxTexts(w.kitchen, 'api-1').length > 0, 'the message in the inbox')
  assert.deepEqual(inboxTexts(w.kitchen, 'api-1'), [message])

  const stopped = await cmd('/chef stop api-1')
  assert.equal(stopped.kind, 'success', stopped.text)
  assert.match(stopped.text, /^Stopping api-1 run 1: its process group and everything it started got SIGTERM/)
  await waitFor(() => !groupAlive(pid), 'the cook\'s process group to end', 30_000)
  await waitFor(() => readLog(w.kitchen, 'api-1').some((e) => e.type === 'stop'), 'the stop in the task\'s log')
  const board = await waitFor(async () => {
    const b = await cmd('/chef board')
    return /api-1.*stopped/.test(b.text) && b
  }, 'the board to show api-1 stopped')
  assert.equal(board.kind, 'success')

  const closed = await cmd('/chef close api-1 discard')
  assert.equal(closed.kind, 'success', closed.text)
  assert.match(closed.text, /^Closed api-1 \(discarded\): clone removed/)
  assert.ok(readLog(w.kitchen, 'api-1').some((e) => e.type === 'closed' && e.discarded === true), 'closed in the task\'s log')
  const after = await cmd('/chef board')
  assert.doesNotMatch(after.text, /api-1 .*stopped/)
  for (const a of answers) assert.ok(!a.includes(ESC), `an answer shows a raw escape: ${JSON.stringify(a)}`)
})
