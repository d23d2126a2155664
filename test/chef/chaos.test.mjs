// Chaos in the real harness: 20 seeded times, the chef (in `dsh web`) is asked to dispatch, send or
// close, and its dsh process is killed (SIGKILL) a random moment later; a new dsh web resumes the
// chef session. Afterwards a last chef runs until the kitchen is quiet, and then: every task is on
// its board, no dispatch made two tasks, no message went into two runs nor was lost, no task closed
// twice, and every finished run of an open task was notified to the chef (no wake lost).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { rng } from '../support/random.mjs'
import { chefResults, chefWorld, cookPid, makeRepo, readLog, runFiles, waitFor } from './support.mjs'
import { startWeb } from './web.mjs'

const skip = dshAvailable()
const SEED = Number(process.env.CHAOS_SEED ?? 8)
const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 20)

const taskIds = (kitchen) => (existsSync(join(kitchen, 'tasks')) ? readdirSync(join(kitchen, 'tasks')).filter((n) => /^chaos-\d+$/.test(n)) : [])
const closed = (kitchen, id) => readLog(kitchen, id).some((e) => e.type === 'closed')
function dirList(dir) {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

test(`kill the chef's dsh at random points of dispatch, send and close, ${ROUNDS} seeded times (seed ${SEED})`, { skip, timeout: 1_500_000 }, async (t) => {
  const random = rng(SEED)
  const w = await chefWorld(t, { cook: () => ({ tool: 'chef_report', args: { status: 'done', summary: 'chaos work done' } }) })
  const repo = makeRepo(w.repos, 'chaos')
  await w.say([{ tool: 'chef_add_project', args: { path: repo } }])
  const asked = { dispatch: [], send: [], close: [] }

  for (let i = 0; i < ROUNDS; i++) {
    const open = taskIds(w.kitchen).filter((id) => !closed(w.kitchen, id))
    const r = random()
    let step
    if (open.length === 0 || r < 0.45) {
      step = { tool: 'chef_dispatch', args: { project: 'chaos', title: `Chaos task ${i}`, brief: `Round ${i}.` } }
      asked.dispatch.push(`Chaos task ${i}`)
    } else if (r < 0.75) {
      const task = open[Math.floor(random() * open.length)]
      step = { tool: 'chef_send', args: { task, message: `Message ${i} for ${task}` } }
      asked.send.push(`Message ${i} for ${task}`)
    } else {
      const task = open[Math.floor(random() * open.length)]
      step = { tool: 'chef_close', args: { task } }
      asked.close.push(task)
    }
    const delay = Math.floor(random() * 2500)
    await w.web.prompt(w.sessionId, `SCRIPT ${JSON.stringify([step, { text: 'round done' }])}`)
    await new Promise((res) => setTimeout(res, delay)) // the kill point is the seeded moment, not a synchronisation
    await w.web.kill()
    const next = await startWeb({ home: w.home, model: w.model, patch: w.patch, cwd: w.repos })
    w.undo.push(() => next.stop())
    w.web = next
    // The resumed chef session comes back in chef mode at its first prompt.
    await next.prompt(w.sessionId, 'SCRIPT []')
  }

  // The last chef: wait until no cook runs and every open task is settled, with nothing in an inbox.
  const quiet = () => taskIds(w.kitchen).every((id) => {
    if (closed(w.kitchen, id)) return true
    if (cookPid(w.kitchen, id)) return false
    if (dirList(join(w.kitchen, 'tasks', id, 'inbox')).some((n) => n.endsWith('.msg'))) return false
    const runs = runFiles(w.kitchen, id)
    if (runs.length === 0) return false
    const last = Number(runs.at(-1).split('.')[0])
    return readLog(w.kitchen, id).some((e) => e.type === 'notified' && e.run === last)
  })
  // Described when the wait ends: the state that never settled, with each task's cook and inbox.
  const state = () => JSON.stringify(taskIds(w.kitchen).map((id) => [id, runFiles(w.kitchen, id), readLog(w.kitchen, id).map((e) => `${e.type}${e.run ?? ''}`), cookPid(w.kitchen, id) ? 'cook running' : '', dirList(join(w.kitchen, 'tasks', id, 'inbox')).filter((n) => n.endsWith('.msg'))]))
  await waitFor(quiet, () => `a quiet kitchen (every open task settled and notified): ${state()}`, 600_000)

  const ids = taskIds(w.kitchen)
  const specs = ids.map((id) => JSON.parse(readFileSync(join(w.kitchen, 'tasks', id, 'task.json'), 'utf8')))
  // Every task came from a dispatch the chef asked for, and no dispatch made two tasks.
  const titles = specs.map((s) => s.title)
  assert.equal(new Set(titles).size, titles.length, `a dispatch made two tasks: ${titles.join(', ')}`)
  for (const title of titles) assert.ok(asked.dispatch.includes(title), `unknown task ${title}`)
  // No message went into two runs; none is left in an inbox (quiet checked it), so none was lost.
  for (const id of ids) {
    const prompts = runFiles(w.kitchen, id).map((f) => readFileSync(join(w.kitchen, 'tasks', id, 'runs', f.replace('.jsonl', '.prompt.md')), 'utf8'))
    const handled = dirList(join(w.kitchen, 'tasks', id, 'inbox', 'handled'))
    for (const name of handled) {
      const text = readFileSync(join(w.kitchen, 'tasks', id, 'inbox', 'handled', name), 'utf8').trim()
      const carriers = prompts.filter((p) => p.includes(text))
      assert.ok(carriers.length <= 1, `${id}: "${text}" went into ${carriers.length} runs`)
    }
    // A run is launched once: each run number has one prompt, one run file, and a run only follows a message.
    const runs = runFiles(w.kitchen, id).length
    assert.ok(runs <= 1 + handled.length, `${id}: ${runs} runs for ${handled.length} messages`)
    assert.ok(readLog(w.kitchen, id).filter((e) => e.type === 'closed').length <= 1, `${id} closed twice`)
  }
  // The last chef's board lists every open task.
  await w.say([{ tool: 'chef_board', args: {} }])
  // A wake turn may share the requests with this one: take the board text wherever it came back.
  const board = await waitFor(() => chefResults(w.chefRoute.requests).filter((r) => /^Kitchen .* \(owner\)\./.test(r)).at(-1), 'the board')
  for (const id of ids) if (!closed(w.kitchen, id)) assert.match(board, new RegExp(`\\b${id}\\b`), `the board misses ${id}:\n${board}`)
  t.diagnostic(`rounds ${ROUNDS}, seed ${SEED}: ${asked.dispatch.length} dispatches, ${asked.send.length} sends, ${asked.close.length} closes; ${ids.length} tasks, ${ids.filter((id) => closed(w.kitchen, id)).length} closed; wakes ${w.script.wakes.length}`)
})
