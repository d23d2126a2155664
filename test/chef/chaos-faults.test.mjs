// Chaos in the real harness: a chef in `dsh web` is SIGKILLed (its whole process group) at a seeded
// point of a dispatch, a send, a close or a wake's `notified` write, through the kitchen's crash hook
// (src/chef/crash-hook.ts) at the core's named fault points, or from outside right after the
// operation answered. Each iteration kills one real chef; the next iteration's chef is a new dsh
// process on the same home and kitchen, so it must first recover what the killed one left. Cooks are
// real dsh processes with the cook runner and outlive every chef. Checked:
//   1. each new chef owns the kitchen and its board names every open task on disk;
//   2. nothing is launched twice: never two live cooks for one task, each run file holds one run
//      (one run_start), run numbers have no gaps, no launch failed, and a task has exactly one run
//      for its dispatch plus one per message it was sent;
//   3. no wake is lost: the last run of every open task is marked notified (a chef's turn claimed
//      its wake; a wake the last chef claimed also reached its model); a closed task's worktree is
//      gone.
// CHEF_CHAOS_SEED=<n> replays a chain (the seed is printed; choices follow the seed, timing does not),
// CHEF_CHAOS_ITERATIONS=<n> sets the number of killed chefs (default 20).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable, makeHome } from '../e2e/harness.mjs'
import { offersTool, startFakeModel } from '../support/fake-model.mjs'
import { rng } from '../support/random.mjs'
import { killCooks, makeRepo } from './support.mjs'
import { writeOverlay } from './web.mjs'
import { CRASH_FILE_ENV, diskTasks, liveCooks, runEnded, startChef, waitFor } from './restart.mjs'

const skip = dshAvailable()
const SEED = Number(process.env.CHEF_CHAOS_SEED ?? 20261201)
const ITERATIONS = Number(process.env.CHEF_CHAOS_ITERATIONS ?? 20)

// Where a kill may land, per operation; 'after' kills from outside once the operation answered.
const POINTS = {
  dispatch: ['dispatch:created', 'launch:worktree', 'launch:prompt', 'launch:handled', 'launch:claimed', 'launch:spawned', 'tick:acted', 'after'],
  send: ['send:written', 'launch:worktree', 'launch:prompt', 'launch:handled', 'launch:claimed', 'launch:spawned', 'after'],
  close: ['close:logged', 'close:removed', 'after'],
  wake: ['notify:delivered'],
}

const text = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p?.text ?? '').join('') : '')
const userTexts = (body) => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => text(m.content))
/** The last SCRIPT prompt's index in a request, and whether a tool result follows it. */
function scriptState(body) {
  const msgs = body?.messages ?? []
  const at = msgs.findLastIndex((m) => m.role === 'user' && text(m.content).includes('SCRIPT '))
  return { at, answered: at >= 0 && msgs.slice(at).some((m) => m.role === 'tool') }
}
const opPending = (body) => { const s = scriptState(body); return s.at >= 0 && !s.answered }
const opAnswered = (body) => scriptState(body).answered
/** A run the kitchen logged as failed to launch: at rest too (the check after the wait names it, with the cook's stderr). */
const launchFailed = (task, run) => task.log.some((e) => e.type === 'launch_failed' && e.run === run.run)

test(`chaos: ${ITERATIONS} chefs killed mid-operation, seed ${SEED}`, { skip, timeout: 900_000 }, async (t) => {
  const undo = []
  t.after(async () => {
    for (const f of undo.reverse()) await f().catch(() => {})
  })
  const home = await makeHome('cs-chef-chaos-')
  undo.push(home.cleanup)
  const model = await startFakeModel({ fallback: { text: 'FINAL' } })
  undo.push(() => model.close())

  // A cook reports at once, in the words of the newest marker it was given (brief or message).
  const cookRoute = model.route('cook', (b) => offersTool(b, 'chef_report'))
  cookRoute.fallback = (body) => {
    const marks = userTexts(body).join('\n').match(/@(needs|done)\b/g) ?? []
    const needs = marks.at(-1) === '@needs'
    return { tool: 'chef_report', args: needs ? { status: 'needs_decision', summary: 'which way?' } : { status: 'done', summary: 'did it' } }
  }
  // The chef runs the one scripted operation of its prompt, and notes every wake.
  const wakes = new Set()
  let op
  const chefRoute = model.route('chef', (b) => offersTool(b, 'chef_dispatch'))
  chefRoute.fallback = (body) => {
    for (const u of userTexts(body)) if (u.includes('Kitchen update (')) wakes.add(u)
    return op && opPending(body) ? op : { text: 'noted' }
  }

  const kitchen = join(home.root, 'kitchen')
  undo.push(async () => killCooks(kitchen))
  const patch = await writeOverlay(home, { dir: kitchen, maxCooks: 8, killGraceMs: 1500, exitGraceMs: 3000, exitWaitMs: 8000, reclaimAfterMs: 2000 })
  const repos = join(home.root, 'repos')
  mkdirSync(repos, { recursive: true })
  const repo = makeRepo(repos, 'alpha')

  const violations = []
  const sample = (when) => {
    for (const [task, groups] of liveCooks(kitchen)) {
      if (groups.length > 1) violations.push(`${when}: two live cooks for ${task}: ${groups.map((g) => `pgid ${g.pgid} -> ${g.target}`).join('; ')}`)
    }
  }

  /** A new chef: a dsh web with the crash hook on `crashFile`, a fresh session in chef mode, checked against the disk. */
  const newChef = async (crashFile, label) => {
    const chef = await startChef({ home, model, patch, cwd: repos, env: crashFile ? { [CRASH_FILE_ENV]: crashFile } : {} })
    undo.push(() => chef.killGroup())
    const sessionId = await chef.createSession(repos)
    const on = await chef.command(sessionId, '/chef on')
    assert.equal(on.kind, 'success', `${label}: /chef on: ${JSON.stringify(on)}`)
    assert.match(on.text, /you own the kitchen/, `${label}: the new chef owns the kitchen (the killed one's lease is stale)`)
    const board = await chef.command(sessionId, '/chef board')
    for (const task of diskTasks(kitchen)) {
      if (task.closed) assert.ok(!board.text.includes(` ${task.id} "`), `${label}: closed ${task.id} is off the board:\n${board.text}`)
      else assert.ok(board.text.includes(` ${task.id} "`), `${label}: the board names ${task.id}:\n${board.text}`)
    }
    return { chef, sessionId }
  }

  const rand = rng(SEED)
  const pick = (xs) => xs[Math.floor(rand() * xs.length)]
  const log = []
  const started = Date.now()
  let titles = 0
  for (let i = 0; i < ITERATIONS; i++) {
    const crashFile = join(home.root, `crash-${i}`)
    const t0 = Date.now()
    const { chef, sessionId } = await newChef(crashFile, `chef ${i}`)
    sample(`chef ${i} up`)
    const up = ((Date.now() - t0) / 1000).toFixed(1)
    const tasks = diskTasks(kitchen)
    if (i === 0) {
      op = { tool: 'chef_add_project', args: { path: repo } }
      await runOp(chef, sessionId, undefined)
    }
    // An idle open task: its last run ended, no launch of a next run was begun (a prompt file), nothing
    // waits in its inbox, no cook lives for it. A send to it is then exactly one more run.
    const live = liveCooks(kitchen)
    const idle = tasks.filter((x) => !x.closed && x.runs.length > 0 && runEnded(x.runs.at(-1)) && !x.prompts.some((n) => n > x.runs.at(-1).run) && x.inbox === 0 && !live.has(x.id))
    let kind = idle.length === 0 || rand() < 0.35 ? pick(['dispatch', 'dispatch', 'wake']) : pick(['send', 'send', 'close', 'dispatch'])
    let point = pick(POINTS[kind])
    let skipHits = 0
    let step
    if (kind === 'dispatch' || kind === 'wake') {
      const n = 1 + Math.floor(rand() * 2)
      if (n === 2 && point.startsWith('launch:') || point === 'dispatch:created') skipHits = Math.floor(rand() * n)
      step = { tool: 'chef_dispatch', args: { project: 'alpha', tasks: Array.from({ length: n }, () => ({ title: `job ${++titles}`, brief: `Report at once. ${rand() < 0.4 ? '@needs' : '@done'}` })) } }
    } else if (kind === 'send') {
      step = { tool: 'chef_send', args: { task: pick(idle).id, message: `Go on. ${rand() < 0.3 ? '@needs' : '@done'}` } }
    } else {
      step = { tool: 'chef_close', args: { task: pick(idle).id, discard: true } }
    }
    const line = `seed ${SEED} chef ${i}: ${kind} ${JSON.stringify(step.args)}, kill at ${point}${skipHits ? ` (after ${skipHits} passes)` : ''}`
    log.push(line)
    t.diagnostic(line)
    op = step
    if (point !== 'after') writeFileSync(crashFile, `${point} ${skipHits}\n`)
    const how = await runOp(chef, sessionId, point)
    await chef.killGroup()
    log.push(`  -> ${how}; up in ${up} s, killed after ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    t.diagnostic(log.at(-1))
    sample(`after chef ${i}`)
  }
  op = undefined

  // The last chef: no crash hook. It must bring every task to rest and have every wake claimed.
  const finalStart = Date.now()
  const { chef } = await newChef(undefined, 'the last chef')
  // A wake this chef's turn claimed reaches its model (a killed chef's claimed wake stays in that
  // chef's session, which no model call of this chain reads again).
  const seen = (x) => {
    const mark = x.log.findLast((e) => e.type === 'notified' && e.run === x.runs.at(-1).run)
    return mark.at < finalStart || [...wakes].some((w) => w.includes(`${x.id} "`))
  }
  let last
  try {
    await waitFor(() => {
      sample('settling')
      const live = liveCooks(kitchen)
      last = diskTasks(kitchen)
      return last.every((x) => x.closed
        ? !existsSync(join(kitchen, 'worktrees', x.id))
        : x.runs.length > 0 && (runEnded(x.runs.at(-1)) || launchFailed(x, x.runs.at(-1))) && x.inbox === 0 && !live.has(x.id) && x.notified.has(x.runs.at(-1).run) && seen(x))
    }, 'every task at rest with its last run notified', 240_000, 250)
  } catch (error) {
    throw new Error(`${error.message}\n${log.join('\n')}\n${JSON.stringify(last?.map((x) => ({ id: x.id, closed: x.closed, runs: x.runs.map((r) => [r.run, r.size, runEnded(r), r.errTail]), log: x.log, inbox: x.inbox, handled: x.handled, notified: [...x.notified] })), null, 1)}`)
  }

  for (const x of last) {
    const where = `${x.id} (seed ${SEED})`
    x.runs.forEach((r, k) => assert.equal(r.run, k + 1, `${where}: run numbers have no gap: ${x.runs.map((q) => q.run)}`))
    for (const r of x.runs) {
      const starts = r.lines.filter((l) => l.type === 'run_start').length
      if (r.size > 0 || !x.closed) assert.equal(starts, 1, `${where}: run ${r.run} holds one run (run_start lines: ${starts})`)
    }
    const failed = x.log.filter((e) => e.type === 'launch_failed')
    assert.deepEqual(failed, [], `${where}: no launch failed; the cook said:\n${failed.map((e) => x.runs.find((r) => r.run === e.run)?.errTail ?? '').join('\n')}`)
    if (!x.closed) {
      assert.equal(x.runs.length, 1 + x.handled, `${where}: one run for the dispatch plus one per message (${x.handled} handled)`)
      assert.ok(seen(x), `${where}: the last chef's model saw the wake it claimed`)
    }
  }
  assert.deepEqual(violations, [])
  assert.ok(last.length >= 2, `the chain made tasks: ${last.map((x) => x.id)}`)
  await chef.killGroup()
  t.diagnostic(`${ITERATIONS} chefs killed, ${last.length} tasks, ${last.reduce((n, x) => n + x.runs.length, 0)} runs, ${wakes.size} wakes, ${Math.round((Date.now() - started) / 1000)} s`)

  /**
   * Prompt the scripted operation and wait for the kill: the crash hook's (the process dies) or,
   * for 'after', the operation's answer (then the caller kills). Returns what happened.
   */
  async function runOp(chef, sessionId, point) {
    let r
    const before = chefRoute.requests.length
    await chef.prompt(sessionId, 'SCRIPT do the operation')
    const answered = () => chefRoute.requests.slice(before).some((r) => opAnswered(r.body))
    const done = new AbortController()
    try {
      const died = chef.exited.then(() => 'died')
      const replied = waitFor(answered, `the answer to ${JSON.stringify(op)}`, 120_000, 100, done.signal).then(() => 'answered')
      if (point === undefined || point === 'after') {
        const r = await Promise.race([died, replied])
        assert.equal(r, 'answered', `the chef died before it answered ${JSON.stringify(op)}:\n${chef.output.slice(-3000)}`)
        return 'answered'
      }
      // The hook fires inside the operation; a wake's, once a turn claims the wake (bounded).
      const never = () => false
      const wake = waitFor(never, `a claimed wake to kill the chef at ${point}`, 120_000, 100, done.signal)
      r = await Promise.race([died, point === 'notify:delivered' ? wake : replied])
      if (r === 'answered') {
        // Answered first: the point may still come from the tick the operation queued.
        r = await Promise.race([died, waitFor(never, '', 30_000, 100, done.signal).catch(() => 'never')])
        if (r !== 'died') violations.push(`chef with ${JSON.stringify(op)} answered and never reached ${point}`)
      }
    } finally {
      done.abort()
    }
    if (r !== 'died') return `never reached ${point}`
    const exit = await chef.exited
    assert.equal(exit.signal, 'SIGKILL', `the chef died of its crash hook at ${point}: ${JSON.stringify(exit)}\n${chef.output.slice(-3000)}`)
    return `killed at ${point}`
  }
})
