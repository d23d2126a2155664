// Chef mode is per session in the real dsh: a session without `/chef on` never sees the chef tools,
// one with it does, `/chef off` takes them away, and after dsh restarts a resumed chef session has
// them again (folded from the logged /chef command events, not a custom session event); a
// `/chef board` sent right after the restart waits for chef mode to come back.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dshAvailable } from '../e2e/harness.mjs'
import { toolNames } from '../support/fake-model.mjs'
import { chefWorld } from './support.mjs'
import { startWeb } from './web.mjs'

const skip = dshAvailable()
const CHEF_TOOLS = ['chef_add_project', 'chef_board', 'chef_close', 'chef_dispatch', 'chef_result', 'chef_send', 'chef_stop']
const chefToolsOf = (record) => toolNames(record.body).filter((n) => n.startsWith('chef_')).sort()

test('only a session in chef mode has the chef tools, and a resumed chef session has them again', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t)
  const plain = await w.web.createSession(w.repos)

  // The plain session's request offers no chef tool (the default route answers it).
  const plainBefore = w.model.default.requests.length
  await w.web.prompt(plain, 'hello')
  const [plainReq] = await w.model.default.waitForRequests(plainBefore + 1).then((r) => r.slice(plainBefore))
  assert.deepEqual(chefToolsOf(plainReq), [])

  // The chef session's request offers all of them, and the chef prompt section.
  const [chefReq] = await w.say([])
  assert.deepEqual(chefToolsOf(chefReq), CHEF_TOOLS)
  assert.match(JSON.stringify(chefReq.body.messages[0]), /You are the chef/)
  assert.equal(w.web.alive, true)

  // dsh restarts with the same home: the chef session resumes in chef mode, the plain one does not.
  await w.web.stop()
  const again = await startWeb({ home: w.home, model: w.model, patch: w.patch, cwd: w.repos })
  w.undo.push(() => again.stop())
  w.web = again
  // /chef board at once, while the session comes back in chef mode: the board, never "off"
  const back = await again.command(w.sessionId, '/chef board')
  assert.equal(back.kind, 'success', back.text)
  assert.doesNotMatch(back.text, /Chef mode is off/)
  assert.match(back.text, /^Kitchen .* \(owner\)\.\nCooks: 0\/3 busy\./)
  const [resumed] = await w.say([{ tool: 'chef_board', args: {} }])
  assert.deepEqual(chefToolsOf(resumed), CHEF_TOOLS)
  const plainAgain = w.model.default.requests.length
  await again.prompt(plain, 'and now?')
  const [plainResumed] = await w.model.default.waitForRequests(plainAgain + 1).then((r) => r.slice(plainAgain))
  assert.deepEqual(chefToolsOf(plainResumed), [])

  // /chef off removes them from the next request.
  const off = await again.command(w.sessionId, '/chef off')
  assert.equal(off.kind, 'success')
  const offBefore = w.model.default.requests.length
  await again.prompt(w.sessionId, 'still there?')
  const [offReq] = await w.model.default.waitForRequests(offBefore + 1).then((r) => r.slice(offBefore))
  assert.deepEqual(chefToolsOf(offReq), [])
})
