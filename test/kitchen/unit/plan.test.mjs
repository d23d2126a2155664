import { test } from 'node:test'
import assert from 'node:assert/strict'
import { plan } from '../../../dist/src/kitchen/derive/index.js'
import { record, run, config, lines } from './helpers.mjs'

const NOW = 1_800_000_000_000
const cfg = config()
const kinds = (p) => p.actions.map((a) => `${a.kind}:${a.task}${a.run ? `#${a.run}` : ''}${a.signal ? `:${a.signal}` : ''}${a.prompt ? `:${a.prompt}` : ''}`)

test('the cap: live cooks hold slots and queued tasks launch oldest first up to maxCooks', () => {
  const records = [
    record({ id: 'api-1', runs: [run(1, 'crashed.jsonl')] }),
    record({ id: 'api-2', createdAt: 30 }),
    record({ id: 'api-3', createdAt: 10 }),
    record({ id: 'api-4', createdAt: 20 }),
  ]
  const p = plan(records, new Map([['api-1', { pid: 5, run: 1 }]]), NOW, cfg)
  assert.deepEqual(kinds(p), ['launch:api-3#1:brief', 'launch:api-4#1:brief'])
  assert.equal(p.busy, 3)
  assert.equal(p.cap, 3)
  assert.equal(p.views.length, 4)
})

test('interrupted launches go first, then fallbacks, then messages, then new tasks', () => {
  const records = [
    record({ id: 'n-1', createdAt: 1 }),
    record({ id: 'm-1', createdAt: 2, runs: [run(1, 'needs-decision.jsonl')], log: [{ type: 'notified', at: 1, run: 1 }], inbox: [5] }),
    record({ id: 'f-1', createdAt: 3, models: [{ model: 'a/one' }, { model: 'b/two' }], runs: [run(1, lines({ model: 'a/one', providerError: '402: pay' }))] }),
    record({ id: 'i-1', createdAt: 4, runs: [run(1, undefined, { claimed: false })] }),
  ]
  const p = plan(records, new Map(), NOW, config({ maxCooks: 10 }))
  assert.deepEqual(kinds(p), ['launch:i-1#1:existing', 'launch:f-1#2:fallback', 'launch:m-1#2:messages', 'launch:n-1#1:brief'])
})

test('an empty claim is reclaimed only when older than reclaimAfterMs; a fresh one holds a slot and waits', () => {
  const fresh = record({ id: 'api-1', runs: [run(1, undefined, { mtimeMs: NOW - 5_000 })] })
  const p1 = plan([fresh, record({ id: 'api-2' })], new Map(), NOW, config({ maxCooks: 1 }))
  assert.deepEqual(kinds(p1), [])
  assert.equal(p1.busy, 1)
  const old = record({ id: 'api-1', runs: [run(1, undefined, { mtimeMs: NOW - 31_000 })] })
  const p2 = plan([old], new Map(), NOW, cfg)
  assert.deepEqual(kinds(p2), ['reclaim:api-1#1', 'launch:api-1#1:existing'])
})

test('a relaunch after a message sends the brief only while no run delivered it', () => {
  // Run 1 failed to launch before its prompt reached the session: the brief goes again with the message.
  const undelivered = record({ runs: [run(1, undefined, { errTail: 'spawn failed', mtimeMs: 10 })], inbox: [NOW] })
  assert.deepEqual(kinds(plan([undelivered], new Map(), NOW, cfg)), ['launch:api-7#2:brief'])
  const delivered = record({ runs: [run(1, 'needs-decision.jsonl')], log: [{ type: 'notified', at: 1, run: 1 }], inbox: [NOW] })
  assert.deepEqual(kinds(plan([delivered], new Map(), NOW, cfg)), ['launch:api-7#2:messages'])
})

test('stop escalation: a live stopped run gets SIGKILL after the kill grace period, not before', () => {
  const rec = (at) => record({ runs: [run(1, 'crashed.jsonl')], log: [{ type: 'stop', at, run: 1 }] })
  const live = new Map([['api-7', { pid: 77, run: 1 }]])
  assert.deepEqual(kinds(plan([rec(NOW - 1_000)], live, NOW, cfg)), [])
  const p = plan([rec(NOW - 5_000)], live, NOW, cfg)
  assert.deepEqual(p.actions, [{ kind: 'signal', task: 'api-7', pid: 77, run: 1, signal: 'SIGKILL', why: 'stop' }])
})

test('a settled cook that lingers gets SIGTERM after exitGraceMs from its last line, then SIGKILL', () => {
  const rec = (at) => record({ runs: [run(1, lines({ at, report: { status: 'done', summary: 's' } }))], log: [{ type: 'notified', at: 1, run: 1 }] })
  const live = new Map([['api-7', { pid: 8, run: 1 }]])
  assert.deepEqual(kinds(plan([rec(NOW - 5_000)], live, NOW, cfg)), [])
  assert.deepEqual(kinds(plan([rec(NOW - 11_000)], live, NOW, cfg)), ['signal:api-7#1:SIGTERM'])
  assert.deepEqual(kinds(plan([rec(NOW - 16_000)], live, NOW, cfg)), ['signal:api-7#1:SIGKILL'])
})

test('a settled cook still exiting blocks the relaunch of a message until it is gone', () => {
  const rec = record({ runs: [run(1, lines({ at: NOW - 100, report: { status: 'needs_decision', summary: 'q?' } }))], log: [{ type: 'notified', at: 1, run: 1 }], inbox: [NOW] })
  assert.deepEqual(kinds(plan([rec], new Map([['api-7', { pid: 8, run: 1 }]]), NOW, cfg)), [])
  assert.deepEqual(kinds(plan([rec], new Map(), NOW, cfg)), ['launch:api-7#2:messages'])
})

test('a closed task with its worktree still on disk gets the removal finished', () => {
  const closed = (worktreeExists) => record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'closed', at: 5, discarded: false }], worktreeExists })
  assert.deepEqual(kinds(plan([closed(true)], new Map(), NOW, cfg)), ['remove-worktree:api-7'])
  assert.deepEqual(kinds(plan([closed(false)], new Map(), NOW, cfg)), [])
})

test('a final outcome without a notified event is a notify action; a notified run is not', () => {
  const p = plan([record({ runs: [run(1, 'done-reported.jsonl')] })], new Map(), NOW, cfg)
  assert.deepEqual(kinds(p), ['notify:api-7#1'])
  assert.equal(p.actions[0].notice.outcome.kind, 'done')
  const again = plan([record({ runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'notified', at: 2, run: 1 }] })], new Map(), NOW, cfg)
  assert.deepEqual(kinds(again), [])
})

test('the plan is pure: the same input gives the same actions', () => {
  const records = [record({ id: 'a-1' }), record({ id: 'b-1', runs: [run(1, 'provider-402.jsonl')] })]
  assert.deepEqual(plan(records, new Map(), NOW, cfg), plan(records, new Map(), NOW, cfg))
})
