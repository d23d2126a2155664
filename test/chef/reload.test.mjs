// Config hot reload in the real dsh: the kitchen row lives in the web profile's own patch layer
// (`$DSH_HOME/profiles/web/cordis.patch.yml`, which dsh watches). With maxCooks 1 and three tasks
// (the first reports at once, the second cooks, the third queues) and the chef busy in a turn so
// the first task's wake is still pending, the file is edited to maxCooks 2: the queued task
// launches in the same dsh process, the cooking task keeps its cook, the lease keeps its holder,
// the pending wake is claimed once the chef's turn ends, and the chef's tools still answer.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { dshAvailable, makeHome } from '../e2e/harness.mjs'
import { offersTool, startFakeModel } from '../support/fake-model.mjs'
import { cookTask, killCooks, leaseText, makeRepo } from './support.mjs'
import { diskTasks, inotifyWatches, liveCooks, plainOverlay, runEnded, startChef, waitFor, webProfilePatch, writeProfileKitchen } from './restart.mjs'

const skip = dshAvailable()
const text = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p?.text ?? '').join('') : '')

function gate() {
  let open
  const p = new Promise((r) => { open = r })
  return { p, open }
}

test('a maxCooks edit in the profile patch layer applies live: the queued task launches, the cook, lease and pending wake survive', { skip, timeout: 300_000 }, async (t) => {
  const undo = []
  t.after(async () => {
    for (const f of undo.reverse()) await f().catch(() => {})
  })
  const home = await makeHome('cs-chef-reload-')
  undo.push(home.cleanup)
  const model = await startFakeModel({ fallback: { text: 'FINAL' } })
  undo.push(() => model.close())
  const kitchen = join(home.root, 'kitchen')
  undo.push(async () => killCooks(kitchen))
  const repos = join(home.root, 'repos')
  mkdirSync(repos, { recursive: true })
  const repo = makeRepo(repos, 'alpha')

  // alpha-1 reports at once; alpha-2 and alpha-3 hold their first model call until the test opens them.
  const cooks = { 'alpha-2': gate(), 'alpha-3': gate() }
  const cookRoute = model.route('cook', (b) => offersTool(b, 'chef_report'))
  cookRoute.fallback = async (body) => {
    const task = cookTask(body)
    await cooks[task]?.p
    return { tool: 'chef_report', args: { status: 'done', summary: `finished ${task}` } }
  }
  // The chef: SETUP adds the project and dispatches, then its turn stays busy until `chefBusy` opens.
  const chefBusy = gate()
  const wakes = []
  const chefRoute = model.route('chef', (b) => offersTool(b, 'chef_dispatch'))
  chefRoute.fallback = async (body) => {
    const msgs = body.messages ?? []
    // The newest message of ours (runtime-context messages of dsh's plugins come between).
    const at = msgs.findLastIndex((m) => m.role === 'user' && /SETUP|BOARD|Kitchen update \(/.test(text(m.content)))
    const last = text(msgs[at]?.content)
    const tools = msgs.slice(at).filter((m) => m.role === 'tool').length
    if (last.includes('Kitchen update (') && !wakes.includes(last)) wakes.push(last)
    if (last.includes('SETUP')) {
      const steps = [
        { tool: 'chef_add_project', args: { path: repo } },
        { tool: 'chef_dispatch', args: { project: 'alpha', tasks: ['one', 'two', 'three'].map((n) => ({ title: `Task ${n}`, brief: `Do task ${n}.` })) } },
      ]
      if (tools < steps.length) return steps[tools]
      await chefBusy.p
      return { text: 'set up' }
    }
    if (last.includes('BOARD')) return tools === 0 ? { tool: 'chef_board', args: {} } : { text: 'ok' }
    return { text: 'noted' }
  }

  const row = { dir: kitchen, maxCooks: 1, killGraceMs: 1500, exitGraceMs: 3000, exitWaitMs: 8000, reclaimAfterMs: 2000 }
  const layer = writeProfileKitchen(home, row)
  const chef = await startChef({ home, model, patch: plainOverlay(home), cwd: repos })
  undo.push(() => chef.killGroup())
  const sessionId = await chef.createSession(repos)
  const on = await chef.command(sessionId, '/chef on')
  assert.equal(on.kind, 'success', JSON.stringify(on))
  assert.ok(readFileSync(webProfilePatch(home), 'utf8').includes('"maxCooks":1'), 'dsh kept the profile layer it found')

  await chef.prompt(sessionId, 'SETUP')
  // The dispatch answered: with one cook, alpha-1 cooks and two queue.
  const dispatched = await waitFor(() => chefRoute.requests.map((r) => r.body.messages?.at(-1)).find((m) => m?.role === 'tool' && text(m.content).includes('alpha-3')), 'the dispatch answer', 120_000)
    .catch((error) => { throw new Error(`${error.message}\n${JSON.stringify(model.requests.map((r) => [r.route, r.tools.length, r.body.messages?.at(-1)]))}\n${chef.output.slice(-3000)}`) })
  assert.match(text(dispatched.content), /alpha-1 is cooking/)
  assert.match(text(dispatched.content), /alpha-3 is queued/)
  // alpha-1 ends and alpha-2 takes the one cook; alpha-1's wake is pending (the chef's turn is busy).
  await waitFor(() => cookRoute.requests.some((r) => cookTask(r.body) === 'alpha-2'), 'alpha-2 cooking', 120_000)
  const task = (id) => diskTasks(kitchen).find((x) => x.id === id)
  await waitFor(() => runEnded(task('alpha-1').runs[0] ?? { lines: [] }) && !liveCooks(kitchen).has('alpha-1'), 'alpha-1 ended', 60_000)
  assert.equal(task('alpha-3').runs.length, 0, 'alpha-3 waits for a cook')
  assert.equal(task('alpha-1').notified.size, 0, 'alpha-1 is not notified while the chef is busy')
  const cookBefore = liveCooks(kitchen).get('alpha-2')
  assert.equal(cookBefore?.length, 1, 'one cook for alpha-2')
  const leaseBefore = leaseText(kitchen)

  // The edit, as a person makes it while dsh runs (once dsh watches the layer's directory).
  // dsh (rc.8) now and then misses a save even then, in place or by rename: no update reaches the
  // row at all (measured: 1 to 3 saves in 8 runs), so the save is repeated every few seconds until
  // the queued task launches.
  await waitFor(() => inotifyWatches(chef.child.pid, dirname(layer)), 'dsh watching the profile layer', 60_000)
  const edited = readFileSync(layer, 'utf8').replace('"maxCooks":1', '"maxCooks":2')
  const save = () => writeFileSync(layer, edited)
  save()
  let saves = 1
  let polls = 0
  await waitFor(() => {
    if (++polls % 40 === 0) {
      save()
      saves++
    }
    return cookRoute.requests.some((r) => cookTask(r.body) === 'alpha-3')
  }, 'alpha-3 launched after the edit', 60_000)
    .catch((error) => {
      const lease = leaseText(kitchen)
      throw new Error(`${error.message}\nlease before: ${leaseBefore}\nlease now: ${lease}\n${JSON.stringify(diskTasks(kitchen).map((x) => [x.id, x.runs.length, x.log]))}\n${chef.output.slice(-3000)}`)
    })
  t.diagnostic(`the edit applied after ${saves} save(s)`)
  assert.ok(chef.alive, 'the same dsh process runs')
  // the kitchen took maxCooks 2 from the row itself (alpha-3 launched beside alpha-2); nothing of it is written to the kitchen
  assert.equal(existsSync(join(kitchen, 'config.json')), false)
  assert.deepEqual(liveCooks(kitchen).get('alpha-2')?.map((g) => g.pgid), cookBefore.map((g) => g.pgid), 'alpha-2 kept its cook')
  assert.equal(task('alpha-2').runs.length, 1, 'alpha-2 was not relaunched')
  assert.equal(leaseText(kitchen), leaseBefore, 'the lease kept its holder')
  assert.equal(task('alpha-1').notified.size, 0, 'alpha-1 is still waiting for its wake')

  // The chef's turn ends: the pending wake is claimed by the next turn and alpha-1 is notified.
  chefBusy.open()
  await waitFor(() => task('alpha-1').notified.has(1), 'alpha-1 notified', 60_000)
  // `notified` is written when the turn claims the wake, just before that turn's model request.
  await waitFor(() => wakes.some((w) => w.includes('alpha-1 "Task one" says it is done: finished alpha-1. The kitchen saw: no commits on issue/alpha-1.')), 'the wake naming alpha-1 at the chef model', 60_000)

  // The chef's tools survived the reload; both cooks are busy under the new cap.
  const boards = chefRoute.requests.length
  await chef.prompt(sessionId, 'BOARD')
  const board = await waitFor(() => chefRoute.requests.slice(boards).map((r) => r.body.messages?.at(-1)).find((m) => m?.role === 'tool'), 'the board answer', 60_000)
  assert.match(text(board.content), /Cooks: 2\/2 busy/)

  // Both finish; their wakes arrive too.
  cooks['alpha-2'].open()
  cooks['alpha-3'].open()
  await waitFor(() => ['alpha-2', 'alpha-3'].every((id) => task(id).notified.has(1)), 'alpha-2 and alpha-3 notified', 120_000)
  for (const id of ['alpha-1', 'alpha-2', 'alpha-3']) assert.equal(task(id).runs.length, 1, `${id} ran once`)
  assert.ok(existsSync(join(kitchen, 'worktrees', 'alpha-3')))
  assert.ok(chef.alive, 'no restart all along')
})
