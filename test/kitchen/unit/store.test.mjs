import { test } from 'node:test'
import assert from 'node:assert/strict'
import { appendFileSync, closeSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, writeSync, existsSync, copyFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../../dist/src/kitchen/store/index.js'
import { LineReader } from '../../../dist/src/kitchen/store/index.js'
import { KitchenError } from '../../../dist/src/kitchen/domain.js'

const fixtures = new URL('../../fixtures/kitchen/runs/', import.meta.url).pathname

function kitchen(t) {
  const dir = mkdtempSync(join(tmpdir(), 'kitchen-store-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return { dir, store: Store.open(join(dir, 'k')) }
}

function spec(store, id) {
  return { id, project: id.replace(/-\d+$/, ''), title: `Task ${id}`, brief: 'Do the thing.', branch: `issue/${id}`,
    worktree: store.worktree(id), baseBranch: 'main', sessionId: `session-${id}`, models: [{ model: 'openai/gpt-6' }], createdAt: 1000 }
}

test('createTask allocates <project>-<n> with mkdir as the exclusive step, and lays out the task directory', (t) => {
  const { store } = kitchen(t)
  const a = store.createTask('api', (id) => spec(store, id))
  assert.equal(a.id, 'api-1')
  // Another owner took api-2's directory first: the next allocation skips it.
  mkdirSync(store.taskDir('api-2'))
  const b = store.createTask('api', (id) => spec(store, id))
  assert.equal(b.id, 'api-3')
  assert.equal(store.createTask('web', (id) => spec(store, id)).id, 'web-1')
  assert.deepEqual(readdirSync(store.taskDir('api-1')).sort(), ['inbox', 'runs', 'session', 'task.json'])
  assert.ok(existsSync(join(store.inboxDir('api-1'), 'handled')))
  assert.deepEqual(JSON.parse(readFileSync(store.taskFile('api-1'), 'utf8')).id, 'api-1')
  // No temp file is left behind.
  assert.deepEqual(readdirSync(store.taskDir('api-3')).filter((n) => n.endsWith('.tmp')), [])
})

test('two stores on one kitchen never allocate the same id', (t) => {
  const { dir, store } = kitchen(t)
  const other = Store.open(join(dir, 'k'))
  const ids = new Set()
  for (let i = 0; i < 20; i++) {
    ids.add(store.createTask('api', (id) => spec(store, id)).id)
    ids.add(other.createTask('api', (id) => spec(other, id)).id)
  }
  assert.equal(ids.size, 40)
})

test('the run-file claim is O_EXCL: a second claim of the same run fails with KITCHEN_CLAIM_TAKEN', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  const fd = store.claimRun(id, 1)
  closeSync(fd)
  assert.throws(() => store.claimRun(id, 1), (e) => e instanceof KitchenError && e.code === 'KITCHEN_CLAIM_TAKEN')
  assert.equal(store.runFileSize(id, 1), 0)
  // An empty claim can be reclaimed; a claim with output cannot.
  assert.equal(store.reclaimRun(id, 1), true)
  assert.equal(store.runFileSize(id, 1), undefined)
  const fd2 = store.claimRun(id, 1)
  writeSync(fd2, '{"type":"settled","at":1}\n')
  closeSync(fd2)
  assert.equal(store.reclaimRun(id, 1), false)
})

test('inbox messages arrive by tmp plus rename, are listed oldest first, and move to handled once', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  const n2 = store.writeMessage(id, 'second', 2000)
  const n1 = store.writeMessage(id, 'first – ünïcode', 1000)
  assert.deepEqual(store.readInbox(id).map((m) => [m.at, m.text]), [[1000, 'first – ünïcode'], [2000, 'second']])
  assert.equal(store.handleMessage(id, n1), true)
  assert.equal(store.handleMessage(id, n1), false)
  assert.deepEqual(store.readInbox(id).map((m) => m.name), [n2])
  assert.deepEqual(readdirSync(join(store.inboxDir(id), 'handled')), [n1])
})

test('the LF reader returns only complete lines and survives a UTF-8 character split across two appends', (t) => {
  const { dir } = kitchen(t)
  const path = join(dir, 'run.jsonl')
  writeFileSync(path, '')
  const reader = new LineReader()
  const line = Buffer.from(JSON.stringify({ text: 'café ☕ 日本' }) + '\n')
  const cut = line.indexOf(Buffer.from('☕')) + 1 // inside the 3-byte character
  appendFileSync(path, line.subarray(0, cut))
  assert.deepEqual(reader.read(path).lines, [])
  appendFileSync(path, line.subarray(cut))
  assert.deepEqual(reader.read(path).lines.map((l) => JSON.parse(l).text), ['café ☕ 日本'])
  // CR and U+2028 are not line ends; only LF is.
  appendFileSync(path, '{"a":"x\ry\u2028z"}\r\n{"b":1}')
  const got = reader.read(path).lines
  assert.deepEqual(got, ['{"a":"x\ry\u2028z"}\r'])
  appendFileSync(path, '\n')
  assert.deepEqual(reader.read(path).lines, ['{"b":1}'])
  assert.deepEqual(reader.read(path).lines, [])
  // A replaced file starts over and says so.
  rmSync(path)
  writeFileSync(path, '{"c":1}\n')
  const again = reader.read(path)
  assert.equal(again.reset, true)
  assert.deepEqual(again.lines, ['{"c":1}'])
})

test('taskOfRunFile accepts only run files under this kitchen\'s real tasks directory', (t) => {
  const { dir, store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  closeSync(store.claimRun(id, 3))
  store.writePrompt(id, 3, 'prompt')
  closeSync(store.openErr(id, 3))
  assert.deepEqual(store.taskOfRunFile(store.runFile(id, 3)), { task: 'api-1', run: 3 })
  // Through a symlinked kitchen root, both ways.
  symlinkSync(join(dir, 'k'), join(dir, 'link'))
  const viaLink = Store.open(join(dir, 'link'))
  assert.deepEqual(viaLink.taskOfRunFile(store.runFile(id, 3)), { task: 'api-1', run: 3 })
  assert.deepEqual(store.taskOfRunFile(viaLink.runFile(id, 3)), { task: 'api-1', run: 3 })
  // Refusals.
  const refused = [
    `tasks/${id}/runs/3.jsonl`, // relative
    `${store.taskDir(id)}/runs/../runs/3.jsonl`, // ..
    store.promptFile(id, 3),
    store.errFile(id, 3),
    store.taskFile(id),
    store.runFile(id, 4), // does not exist
    join(store.root, 'config.json'),
  ]
  for (const p of refused) assert.equal(store.taskOfRunFile(p), undefined, p)
  // Another kitchen's run file.
  const other = Store.open(join(dir, 'other'))
  const o = other.createTask('api', (id) => spec(other, id))
  closeSync(other.claimRun(o.id, 1))
  assert.equal(store.taskOfRunFile(other.runFile(o.id, 1)), undefined)
  // A task directory that is a symlink to another kitchen's task.
  symlinkSync(other.taskDir(o.id), store.taskDir('api-9'))
  assert.equal(store.taskOfRunFile(join(store.taskDir('api-9'), 'runs', '1.jsonl')), undefined)
  // A directory that is not a task id.
  mkdirSync(join(store.root, 'tasks', 'notatask', 'runs'), { recursive: true })
  writeFileSync(join(store.root, 'tasks', 'notatask', 'runs', '1.jsonl'), '')
  assert.equal(store.taskOfRunFile(join(store.root, 'tasks', 'notatask', 'runs', '1.jsonl')), undefined)
  // A run file nested deeper.
  mkdirSync(join(store.taskDir(id), 'runs', 'x'))
  writeFileSync(join(store.taskDir(id), 'runs', 'x', '1.jsonl'), '')
  assert.equal(store.taskOfRunFile(join(store.taskDir(id), 'runs', 'x', '1.jsonl')), undefined)
})

test('the snapshot reads each file in isolation: broken task, bad config, bad project, bad lines', (t) => {
  const { store } = kitchen(t)
  store.addProject({ name: 'api', path: '/src/api', baseBranch: 'main' })
  writeFileSync(join(store.root, 'projects', 'web.json'), '{"name": "web", "path": 3}')
  writeFileSync(join(store.root, 'projects', 'docs.json'), '{not json')
  writeFileSync(store.configFile, '{"maxCooks": 0}')
  const good = store.createTask('api', (id) => spec(store, id))
  const bad = store.createTask('api', (id) => spec(store, id))
  writeFileSync(store.taskFile(bad.id), '{"id": "api-2", "project": "api"}')
  store.appendLog(good.id, { type: 'notified', at: 5, run: 1 })
  appendFileSync(store.logFile(good.id), 'garbage\n{"type":"stop"}\n')
  copyFileSync(join(fixtures, 'steered-with-bad-lines.jsonl'), store.runFile(good.id, 1))

  const snap = store.snapshot()
  assert.equal(snap.config.maxCooks, 3)
  assert.match(snap.errors.join('\n'), /config\.json: maxCooks must be a whole number >= 1/)
  assert.match(snap.errors.join('\n'), /projects\/web\.json is skipped: \$\.path must be a non-empty string, not number 3/)
  assert.match(snap.errors.join('\n'), /projects\/docs\.json is skipped: docs\.json is not valid JSON/)
  assert.deepEqual(snap.projects.map((p) => [p.name, p.branchPrefix]), [['api', 'issue/']])
  assert.deepEqual(snap.broken.map((b) => b.id), ['api-2'])
  assert.match(snap.broken[0].reason, /task\.json: \$\.title must be a string/)
  assert.deepEqual(snap.tasks.map((r) => r.id), ['api-1'])
  const rec = snap.tasks[0]
  assert.deepEqual(rec.log, [{ type: 'notified', at: 5, run: 1 }])
  assert.equal(rec.runs[0].fold.lines, 4)
  assert.equal(rec.runs[0].fold.bad, 3)
  assert.equal(rec.badLines, 5)
  assert.equal(snap.badLines, 5)
})

test('a config.json that is not JSON gives the defaults and one error line', (t) => {
  const { store } = kitchen(t)
  writeFileSync(store.configFile, '{"maxCooks": 4,')
  const snap = store.snapshot()
  assert.equal(snap.config.maxCooks, 3)
  assert.equal(snap.errors.length, 1)
  assert.match(snap.errors[0], /config\.json is not valid JSON/)
})

test('the snapshot is incremental: an unchanged task is the same record, a grown run file folds only new lines', async (t) => {
  const { store } = kitchen(t)
  const a = store.createTask('api', (id) => spec(store, id))
  const b = store.createTask('api', (id) => spec(store, id))
  const lines = readFileSync(join(fixtures, 'done-reported.jsonl'), 'utf8').split('\n').filter(Boolean)
  store.writePrompt(a.id, 1, 'brief')
  const fd = store.claimRun(a.id, 1)
  writeSync(fd, lines.slice(0, 4).join('\n') + '\n')
  const s1 = store.snapshot()
  const r1 = s1.tasks.find((r) => r.id === a.id)
  assert.equal(r1.runs[0].fold.activity.text, 'read: src/routes/login.go')
  assert.equal(r1.runs[0].fold.settledAt, undefined)
  writeSync(fd, lines.slice(4).join('\n') + '\n')
  closeSync(fd)
  const s2 = store.snapshot()
  const r2 = s2.tasks.find((r) => r.id === a.id)
  assert.notEqual(r2, r1)
  assert.deepEqual(r2.runs[0].fold.report, { status: 'done', summary: 'token bucket in limit.go, make test passes' })
  assert.equal(r2.runs[0].fold.lines, lines.length)
  // Task b did not change between the two snapshots (its directories may still be inside the
  // mtime-granularity window, which only costs a re-read): its record is equal.
  assert.deepEqual(s2.tasks.find((r) => r.id === b.id), s1.tasks.find((r) => r.id === b.id))
  // A third snapshot with nothing new returns the very same objects once the directories are old.
  const s3 = store.snapshot()
  assert.equal(s3.tasks.find((r) => r.id === a.id).runs[0].fold, r2.runs[0].fold)
})

test('the snapshot sees new messages, prompts, claims, err output and a closed task', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  store.writePrompt(id, 1, 'brief')
  let rec = store.snapshot().tasks[0]
  assert.deepEqual(rec.runs.map((r) => [r.n, r.hasPrompt, r.claimed]), [[1, true, false]])
  closeSync(store.claimRun(id, 1))
  const efd = store.openErr(id, 1)
  writeSync(efd, 'Error: cannot find module dsh\n')
  closeSync(efd)
  store.writeMessage(id, 'hello', 1234)
  rec = store.snapshot().tasks[0]
  assert.deepEqual(rec.runs.map((r) => [r.n, r.hasPrompt, r.claimed, r.size]), [[1, true, true, 0]])
  assert.equal(rec.runs[0].errTail, 'Error: cannot find module dsh')
  assert.deepEqual(rec.inbox.map((m) => m.at), [1234])
  mkdirSync(store.worktree(id))
  store.appendLog(id, { type: 'closed', at: 9, discarded: false })
  rec = store.snapshot().tasks[0]
  assert.equal(rec.worktreeExists, true)
  rmSync(store.worktree(id), { recursive: true })
  rec = store.snapshot().tasks[0]
  assert.equal(rec.worktreeExists, false)
})

test('projects are created once; a second add of the same name is refused', (t) => {
  const { store } = kitchen(t)
  store.addProject({ name: 'api', path: '/src/api', baseBranch: 'main', branchPrefix: 'feat/' })
  assert.throws(() => store.addProject({ name: 'api', path: '/x', baseBranch: 'main' }), (e) => e.code === 'KITCHEN_PROJECT_EXISTS')
  assert.throws(() => store.addProject({ name: '../x', path: '/x', baseBranch: 'main' }), (e) => e.code === 'KITCHEN_BAD_INPUT')
  assert.equal(store.readProject('api').branchPrefix, 'feat/')
  assert.equal(store.readProject('nope'), undefined)
})

test('the lease: each generation is created exclusively, the highest is the lease, a broken one is reported', async (t) => {
  const { store } = kitchen(t)
  assert.deepEqual(store.readLease(), { kind: 'none', gen: 0 })
  const lease = { pid: 123, pidStart: '4567', sessionId: 's1', since: 1 }
  assert.equal(store.createLease(lease, 1), true)
  assert.equal(store.createLease({ ...lease, pid: 124 }, 1), false, 'generation 1 is taken')
  assert.deepEqual(store.readLease(), { kind: 'lease', lease, gen: 1 })
  assert.equal(store.createLease({ ...lease, pid: 999 }), true, 'the next generation')
  assert.equal(store.readLease().lease.pid, 999)
  assert.equal(store.readLease().gen, 2)
  writeFileSync(store.leaseFile(3), '{"pid": "x"}')
  assert.equal(store.readLease().kind, 'broken')
  // a broken lease is taken over by the next generation
  const got = await store.acquireLease({ ...lease, pid: 5 }, async () => true)
  assert.equal(got.kind, 'owner')
  assert.equal(store.readLease().gen, 4)
  assert.deepEqual(readdirSync(store.leaseDir), ['4.json'], 'older generations are dropped')
  store.releaseLease({ ...lease, pid: 5 })
  assert.deepEqual(store.readLease(), { kind: 'none', gen: 0 })
})

test('readTask gives the reason for a broken task.json and refuses an unknown task', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  assert.equal(store.readTask(id).ok, true)
  writeFileSync(store.taskFile(id), '[]')
  assert.match(store.readTask(id).reason, /must be an object/)
  assert.throws(() => store.readTask('api-99'), (e) => e.code === 'KITCHEN_UNKNOWN_TASK')
  assert.equal(Store.kitchenOfTaskDir(store.taskDir(id)), store.root)
})

test('a second store on the kitchen (a read-only session) sees the owner\'s writes once the task is quiet', async (t) => {
  const { dir, store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  const reader = Store.open(join(dir, 'k'))
  store.appendLog(id, { type: 'notified', at: 4, run: 1 }) // the log exists: an append adds no directory entry
  // Age the task so the reader's cache trusts the directory mtime (the fast path).
  const old = new Date(Date.now() - 60_000)
  const { utimesSync } = await import('node:fs')
  for (const p of [store.taskDir(id), join(store.taskDir(id), 'runs'), store.inboxDir(id), join(store.root, 'tasks')]) utimesSync(p, old, old)
  const first = reader.snapshot().tasks[0]
  assert.equal(reader.snapshot().tasks[0], first, 'nothing changed: the same record')
  store.appendLog(id, { type: 'hold', at: 5, run: 1 })
  assert.deepEqual(reader.snapshot().tasks[0].log.at(-1), { type: 'hold', at: 5, run: 1 })
  store.writeMessage(id, 'go on', 6)
  assert.equal(reader.snapshot().tasks[0].inbox.length, 1)
})

test('while a run is in flight the snapshot follows the cook: new lines and messages it takes from the inbox', async (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  const name = store.writeMessage(id, 'steer me', 7)
  const fd = store.claimRun(id, 1)
  writeSync(fd, readFileSync(join(fixtures, 'crashed.jsonl'), 'utf8').split('\n')[0] + '\n')
  assert.equal(store.snapshot().tasks[0].inbox.length, 1)
  const old = new Date(Date.now() - 60_000)
  const { utimesSync, renameSync } = await import('node:fs')
  for (const p of [store.taskDir(id), join(store.taskDir(id), 'runs'), store.inboxDir(id), join(store.root, 'tasks')]) utimesSync(p, old, old)
  store.snapshot()
  // The cook (another process: no touch) moves the message and writes a line.
  renameSync(join(store.inboxDir(id), name), join(store.inboxDir(id), 'handled', name))
  writeSync(fd, JSON.stringify({ type: 'prompted', at: 8, source: 'steer', text: 'steer me' }) + '\n')
  closeSync(fd)
  const rec = store.snapshot().tasks[0]
  assert.equal(rec.inbox.length, 0)
  assert.equal(rec.runs[0].fold.activity.text, 'steered: steer me')
})

test('a reclaimed empty claim that is claimed again folds only the new file', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  closeSync(store.claimRun(id, 1))
  assert.equal(store.snapshot().tasks[0].runs[0].size, 0)
  assert.equal(store.reclaimRun(id, 1), true)
  const fd = store.claimRun(id, 1)
  writeSync(fd, readFileSync(join(fixtures, 'done-reported.jsonl')))
  closeSync(fd)
  const r = store.snapshot().tasks[0].runs[0]
  assert.equal(r.fold.report.status, 'done')
  assert.equal(r.fold.lines, 12)
})

test('a task directory without task.json is skipped while young and listed as broken once old; a stray directory is broken', async (t) => {
  const { store } = kitchen(t)
  const { utimesSync } = await import('node:fs')
  mkdirSync(store.taskDir('api-4'))
  assert.deepEqual(store.snapshot().broken, [])
  const old = new Date(Date.now() - 60_000)
  utimesSync(store.taskDir('api-4'), old, old)
  mkdirSync(join(store.root, 'tasks', 'scratch'))
  const snap = store.snapshot()
  assert.deepEqual(snap.broken.map((b) => [b.id, b.reason]).sort(), [
    ['api-4', 'task.json is missing (the dispatch stopped before writing it)'],
    ['scratch', 'the directory name is not a task id like "api-7"'],
  ])
  // Once the file is fixed the task is listed again.
  writeFileSync(store.taskFile('api-4'), JSON.stringify(spec(store, 'api-4')))
  assert.deepEqual(store.snapshot().tasks.map((r) => r.id), ['api-4'])
})

test('an unreadable task is listed as broken with the reason and the rest of the kitchen still reads', (t) => {
  const { store } = kitchen(t)
  const a = store.createTask('api', (id) => spec(store, id))
  const b = store.createTask('api', (id) => spec(store, id))
  // A file where the runs directory belongs makes listing it fail with ENOTDIR.
  rmSync(join(store.taskDir(b.id), 'runs'), { recursive: true })
  writeFileSync(join(store.taskDir(b.id), 'runs'), 'not a directory')
  const snap = store.snapshot()
  assert.deepEqual(snap.tasks.map((r) => r.id), [a.id])
  assert.equal(snap.broken.length, 1)
  assert.equal(snap.broken[0].id, b.id)
  assert.match(snap.broken[0].reason, /^cannot be read: ENOTDIR/)
})

test('readRunLines gives every parsed line of a run with the bad ones counted; errTail keeps the end', (t) => {
  const { store } = kitchen(t)
  const { id } = store.createTask('api', (id) => spec(store, id))
  copyFileSync(join(fixtures, 'steered-with-bad-lines.jsonl'), store.runFile(id, 1))
  const { lines, bad } = store.readRunLines(id, 1)
  assert.deepEqual(lines.map((l) => l.type), ['run_start', 'prompted', 'tool_start', 'prompted'])
  assert.equal(bad, 3)
  writeFileSync(store.errFile(id, 1), 'x'.repeat(5000) + 'é\nthe last line\n')
  assert.equal(store.errTail(id, 1, 20), 'xxxé\nthe last line')
  // A cut through a UTF-8 character drops its remains.
  assert.equal(store.errTail(id, 1, 16), 'the last line')
  assert.equal(store.errTail(id, 2), '')
})
