// Kitchen invariants over random task records, checked in a seeded loop over deriveTask + plan.
// Replay a failure with SEED=<n> node --test test/kitchen/unit/invariants.test.mjs
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { plan, deriveTask } from '../../../dist/src/kitchen/derive/index.js'
import { record, run, config, lines } from './helpers.mjs'
import { rng as prng } from '../../support/random.mjs'


const NOW = 1_800_000_000_000
const MODELS = [{ model: 'p/one' }, { model: 'p/two' }, { model: 'p/three' }]

function randomTask(rnd, i) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)]
  const runs = []
  const log = []
  const nRuns = Math.floor(rnd() * 4)
  for (let n = 1; n <= nRuns; n++) {
    const at = NOW - 100_000 + n * 1000
    const kind = pick(['done', 'decision', 'blocked', 'failed', 'provider', 'crash', 'unreported', 'empty', 'empty-err', 'prompt-only'])
    if (kind === 'prompt-only') runs.push(run(n, undefined, { claimed: false }))
    else if (kind === 'empty') runs.push(run(n, undefined, { mtimeMs: NOW - pick([1000, 60_000]) }))
    else if (kind === 'empty-err') runs.push(run(n, undefined, { errTail: 'spawn failed' }))
    else if (kind === 'crash') runs.push(run(n, lines({ at, settled: false })))
    else if (kind === 'provider') runs.push(run(n, lines({ at, model: pick(MODELS).model, providerError: '402: pay' })))
    else if (kind === 'unreported') runs.push(run(n, lines({ at, text: 'did it' })))
    else runs.push(run(n, lines({ at, report: { status: { done: 'done', decision: 'needs_decision', blocked: 'blocked', failed: 'failed' }[kind], summary: 's' } })))
    if (rnd() < 0.4) log.push({ type: 'notified', at: at + 500, run: n })
    if (rnd() < 0.1) log.push({ type: 'launch_failed', at: at + 600, run: n, reason: 'boom' })
  }
  if (rnd() < 0.15) log.push({ type: pick(['stop', 'hold']), at: NOW - 50_000, run: Math.max(1, nRuns + (rnd() < 0.5 ? 0 : 1)) })
  if (rnd() < 0.1) log.push({ type: 'closed', at: NOW - 1000, discarded: rnd() < 0.5 })
  const inbox = rnd() < 0.3 ? [NOW - pick([60_000, 50_000, 10])] : []
  const models = MODELS.slice(0, Math.floor(rnd() * 4))
  return record({ id: `t-${i + 1}`, models, runs, log, inbox, createdAt: Math.floor(rnd() * 100), worktreeExists: rnd() < 0.5 })
}

const seeds = process.env.SEED ? [Number(process.env.SEED)] : Array.from({ length: 300 }, (_, i) => i + 1)

test('invariants of deriveTask and plan over random kitchens', () => {
  const cfg = config({ maxCooks: 3, models: { default: ['p/default'] } })
  for (const seed of seeds) {
    const rnd = prng(seed)
    const records = Array.from({ length: 1 + Math.floor(rnd() * 8) }, (_, i) => randomTask(rnd, i))
    const live = new Map()
    for (const r of records) {
      const claimed = r.runs.filter((x) => x.claimed)
      if (claimed.length > 0 && rnd() < 0.25) live.set(r.id, { pid: 1000 + live.size, run: claimed.at(-1).n })
    }
    const at = `seed ${seed}`
    const p = plan(records, live, NOW, cfg)
    // I1: the plan is a function of its input.
    assert.deepEqual(plan(records, live, NOW, cfg), p, at)
    const views = new Map(p.views.map((v) => [v.id, v]))
    const launches = p.actions.filter((a) => a.kind === 'launch')
    // I2: at most one launch per task, never beside a live cook, never for a closed task.
    assert.equal(new Set(launches.map((a) => a.task)).size, launches.length, at)
    for (const a of launches) {
      const v = views.get(a.task)
      assert.ok(!live.has(a.task), `${at}: launch beside a live cook`)
      assert.equal(v.state.kind, 'queued', `${at}: launch of a ${v.state.kind} task`)
      // I3: the run: the same run after an interrupted launch, else past every used run.
      const rec = records.find((r) => r.id === a.task)
      const used = Math.max(0, ...rec.runs.map((r) => r.n), ...rec.log.filter((e) => e.type === 'launch_failed').map((e) => e.run))
      if (a.why === 'interrupted-launch') assert.equal(a.run, used, at)
      else assert.equal(a.run, used + 1, at)
      // I4: the candidate is one of the task's candidates (or the default when it has none).
      const list = rec.spec.models.length > 0 ? rec.spec.models : [{ model: 'p/default' }]
      assert.ok(list.some((m) => m.model === a.candidate.model), at)
    }
    // I5: the cap: launches only fill free slots.
    assert.ok(p.busy <= Math.max(cfg.maxCooks, p.busy - launches.length), at)
    assert.ok(launches.length <= Math.max(0, cfg.maxCooks - (p.busy - launches.length)), at)
    // I6: notices only for idle tasks with a final outcome other than stopped, once per run.
    for (const a of p.actions.filter((x) => x.kind === 'notify')) {
      const v = views.get(a.task)
      assert.equal(v.state.kind, 'idle', at)
      assert.notEqual(v.state.outcome.kind, 'stopped', at)
      assert.equal(a.run, v.state.run, at)
      const rec = records.find((r) => r.id === a.task)
      assert.ok(!rec.log.some((e) => e.type === 'notified' && e.run === a.run), `${at}: notice for a notified run`)
    }
    // I7: terminal idempotence: a closed task derives closed whatever else its files say, and gets no launch or notice.
    for (const r of records.filter((x) => x.log.some((e) => e.type === 'closed'))) {
      assert.equal(views.get(r.id).state.kind, 'closed', at)
      assert.ok(!p.actions.some((a) => a.task === r.id && a.kind !== 'remove-worktree' && a.kind !== 'signal'), at)
    }
    // I8: once a run is notified, adding the notified event removes exactly that notice.
    for (const a of p.actions.filter((x) => x.kind === 'notify')) {
      const rec = records.find((r) => r.id === a.task)
      const after = deriveTask({ ...rec, log: [...rec.log, { type: 'notified', at: NOW, run: a.run }] }, live.get(rec.id), NOW, cfg)
      assert.equal(after.notice, undefined, at)
      assert.deepEqual(after.state, views.get(rec.id).state, at)
    }
  }
})
