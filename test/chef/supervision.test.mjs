// End to end in the real dsh: chef_stop ends a cook's whole process group; a chef restarted after a
// crash adopts a cook still running and derives the outcome of one that ended while no chef ran; a
// message sent mid-run is steered into the running cook; a maxCooks edit in the profile's patch layer
// applies while dsh runs, with a task cooking and nothing relaunched.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { messageText } from '../support/fake-model.mjs'
import {
  afterTool, chefResults, chefWorld, cookPid, cookTask, gatedCommit, groupAlive, leaseText, makeRepo, pidsWith, readLog, release, runFiles, waitFor,
} from './support.mjs'
import { kitchenRowLayer, startWeb } from './web.mjs'

const skip = dshAvailable()

/** A cook whose first step waits for the test's go file, then commits; then reports done. */
function gatedCook(gates) {
  return (body) => {
    const task = cookTask(body)
    if (!afterTool(body)) return gatedCommit(gates, task, `marker-${task}`)
    return { tool: 'chef_report', args: { status: 'done', summary: `${task} finished` } }
  }
}

test('chef_stop ends the cook and its whole process group', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t, {})
  w.cookRoute.fallback = gatedCook(w.home.root)
  const repo = makeRepo(w.repos, 'api')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'api', title: 'Slow', brief: 'Take your time.' } },
  ])
  const pid = await waitFor(() => cookPid(w.kitchen, 'api-1'), 'the cook process')
  const [shell] = await waitFor(() => { const p = pidsWith('marker-api-1'); return p.length > 0 && p }, 'the cook\'s bash command')
  assert.ok(groupAlive(pid))
  const [stopped] = chefResults(await w.say([{ tool: 'chef_stop', args: { task: 'api-1' } }]))
  assert.match(stopped, /Stopping api-1 run 1: its process group and everything it started got SIGTERM/)
  await waitFor(() => !groupAlive(pid), 'the cook\'s process group to end', 30_000)
  await waitFor(() => pidsWith('marker-api-1').length === 0, `the bash command ${shell} to end`, 30_000)
  const [board] = chefResults(await w.say([{ tool: 'chef_board', args: {} }]))
  assert.match(board, /api-1/)
  assert.match(board, /stopped/)
})

test('a restarted chef adopts a running cook and derives the outcome of one that ended meanwhile', { skip, timeout: 400_000 }, async (t) => {
  const w = await chefWorld(t, {})
  w.cookRoute.fallback = gatedCook(w.home.root)
  const repo = makeRepo(w.repos, 'app')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { tasks: [{ project: 'app', title: 'Keeps cooking', brief: 'a' }, { project: 'app', title: 'Ends meanwhile', brief: 'b' }] } },
  ])
  const pid1 = await waitFor(() => cookPid(w.kitchen, 'app-1'), 'cook app-1')
  const pid2 = await waitFor(() => cookPid(w.kitchen, 'app-2'), 'cook app-2')
  await waitFor(() => pidsWith('marker-app-1').length > 0 && pidsWith('marker-app-2').length > 0, 'both cooks in bash')

  // The chef's dsh dies; its cooks are detached and keep running. One of them ends while no chef runs.
  await w.web.kill()
  release(w.home.root, 'app-2')
  await waitFor(() => !groupAlive(pid2), 'cook app-2 to finish and exit')
  assert.ok(groupAlive(pid1), 'cook app-1 still cooks')

  const again = await startWeb({ home: w.home, model: w.model, patch: w.patch, cwd: w.repos })
  w.undo.push(() => again.stop())
  w.web = again
  await w.say([]) // the resumed chef session comes back in chef mode and opens the kitchen
  await waitFor(() => w.script.wakes.length >= 1, 'the first wake after the restart')
  assert.match(w.script.wakes[0], /^Chef restarted: 1 cook still cooking, 1 run finished while you were away\.\n\nKitchen update \(1\):\n- app-2 "Ends meanwhile" is done: app-2 finished\./)
  assert.equal(cookPid(w.kitchen, 'app-1'), pid1, 'the running cook was adopted, not relaunched')

  release(w.home.root, 'app-1')
  await waitFor(() => w.script.wakes.length >= 2, 'the wake of the adopted cook')
  assert.match(w.script.wakes[1], /^Kitchen update \(1\):\n- app-1 "Keeps cooking" is done: app-1 finished\./)
  assert.deepEqual(runFiles(w.kitchen, 'app-1'), ['1.jsonl'])
  assert.deepEqual(runFiles(w.kitchen, 'app-2'), ['1.jsonl'])
})

test('a message sent mid-run is steered into the running cook', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t, {})
  const gates = w.home.root
  w.cookRoute.fallback = (body) => {
    const task = cookTask(body)
    if (!afterTool(body)) return gatedCommit(gates, task)
    return { tool: 'chef_report', args: { status: 'done', summary: messageText(body).includes('Also update the changelog') ? 'done, changelog noted' : 'done, no message seen' } }
  }
  const repo = makeRepo(w.repos, 'lib')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'lib', title: 'Feature', brief: 'Build it.' } },
  ])
  await waitFor(() => pidsWith(`go-lib-1`).length > 0, 'the cook in its bash step')
  const [sent] = chefResults(await w.say([{ tool: 'chef_send', args: { task: 'lib-1', message: 'Also update the changelog.' } }]))
  assert.match(sent, /Sent to lib-1: the cook of run 1 takes it after its current step\./)
  // The cook's runner moves the message to handled/ before it steers.
  await waitFor(() => handled(w.kitchen, 'lib-1').length > 0, 'the message handled by the cook')
  release(gates, 'lib-1')
  await waitFor(() => w.script.wakes.length >= 1, 'the wake')
  // steered: the report names the message (what the kitchen saw of its commands comes after it)
  assert.match(w.script.wakes[0], /lib-1 "Feature" (is|says it is) done: done, changelog noted\. The kitchen saw: new commits on issue\/lib-1[.;]/)
  assert.deepEqual(runFiles(w.kitchen, 'lib-1'), ['1.jsonl'], 'steered, not relaunched')
})

function handled(kitchen, task) {
  try {
    return readdirSync(join(kitchen, 'tasks', task, 'inbox', 'handled'))
  } catch {
    return []
  }
}

test('a maxCooks edit in the profile\'s patch layer applies while dsh runs, with a task cooking', { skip, timeout: 300_000 }, async (t) => {
  const config = { maxCooks: 1 }
  const w = await chefWorld(t, { config, profileRow: true })
  w.cookRoute.fallback = gatedCook(w.home.root)
  const repo = makeRepo(w.repos, 'svc')
  const [, dispatched] = chefResults(await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { tasks: [{ project: 'svc', title: 'One', brief: 'a' }, { project: 'svc', title: 'Two', brief: 'b' }] } },
  ]))
  assert.match(dispatched, /svc-1 is cooking/)
  assert.match(dispatched, /svc-2 is queued on branch issue\/svc-2: all 1 cooks are busy/)
  const pid1 = await waitFor(() => cookPid(w.kitchen, 'svc-1'), 'cook svc-1')
  const lease = leaseText(w.kitchen)

  // The row's config in the profile's own patch layer, with maxCooks 2.
  const layer = w.layer
  const edit = kitchenRowLayer({ ...w.rowConfig, maxCooks: 2 })
  writeFileSync(layer, edit)
  let writes = 0
  await waitFor(() => {
    // A change made while the launcher's watcher still starts goes unseen: write it again now and then.
    if (++writes % 30 === 0) writeFileSync(layer, edit)
    return cookPid(w.kitchen, 'svc-2')
  }, 'svc-2 to start under the new cap')
  assert.equal(cookPid(w.kitchen, 'svc-1'), pid1, 'the cooking task kept its cook')
  assert.equal(leaseText(w.kitchen), lease, 'the lease is the same')
  const board = await w.web.command(w.sessionId, '/chef board')
  assert.match(board.text ?? JSON.stringify(board), /Cooks: 2\/2 busy/)
  assert.equal(w.web.alive, true)
  release(w.home.root, 'svc-1')
  release(w.home.root, 'svc-2')
  await waitFor(() => w.script.wakes.join('\n').includes('svc-1') && w.script.wakes.join('\n').includes('svc-2'), 'both wakes')
  assert.deepEqual(runFiles(w.kitchen, 'svc-1'), ['1.jsonl'])
})

test('a config edit while a wake is pending for a busy chef loses nothing', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t, { profileRow: true })
  w.cookRoute.fallback = gatedCook(w.home.root)
  const repo = makeRepo(w.repos, 'ops')
  await w.say([
    { tool: 'chef_add_project', args: { path: repo } },
    { tool: 'chef_dispatch', args: { project: 'ops', title: 'Pending', brief: 'a' } },
  ])
  await waitFor(() => pidsWith('marker-ops-1').length > 0, 'the cook in bash')
  const lease = leaseText(w.kitchen)
  // The chef is busy: its next model request is held open until the test lets it go.
  let letGo
  const held = new Promise((r) => { letGo = r })
  const answer = w.chefRoute.fallback
  let holding = true
  w.chefRoute.fallback = async (body, rec) => {
    if (holding) await held
    return answer(body, rec)
  }
  const busyFrom = w.chefRoute.requests.length
  await w.web.prompt(w.sessionId, `SCRIPT ${JSON.stringify([{ text: 'busy turn done' }])}`)
  await w.chefRoute.waitForRequests(busyFrom + 1)
  // The cook finishes while the chef is busy, and the row's config changes in the profile layer.
  release(w.home.root, 'ops-1')
  await waitFor(() => readFileSync(join(w.kitchen, 'tasks/ops-1/runs/1.jsonl'), 'utf8').includes('"settled"'), 'the run to settle')
  const edit = kitchenRowLayer({ ...w.rowConfig, maxCooks: 5 })
  writeFileSync(w.layer, edit)
  let writes = 0
  await waitFor(async () => {
    if (++writes % 30 === 0) writeFileSync(w.layer, edit)
    const board = await w.web.command(w.sessionId, '/chef board').catch(() => undefined)
    return /Cooks: \d+\/5 busy/.test(board?.text ?? JSON.stringify(board ?? ''))
  }, 'the new config')
  assert.equal(w.script.wakes.length, 0, 'the busy chef has not taken the wake yet')
  holding = false
  letGo()
  await waitFor(() => w.script.wakes.length >= 1, 'the wake after the busy turn')
  await waitFor(() => readLog(w.kitchen, 'ops-1').some((e) => e.type === 'notified' && e.run === 1), 'notified for run 1')
  assert.match(w.script.wakes[0], /ops-1 "Pending" is done: ops-1 finished\./)
  assert.equal(leaseText(w.kitchen), lease, 'the same lease')
  assert.equal(readLog(w.kitchen, 'ops-1').filter((e) => e.type === 'notified').length, 1)
  assert.equal(w.script.wakes.length, 1, 'one wake, not two')
})
