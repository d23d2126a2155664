import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deriveTask, plan } from '../../../dist/src/kitchen/derive/index.js'
import { record, run, config, lines } from './helpers.mjs'

const cfg = config()
const derive = (rec, live, now = 1e13) => deriveTask(rec, live, now, cfg)

test('a new task with no run is queued(new)', () => {
  const v = derive(record())
  assert.deepEqual(v.state, { kind: 'queued', why: 'new' })
  assert.equal(v.nextRun, 1)
})

test('a live cook with an unsettled run is cooking with its activity and the run start as since', () => {
  const v = derive(record({ runs: [run(1, 'crashed.jsonl')] }), { pid: 42, run: 1 })
  assert.deepEqual(v.state, { kind: 'cooking', run: 1, since: 1764495600000, activity: { text: 'bash: go build ./...', since: 1764495601010 } })
  assert.equal(v.model, 'openai/gpt-6-astra')
})

test('a live cook with an empty run file is cooking and starting', () => {
  const v = derive(record({ runs: [run(1, undefined, { mtimeMs: 500 })] }), { pid: 42, run: 1 })
  assert.deepEqual(v.state, { kind: 'cooking', run: 1, since: 500, activity: { text: 'starting', since: 500 } })
})

test('idle with each outcome from the report, and a notice until the run is notified', () => {
  const cases = [
    ['done-reported.jsonl', { kind: 'done', summary: 'token bucket in limit.go, make test passes', reported: true }],
    ['needs-decision.jsonl', { kind: 'needs_decision', question: 'keep the cookie session or move to bearer tokens?' }],
    [lines({ report: { status: 'blocked', summary: 'no access to the staging db' } }), { kind: 'blocked', reason: 'no access to the staging db' }],
    [lines({ report: { status: 'failed', summary: 'the tests cannot pass on this base' } }), { kind: 'failed', reason: 'the tests cannot pass on this base', cause: 'report' }],
  ]
  for (const [src, outcome] of cases) {
    const v = derive(record({ runs: [run(1, src)] }))
    assert.equal(v.state.kind, 'idle')
    assert.equal(v.state.run, 1)
    assert.deepEqual(v.state.outcome, outcome)
    assert.equal(v.notice.run, 1)
    assert.deepEqual(v.notice.outcome, outcome)
    const notified = derive(record({ runs: [run(1, src)], log: [{ type: 'notified', at: 5, run: 1 }] }))
    assert.equal(notified.notice, undefined)
  }
})

test('a run that settled without chef_report is done with reported:false and the final text', () => {
  const v = derive(record({ runs: [run(1, 'settled-no-report.jsonl')] }))
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'The redirect now keeps the return path. I did not run the e2e suite.', reported: false })
  assert.equal(v.state.since, 1764495605010)
})

test('a cook that died before settling is failed(crash) with the err tail', () => {
  const v = derive(record({ runs: [run(1, 'crashed.jsonl', { errTail: 'FATAL: out of memory' })] }))
  assert.equal(v.state.outcome.kind, 'failed')
  assert.equal(v.state.outcome.cause, 'crash')
  assert.equal(v.state.outcome.reason, 'the cook exited before settling: FATAL: out of memory')
})

test('a provider error on the only candidate is failed(provider)', () => {
  const v = derive(record({ runs: [run(1, 'provider-402.jsonl')] }))
  assert.deepEqual(v.state.outcome, { kind: 'failed', reason: '402: Payment Required: this request requires more credits', cause: 'provider' })
  assert.equal(v.model, 'openrouter/z-ai/glm-5.2')
})

test('a closed task is closed, discarded or not', () => {
  const v = derive(record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'closed', at: 77, discarded: true }] }))
  assert.deepEqual(v.state, { kind: 'closed', at: 77, discarded: true })
  assert.equal(v.notice, undefined)
})

test('a prompt with no run file is an interrupted launch of the same run', () => {
  const v = derive(record({ runs: [run(1, 'done-reported.jsonl'), run(2, undefined, { claimed: false })], log: [{ type: 'notified', at: 1, run: 1 }] }))
  assert.deepEqual(v.state, { kind: 'queued', why: 'interrupted-launch' })
  assert.equal(v.nextRun, 2)
})

test('a zero-byte run file with no live process and an empty err file is an interrupted launch, not a failure', () => {
  const v = derive(record({ runs: [run(1, undefined)] }))
  assert.deepEqual(v.state, { kind: 'queued', why: 'interrupted-launch' })
  assert.equal(v.nextRun, 1)
})

test('launch failures: the event, else a zero-byte run file with err output; a run with output ignores the event', () => {
  const byEvent = derive(record({ runs: [run(1, undefined, { errTail: 'dsh: unknown model x/y' })], log: [{ type: 'launch_failed', at: 9, run: 1, reason: 'the cook exited before its first line' }] }))
  assert.deepEqual(byEvent.state, { kind: 'idle', run: 1, since: 9, outcome: { kind: 'failed', cause: 'launch', reason: 'the cook exited before its first line: dsh: unknown model x/y' } })
  assert.equal(byEvent.nextRun, 2, 'the run number is used up')
  assert.equal(byEvent.notice.run, 1)

  const byErr = derive(record({ runs: [run(1, undefined, { errTail: 'Error: spawn dsh ENOENT', mtimeMs: 33 })] }))
  assert.deepEqual(byErr.state.outcome, { kind: 'failed', cause: 'launch', reason: 'Error: spawn dsh ENOENT' })

  // Worktree creation failed before any prompt was written: only the event.
  const early = derive(record({ log: [{ type: 'launch_failed', at: 5, run: 1, reason: 'git worktree add failed: invalid reference' }] }))
  assert.equal(early.state.outcome.cause, 'launch')
  assert.equal(early.nextRun, 2)

  const ignored = derive(record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'launch_failed', at: 5, run: 1, reason: 'x' }] }))
  assert.equal(ignored.state.outcome.kind, 'done')
})

test('after a launch failure only a message newer than the failure resumes the task', () => {
  const log = [{ type: 'launch_failed', at: 100, run: 1, reason: 'spawn failed' }]
  assert.equal(derive(record({ runs: [run(1, undefined, { errTail: 'e' })], log, inbox: [90] })).state.kind, 'idle')
  const resumed = derive(record({ runs: [run(1, undefined, { errTail: 'e' })], log, inbox: [90, 101] }))
  assert.deepEqual(resumed.state, { kind: 'queued', why: 'message' })
  assert.equal(resumed.nextRun, 2)
})

test('stop ends a cooking run as stopped; hold holds a queued task; no notice for either', () => {
  const stopped = derive(record({ runs: [run(1, 'crashed.jsonl')], log: [{ type: 'stop', at: 50, run: 1 }] }))
  assert.deepEqual(stopped.state, { kind: 'idle', run: 1, since: 50, outcome: { kind: 'stopped' } })
  assert.equal(stopped.notice, undefined)
  const held = derive(record({ log: [{ type: 'hold', at: 60, run: 1 }] }))
  assert.deepEqual(held.state, { kind: 'idle', run: undefined, since: 60, outcome: { kind: 'stopped' } })
  // A hold of the next run after a finished one.
  const heldNext = derive(record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'notified', at: 1, run: 1 }, { type: 'hold', at: 70, run: 2 }], inbox: [69] }))
  assert.deepEqual(heldNext.state, { kind: 'idle', run: 1, since: 70, outcome: { kind: 'stopped' } })
})

test('a message older than the stop does not relaunch; one in the same millisecond or newer does', () => {
  const log = [{ type: 'stop', at: 50, run: 1 }]
  assert.equal(derive(record({ runs: [run(1, 'crashed.jsonl')], log, inbox: [49] })).state.outcome.kind, 'stopped')
  const same = derive(record({ runs: [run(1, 'crashed.jsonl')], log, inbox: [49, 50] }))
  assert.deepEqual(same.state, { kind: 'queued', why: 'message' })
  assert.equal(same.nextRun, 2)
  assert.equal(same.pending, 2, 'the relaunch prompt carries every pending message')
  assert.equal(derive(record({ runs: [run(1, 'crashed.jsonl')], log, inbox: [51] })).state.kind, 'queued')
})

test('a stop that names a run that was never claimed reads as a hold (kitchens from before hold)', () => {
  const v = derive(record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'notified', at: 1, run: 1 }, { type: 'stop', at: 80, run: 2 }] }))
  assert.deepEqual(v.state, { kind: 'idle', run: 1, since: 80, outcome: { kind: 'stopped' } })
})

test('a settled cook that is still exiting derives from its files; a message queues the task behind the exit', () => {
  const v = derive(record({ runs: [run(1, 'needs-decision.jsonl')] }), { pid: 9, run: 1 })
  assert.equal(v.state.kind, 'idle')
  assert.equal(v.state.outcome.kind, 'needs_decision')
  const m = derive(record({ runs: [run(1, 'needs-decision.jsonl')], inbox: [2e12] }), { pid: 9, run: 1 })
  assert.deepEqual(m.state, { kind: 'queued', why: 'message' })
  assert.ok(m.live)
})

test('an idle task with a pending message is queued(message)', () => {
  const v = derive(record({ runs: [run(1, 'needs-decision.jsonl')], inbox: [5] }))
  assert.deepEqual(v.state, { kind: 'queued', why: 'message' })
  assert.equal(v.notice, undefined)
})

test('the model of a view: the run file\'s assistant model, else the candidate of the run', () => {
  const fromFile = derive(record({ models: [{ model: 'x/planned' }], runs: [run(1, 'done-reported.jsonl')] }))
  assert.equal(fromFile.model, 'openai/gpt-6-astra')
  const queued = derive(record({ models: [{ model: 'x/planned', thinking: 'high' }] }))
  assert.equal(queued.model, 'x/planned')
  assert.deepEqual(queued.candidate, { model: 'x/planned', thinking: 'high' })
  const noFile = derive(record({ models: [{ model: 'x/planned' }], runs: [run(1, undefined, { errTail: 'boom' })] }))
  assert.equal(noFile.model, 'x/planned')
})

test('with no frozen candidates the launch uses the kitchen default of this moment', () => {
  const v = deriveTask(record(), undefined, 0, config({ models: { default: ['d/one', 'd/two'] } }))
  assert.deepEqual(v.candidate, { model: 'd/one' })
  assert.equal(deriveTask(record(), undefined, 0, cfg).candidate, undefined)
})

test('a run file the kitchen has not read to its end says nothing final: in flight, no notice, no launch', () => {
  const partial = { ...run(1, lines({ settled: false })), partial: true }
  const v = derive(record({ runs: [partial] }))
  assert.equal(v.state.kind, 'cooking')
  assert.equal(v.state.activity.text, 'the kitchen is still reading its run file')
  assert.equal(v.notice, undefined)
  const p = plan([record({ runs: [partial] })], new Map(), 1e13, cfg)
  assert.deepEqual(p.actions, [])
  // read to its end, the same run is a crash as before
  assert.equal(derive(record({ runs: [run(1, lines({ settled: false }))] })).state.outcome.cause, 'crash')
})
