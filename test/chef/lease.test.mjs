// Two dsh processes on one kitchen: the second chef is read-only (it reads the board, and a mutation
// is refused with who holds the lease), `/chef takeover` makes it the owner, and the first one's
// board says it is read-only at once, and it refuses mutations in turn.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dshAvailable } from '../e2e/harness.mjs'
import { chefResults, chefWorld, makeRepo } from './support.mjs'
import { startWeb } from './web.mjs'

const skip = dshAvailable()

test('a second chef process is read-only until /chef takeover', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t)
  const repo = makeRepo(w.repos, 'api')
  await w.say([{ tool: 'chef_add_project', args: { path: repo } }])

  const second = await startWeb({ home: w.home, model: w.model, patch: w.patch, cwd: w.repos })
  w.undo.push(() => second.stop())
  const sid = await second.createSession(w.repos)
  const on = await second.command(sid, '/chef on')
  assert.equal(on.kind, 'success')
  assert.match(on.text, /is read-only here: session .* \(pid \d+\) owns it; \/chef takeover takes it over/)
  const board = await second.command(sid, '/chef board')
  assert.match(board.text, /\(read-only: another session owns it\)\. session .* \(pid \d+\) holds the lease; \/chef takeover takes it over\./)
  assert.match(board.text, /api: /)
  // the board says how to open the live board in a browser, for this kitchen
  assert.ok(board.text.split('\n').at(-1) === `Live board in a browser: command-scout serve --kitchen ${w.kitchen}`, board.text)

  // The second process's chef is refused a mutation, with the reason.
  const before = w.chefRoute.requests.length
  await second.prompt(sid, `SCRIPT ${JSON.stringify([{ tool: 'chef_dispatch', args: { project: 'api', title: 'T', brief: 'B' } }, { text: 'turn done' }])}`)
  const reqs = (await w.chefRoute.waitForRequests(before + 2)).slice(before)
  assert.match(chefResults(reqs)[0], /read-only: session .* \(pid \d+\) holds the lease; ask the human to run \/chef takeover/)

  const took = await second.command(sid, '/chef takeover')
  assert.match(took.text, /Chef mode on: you own the kitchen/)
  // The first process's board says so at once, before any tick or write of its own.
  const firstBoard = await w.web.command(w.sessionId, '/chef board')
  assert.match(firstBoard.text, /^Kitchen .* \(read-only: another session owns it\)\. session .* holds the lease/)
  assert.doesNotMatch(firstBoard.text, /\(owner\)/)
  // The first process now refuses mutations: its lease is gone, and it still says so after.
  const [refused] = chefResults(await w.say([{ tool: 'chef_dispatch', args: { project: 'api', title: 'T2', brief: 'B2' } }]))
  assert.match(refused, /lease is now held by session|read-only/)
  assert.match((await w.web.command(w.sessionId, '/chef board')).text, /^Kitchen .* \(read-only: another session owns it\)/)
  assert.match((await second.command(sid, '/chef board')).text, /^Kitchen .* \(owner\)\./)
})
