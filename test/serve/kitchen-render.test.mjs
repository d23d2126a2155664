// The board's pure parts, one by one: git's unified diff parsed and rendered (renames, binaries, modes,
// quoted names, a missing final newline, the cut), every control and bidi character marked, run-file
// lines as entries, a run file's tail read from near its end, the event ring's replay and reset, the
// six states, the query checks, and `--kitchen [DIR]` on the command line.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { tempDir } from '../support/temp.mjs'
import { diffHtml, parseDiff } from '../../dist/src/serve/kitchen/diff-html.js'
import { markedHtml } from '../../dist/src/serve/kitchen/text.js'
import { entriesOf, runEntry, RunTail, TAIL_BYTES } from '../../dist/src/serve/kitchen/run-lines.js'
import { EventHub, RING_SIZE } from '../../dist/src/serve/kitchen/events.js'
import { boardState, stateDetail, taskRow } from '../../dist/src/serve/kitchen/rows.js'
import { aheadText, rowHtml } from '../../dist/src/serve/kitchen/pages.js'
import { eventsQuery, listQuery, taskIdOf } from '../../dist/src/serve/kitchen/api.js'
import { takeKitchen } from '../../dist/src/cli/serve.js'

const DIFF = `diff --git a/src/old name.ts b/src/new name.ts
similarity 100%
rename from src/old name.ts
rename to src/new name.ts
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..1111111
Binary files /dev/null and b/logo.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git "a/caf\\303\\251 \\"q\\".txt" "b/caf\\303\\251 \\"q\\".txt"
index 2222222..3333333 100644
--- "a/caf\\303\\251 \\"q\\".txt"
+++ "b/caf\\303\\251 \\"q\\".txt"
@@ -10,3 +10,3 @@ function name
 keep
-if (isAdmin) { // \u202e } \u2066if (isAdmin)\u2069 {
+<script>alert(1)</script>
 end
\\ No newline at end of file
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
`

test('git\'s diff parsed: renames, binaries, mode changes, quoted names, line numbers, a missing final newline', () => {
  const d = parseDiff(DIFF)
  assert.equal(d.cut, false)
  assert.deepEqual(d.files.map((f) => [f.status, f.from, f.to, f.added, f.removed]), [
    ['renamed', 'src/old name.ts', 'src/new name.ts', 0, 0],
    ['added', '/dev/null', 'logo.png', 0, 0],
    ['mode', 'run.sh', 'run.sh', 0, 0],
    ['modified', 'café "q".txt', 'café "q".txt', 1, 1],
    ['deleted', 'gone.txt', '/dev/null', 0, 1],
  ])
  const lines = d.files[3].hunks[0].lines
  const numbered = [['ctx', 10, 10], ['del', 11, undefined], ['add', undefined, 11], ['ctx', 12, 12], ['note', undefined, undefined]]
  assert.deepEqual(lines.map((l) => [l.kind, l.old, l.new]), numbered)
  assert.equal(lines[4].text, 'No newline at end of file')
  const cut = parseDiff(DIFF, 3)
  assert.equal(cut.cut, true)
  assert.equal(cut.lines, 3)
})

test('the rendered diff: markup is text, every bidi and control character marked, numbers drawn by CSS', () => {
  const html = diffHtml(parseDiff(DIFF), 'more elsewhere')
  assert.ok(html.includes('<td class="code">&lt;script&gt;alert(1)&lt;/script&gt;</td>'))
  assert.ok(!html.includes('<script>') && !/[\u202e\u2066\u2069]/.test(html))
  assert.equal((html.match(/<span class="ctl"/g) ?? []).length, 3, 'U+202E, U+2066 and U+2069 each marked')
  assert.ok(html.includes('<tr class="del"><td class="ln" data-n="11"></td><td class="ln"></td>'))
  assert.ok(html.includes('<code>src/old name.ts → src/new name.ts</code>'))
  assert.ok(html.includes('<code>café &quot;q&quot;.txt</code>'))
  assert.match(html, /^<p class="diff-summary">5 files changed, <span class="plus">\+1<\/span> <span class="minus">−2<\/span><\/p>/)
  assert.match(diffHtml(parseDiff(DIFF, 3), 'Read the rest at X.'), /The diff is cut after 3 lines\. Read the rest at X\./)
  assert.equal(diffHtml(parseDiff(''), ''), '<p class="empty">No changes against the base.</p>')
  const ctl = (code, shown) => `<span class="ctl" title="a control character (U+${code}) shown escaped">${shown}</span>`
  assert.equal(markedHtml('a\x1b[2Jb\x07 <b> \t'), `a${ctl('001B', '\\x1b')}[2Jb${ctl('0007', '\\x07')} &lt;b&gt; \t`)
})

test('run-file lines as entries: what each says, the report tool\'s call left out, a cut line named', () => {
  const model = { provider: 'p', model: 'm' }
  const start = runEntry({ type: 'run_start', at: 1, v: 1, sessionId: 's', resumed: true, model })
  assert.deepEqual(start, { at: 1, kind: 'start', text: 'session s (resumed) on p/m' })
  assert.equal(runEntry({ type: 'prompted', at: 1, source: 'steer', text: ' go left \n' }).text, 'message: go left')
  assert.equal(runEntry({ type: 'prompted', at: 1, source: 'prompt', text: 'x'.repeat(500) }).text.length, 'prompt: '.length + 160)
  assert.equal(runEntry({ type: 'assistant', at: 1, model, stopReason: 'tool_use', text: '  ' }), undefined)
  assert.equal(runEntry({ type: 'assistant', at: 1, model, stopReason: 'error', text: '', error: '402\nPayment' }).text, 'provider error on p/m: 402 Payment')
  assert.equal(runEntry({ type: 'tool_start', at: 1, callId: 'c', tool: 'chef_report', activity: 'done' }), undefined)
  assert.equal(runEntry({ type: 'tool_end', at: 1, callId: 'c', tool: 'bash', isError: true, tail: 'a\nb\nc\nd\n' }).text, 'bash failed:\nb\nc\nd')
  const report = { status: 'blocked', summary: 'no key' }
  assert.equal(runEntry({ type: 'tool_end', at: 1, callId: 'c', tool: 'chef_report', isError: false, report }).text, 'report blocked: no key')
  assert.equal(runEntry({ type: 'settled', at: 1 }).text, 'run ended (settled)')
  const cut = { at: null, kind: 'cut', text: 'a line of 2000000 bytes was cut: {"type":"assistant"…' }
  assert.deepEqual(entriesOf(['not json', { cut: 2_000_000, head: '{"type":"assistant"' }]), [cut])
  assert.equal(runEntry({ type: 'assistant', at: 1, model, stopReason: 'stop', text: 'y'.repeat(10_000) }).text.length, 4000)
})

test('a run file\'s tail: a large one is read from near its end, then only what is appended; a FIFO is a problem, not a wait', (t) => {
  const dir = tempDir(t, 'kitchen-tail-')
  const file = join(dir, '1.jsonl')
  const line = (i) => JSON.stringify({ type: 'tool_start', at: i, callId: `c${i}`, tool: 'bash', activity: `step ${i}` }) + '\n'
  let text = ''
  for (let i = 0; text.length < TAIL_BYTES * 3; i++) text += line(i)
  writeFileSync(file, text)
  const tail = new RunTail(file, 1, 5)
  const first = tail.read()
  const last = Number(/step (\d+)/.exec(first.entries.at(-1).text)[1])
  assert.ok(first.entries.length < text.split('\n').length / 2, `only the end was read (${first.entries.length} entries)`)
  assert.ok(first.entries.every((e) => /^bash: step \d+$/.test(e.text)), 'no half line at the start')
  assert.deepEqual(tail.recent.map((e) => e.text), [4, 3, 2, 1, 0].map((k) => `bash: step ${last - k}`))
  appendFileSync(file, line(last + 1))
  assert.deepEqual(tail.read().entries.map((e) => e.text), [`bash: step ${last + 1}`])
  assert.deepEqual(tail.read().entries, [])
  const fifo = join(dir, '2.jsonl')
  execFileSync('mkfifo', [fifo])
  const stuck = new RunTail(fifo, 2, 5)
  assert.match(stuck.read().entries[0].text, /runs\/2\.jsonl can't be read: .*not a regular file/)
  assert.ok(stuck.problem)
})

/** A response-like sink for the hub: what it was sent, and its close. */
function sink() {
  const res = new PassThrough()
  const req = new PassThrough()
  let text = ''
  res.on('data', (c) => (text += c))
  res.writeHead = () => res
  return { req, res, text: () => text }
}

test('the event ring: a cursor gets what it missed, a task\'s stream only its events, an unknown or lost cursor a reset', () => {
  const hub = new EventHub(4)
  hub.publish('task', 'a-1', { id: 'a-1' })
  const cursor = hub.cursor
  hub.publish('task', 'a-2', { id: 'a-2' })
  hub.publish('lines', 'a-1', { id: 'a-1', n: 2 })
  const all = sink()
  assert.equal(hub.open(all.req, all.res, undefined, cursor), true)
  assert.deepEqual([...all.text().matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).id), ['a-2', 'a-1'])
  const one = sink()
  hub.open(one.req, one.res, 'a-1', cursor)
  hub.publish('task', 'a-2', { id: 'a-2', later: true })
  hub.publish('kitchen', undefined, { present: false })
  assert.deepEqual([...one.text().matchAll(/^event: (.*)$/gm)].map((m) => m[1]), ['lines', 'kitchen'])
  const foreign = sink()
  hub.open(foreign.req, foreign.res, undefined, '00000000-1')
  assert.match(foreign.text(), /event: reset/)
  assert.equal(hub.size, 3)
  const full = sink()
  hub.open(full.req, full.res, undefined, undefined)
  assert.equal(hub.open(sink().req, sink().res, undefined, undefined), false, 'the fifth stream is refused')
  all.req.emit('close')
  assert.equal(hub.size, 3, 'a client that went away is removed')
  const old = hub.cursor
  for (let i = 0; i < RING_SIZE + 1; i++) hub.publish('lines', 'a-1', { i })
  const late = sink()
  hub.open(late.req, late.res, undefined, old)
  assert.match(late.text(), /event: reset/, 'more was missed than the ring keeps')
  hub.close()
  assert.equal(hub.size, 0)
})

test('the six states from the kitchen\'s own, and their details', () => {
  const view = (state) => ({ id: 't-1', spec: {}, state, nextRun: 1, pending: 0, tried: [] })
  const idle = (outcome) => view({ kind: 'idle', run: 1, since: 1, outcome })
  assert.equal(boardState(view({ kind: 'queued', why: 'new' })), 'waiting')
  assert.equal(boardState(view({ kind: 'cooking', run: 1, since: 1, activity: { text: 'bash: npm test', since: 1 } })), 'cooking')
  assert.equal(boardState(idle({ kind: 'done', summary: 's', reported: true })), 'done')
  assert.equal(boardState(idle({ kind: 'needs_decision', question: 'q?' })), 'needs_decision')
  assert.equal(boardState(idle({ kind: 'blocked', reason: 'r' })), 'needs_decision')
  assert.equal(boardState(idle({ kind: 'failed', reason: 'r', cause: 'crash' })), 'failed')
  assert.equal(boardState(idle({ kind: 'stopped' })), 'waiting')
  assert.equal(boardState(view({ kind: 'closed', at: 1, discarded: true })), 'closed')
  assert.equal(stateDetail(idle({ kind: 'failed', reason: 'exit 1', cause: 'provider' })), 'failed (provider): exit 1')
  assert.equal(stateDetail(idle({ kind: 'done', summary: 'last words', reported: false })), 'ended without a report: last words')
  assert.equal(stateDetail(view({ kind: 'closed', at: 1, discarded: true })), 'closed, its work discarded')
})

test('a row: the cook\'s model and its fallbacks, the branch facts or why git could not give them', () => {
  const spec = {
    id: 'api-3', project: 'api', title: 't', brief: 'b', branch: 'issue/api-3', worktree: '/k/worktrees/api-3', baseBranch: 'main', sessionId: 's',
    models: [{ model: 'p/a' }, { model: 'p/b' }],
  }
  const fold = (model, extra) => ({ lines: 3, bad: 0, prompted: true, lastText: '', model: { provider: 'p', model }, settledAt: 5, ...extra })
  const runs = [
    { n: 1, hasPrompt: true, claimed: true, size: 9, mtimeMs: 1, errSize: 0, errTail: '', fold: fold('a', { providerError: '402 Payment Required' }) },
    { n: 2, hasPrompt: true, claimed: true, size: 9, mtimeMs: 2, errSize: 0, errTail: '', fold: fold('b', {}) },
  ]
  const rec = { id: 'api-3', spec, log: [], runs, inbox: [], worktreeExists: true, badLines: 0 }
  const state = { kind: 'idle', run: 2, since: 5, outcome: { kind: 'done', summary: 'ok', reported: true } }
  const view = { id: 'api-3', spec, state, model: 'p/b', nextRun: 3, pending: 0, tried: [] }
  const row = taskRow(rec, view, [], { problem: 'the base branch main is not in /r' })
  assert.deepEqual([row.model, row.models, row.run, row.ahead], ['p/b', ['p/a', 'p/b'], 2, null])
  assert.deepEqual(row.fallbacks, [{ run: 1, model: 'p/a', error: '402 Payment Required' }])
  assert.equal(aheadText(row), 'the base branch main is not in /r')
  assert.equal(aheadText(taskRow(rec, view, [], { tip: 'a'.repeat(40), source: 'project', baseTip: 'b'.repeat(40), ahead: 2 })), '2 commits ahead of main')
  assert.match(rowHtml(row), /after <code class="name" title="402 Payment Required"><span class="w">p\/<\/span><wbr><span class="w">a<\/span><\/code> failed/)
})

test('what a request may ask: task ids, pages, states and cursors are checked before anything is read', () => {
  assert.equal(taskIdOf('api-7'), 'api-7')
  for (const bad of ['..', 'api-0', 'api', '-1', 'a%2Fb-1', 'api-7%00']) assert.equal(taskIdOf(bad).body.error.code, 'INVALID_TASK_ID', bad)
  assert.equal(taskIdOf('%zz').body.error.code, 'INVALID_PATH')
  assert.deepEqual(listQuery(new URLSearchParams('page=2&per=200&state=failed')), { page: 2, per: 200, state: 'failed' })
  assert.deepEqual(listQuery(new URLSearchParams('')), { page: 1, per: 50 })
  for (const q of ['per=201', 'page=1e3', 'page=-1', 'state=DONE', 'q=x']) assert.equal(listQuery(new URLSearchParams(q)).status, 400, q)
  assert.deepEqual(eventsQuery(new URLSearchParams('task=api-7&since=0a1b2c3d-12'), undefined), { task: 'api-7', since: '0a1b2c3d-12' })
  assert.deepEqual(eventsQuery(new URLSearchParams('since=0a1b2c3d-12'), 'ffffffff-3'), { since: 'ffffffff-3' }, 'Last-Event-ID wins')
  assert.equal(eventsQuery(new URLSearchParams(''), 'x\ny').status, 400)
})

test('--kitchen [DIR]: its DIR is optional, the next option is not taken for it', () => {
  assert.deepEqual(takeKitchen(['--kitchen']), { rest: [], kitchen: true })
  assert.deepEqual(takeKitchen(['--kitchen', '--port', '0']), { rest: ['--port', '0'], kitchen: true })
  assert.deepEqual(takeKitchen(['--port', '0', '--kitchen', 'k']), { rest: ['--port', '0'], kitchen: 'k' })
  assert.deepEqual(takeKitchen(['--kitchen=k', '-r', '.']), { rest: ['-r', '.'], kitchen: 'k' })
  assert.deepEqual(takeKitchen(['--root', '.']), { rest: ['--root', '.'] })
})
