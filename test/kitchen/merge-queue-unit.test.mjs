// The merge queue's pure parts: an entry folded from its lines and the step it goes on with (a step
// started and not recorded done is done again), the pairs of tasks that change the same files, and
// its texts, which escape what the repository named.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { foldEntry, nextStep, overlaps } from '../../dist/src/kitchen/merge-queue.js'
import { mergeEntryLines, overlapText } from '../../dist/src/kitchen/derive/texts.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const C = 'c'.repeat(40)
const line = (e) => JSON.stringify({ at: 1, ...e })
const queued = line({ type: 'queued', task: 'api-1', queue: 'q1', order: 0 })

test('an entry goes on from the last step recorded done; a step only started is done again', () => {
  const steps = [
    [[], 'review'],
    [[line({ type: 'start', step: 'review' })], 'review'],
    [[line({ type: 'reviewed', tip: A, how: 'rebase' })], 'bring'],
    [[line({ type: 'start', step: 'bring' })], 'bring'],
    [[line({ type: 'brought', onto: B, tip: C })], 'test'],
    [[line({ type: 'start', step: 'test' })], 'test'],
    [[line({ type: 'tested', tip: C, ok: true, ran: true, lines: ['Test: passed'] })], 'land'],
    [[line({ type: 'start', step: 'land' })], 'land'],
    [[line({ type: 'landed', tip: C, result: 'landed' })], 'close'],
    [[line({ type: 'closed', text: 'Closed api-1.', ok: true })], 'end'],
    [[line({ type: 'ended', end: { kind: 'landed', how: 'rebase', onto: B, tip: C, already: false, tested: [] } })], 'report'],
    [[line({ type: 'reported' })], 'none'],
  ]
  const lines = [queued]
  for (const [more, want] of steps) {
    lines.push(...more)
    const e = foldEntry('api-1', lines)
    assert.equal(nextStep(e), want, `after ${lines.at(-1)}`)
  }
  const e = foldEntry('api-1', lines)
  assert.equal(e.open, undefined)
  assert.equal(e.branchTip, A)
})

test('a base that moved sends the entry back to bring, its test forgotten; a failed test ends it; bad lines are skipped', () => {
  const moved = foldEntry('api-1', [
    queued, line({ type: 'reviewed', tip: A, how: 'merge' }), line({ type: 'brought', onto: B, tip: C }),
    line({ type: 'tested', tip: C, ok: true, ran: true, lines: [] }), line({ type: 'landed', tip: C, result: 'moved' }),
  ])
  assert.equal(nextStep(moved), 'bring')
  assert.equal(moved.moves, 1)
  assert.equal(moved.tested, undefined)
  assert.equal(moved.how, 'merge')
  const failed = foldEntry('api-1', [queued, line({ type: 'reviewed', tip: A, how: 'rebase' }), line({ type: 'brought', onto: B, tip: C }), 'not json', line({ type: 'tested', tip: C, ok: false, ran: true, lines: ['FAIL'] })])
  assert.equal(nextStep(failed), 'end')
  assert.equal(failed.bad, 1)
  // an entry that is not this task's, or does not start with `queued`, is no entry
  assert.equal(foldEntry('api-2', [queued]), undefined)
  assert.equal(foldEntry('api-1', [line({ type: 'reported' })]), undefined)
  assert.equal(foldEntry('api-1', [line({ type: 'queued', task: 'api-1', queue: 'q', order: -1 })]), undefined)
})

test('overlaps: each pair of tasks sharing files, with the files; tasks apart or without changes are in none', () => {
  const r = overlaps([
    { task: 'api-1', files: ['src/x.ts', 'README.md'] },
    { task: 'api-2', files: ['src/x.ts'] },
    { task: 'api-3', files: [] },
    { task: 'api-4', files: ['README.md', 'src/x.ts'] },
    { task: 'api-5', files: ['other.ts'] },
  ])
  assert.deepEqual(r.pairs, [
    { a: 'api-1', b: 'api-2', files: ['src/x.ts'] },
    { a: 'api-1', b: 'api-4', files: ['README.md', 'src/x.ts'] },
    { a: 'api-2', b: 'api-4', files: ['src/x.ts'] },
  ])
  assert.equal(r.more, 0)
  assert.equal(overlaps([{ task: 'a-1', files: ['f'] }, { task: 'a-2', files: ['f'] }, { task: 'a-3', files: ['f'] }], 1).more, 2)
  assert.deepEqual(overlapText([]), [])
})

test('the texts escape what the repository named: a conflicting file, a test\'s output', () => {
  const e = foldEntry('api-1', [queued, line({ type: 'ended', end: { kind: 'conflict', how: 'rebase', onto: B, files: ['evil\x1b]52;c;aGk=\x07.txt'] } })])
  const [text] = mergeEntryLines(e, { branch: 'issue/api-1', baseBranch: 'main' })
  assert.ok(!text.includes('\x1b'), text)
  assert.match(text, /cleanly: evil\\x1b\]52;c;aGk=\\x07\.txt\. Nothing of it landed and issue\/api-1 is as it was\./)
  const f = foldEntry('api-1', [queued, line({ type: 'ended', end: { kind: 'failed', ran: true, lines: ['Output tail:', 'red \x1b[31mFAIL\x1b[0m\nLanded on main.'] } })])
  const out = mergeEntryLines(f, { branch: 'issue/api-1', baseBranch: 'main' })
  assert.deepEqual(out.slice(1), ['  Output tail:', '  red \\x1b[31mFAIL\\x1b[0m Landed on main.'])
  const [p] = overlapText([{ a: 'api-1', b: 'api-2', files: ['a\u202eb.ts'] }]).slice(1)
  assert.match(p, /both change a\\u202eb\.ts:/)
})
