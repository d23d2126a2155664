import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Waker } from '../../dist/src/kitchen/waker.js'

const n = (task, run) => ({ task, run, text: `- ${task} run ${run}` })

// The Waker's windows run on setTimeout and Date.now(): mocked, so each test moves the clock itself and
// no test depends on how fast the machine is.
function setup(t, deliverImpl) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] })
  const clock = (ms) => t.mock.timers.tick(ms)
  const wakes = []
  const notified = []
  const waker = new Waker({
    quietMs: 40,
    capMs: 120,
    compose: (batch) => batch.map((x) => x.text).join('\n'),
    deliver: async (w) => {
      wakes.push(w)
      return deliverImpl ? deliverImpl(w) : true
    },
    delivered: async (runs) => {
      notified.push(...runs.map((r) => `${r.task}#${r.run}`))
    },
  })
  return { waker, wakes, notified, clock }
}

test('notices in a quiet window go out as one wake; notified only after delivery', async (t) => {
  const { waker, wakes, notified, clock } = setup(t)
  waker.offer([n('a-1', 1)])
  clock(10)
  waker.offer([n('a-1', 1), n('b-1', 2)])
  assert.equal(wakes.length, 0)
  clock(80)
  await waker.settled()
  assert.equal(wakes.length, 1)
  assert.equal(wakes[0].text, '- a-1 run 1\n- b-1 run 2')
  assert.deepEqual(notified, ['a-1#1', 'b-1#2'])
})

test('the total wait is capped even when notices keep arriving', async (t) => {
  const { waker, wakes, clock } = setup(t)
  const due = []
  for (let i = 1; i <= 8; i++) {
    due.push(n('t-' + i, 1))
    waker.offer([...due])
    clock(25)
    if (wakes.length) break
  }
  // each offer extends the 40 ms window, yet the 120 ms cap sends the batch before the 8th offer
  assert.equal(wakes.length, 1)
  assert.ok(wakes[0].runs.length < 8)
  waker.dispose()
})

test('a wake held by a busy chef is in flight and not sent twice; a dropped wake is sent again', async (t) => {
  let release
  let calls = 0
  const { waker, wakes, notified, clock } = setup(t, () => {
    calls++
    if (calls === 1) return new Promise((r) => (release = r))
    return true
  })
  waker.offer([n('a-1', 1)])
  clock(60)
  assert.equal(wakes.length, 1)
  waker.offer([n('a-1', 1)]) // the tick derives it again: in flight, not resent
  clock(60)
  assert.equal(wakes.length, 1)
  assert.ok(waker.isInFlight('a-1', 1))
  release(false) // dropped
  await waker.settled()
  assert.deepEqual(notified, [])
  waker.offer([n('a-1', 1)])
  clock(60)
  await waker.settled()
  assert.equal(wakes.length, 2)
  assert.deepEqual(notified, ['a-1#1'])
})

test('a notice that is no longer due leaves the window before it is sent', async (t) => {
  const { waker, wakes, clock } = setup(t)
  waker.offer([n('a-1', 1), n('b-1', 1)])
  waker.offer([n('b-1', 1)])
  clock(60)
  await waker.settled()
  assert.deepEqual(wakes.map((w) => w.runs), [[{ task: 'b-1', run: 1 }]])
})

test('a deliver that throws counts as dropped', async (t) => {
  const { waker, notified, clock } = setup(t, () => {
    throw new Error('chef gone')
  })
  waker.offer([n('a-1', 1)])
  clock(60)
  await waker.settled()
  assert.deepEqual(notified, [])
  assert.equal(waker.isInFlight('a-1', 1), false)
})
