// Bounded reading: a run file with a line far over the reader's cap, a line still being written, a
// huge file, and a FIFO where a file belongs never break a task, stall the tick, or cost memory
// the size of the file; each byte is read once, and the problem named is the real one.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LineReader, MAX_LINE_BYTES } from '../../dist/src/kitchen/store/index.js'
import { FAST_CONFIG, makeRepo, ownerKitchen, settled, tempDir, writeConfig } from './support.mjs'

async function setup(t) {
  const dir = tempDir('kitchen-bounded-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const state = { k: await ownerKitchen(root) }
  t.after(() => state.k.kitchen.shutdown())
  await state.k.kitchen.addProject({ path: api })
  state.reopen = async () => {
    await state.k.kitchen.shutdown()
    state.k = await ownerKitchen(root)
    return state.k.kitchen
  }
  return { dir, root, api, state }
}

test('a run-file line over the cap is cut, counted and never fatal; the run\'s real outcome still reads', async (t) => {
  const { state } = await setup(t)
  const kitchen = state.k.kitchen
  await kitchen.dispatch({ project: 'api', title: 'Writes a huge line', brief: `@fake: bigline=${3 * MAX_LINE_BYTES} done=after_the_line` })
  const v = await settled(kitchen, 'api-1')
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'after the line', reported: true })
  const r = await kitchen.result('api-1')
  assert.match(r.text, /^Run file: 1 line longer than the kitchen keeps was cut\.$/m)
  assert.doesNotMatch(await kitchen.board(), /broken/)
  // a new owner reads the file afresh: the same, not broken, and the line is still cut once
  const again = await state.reopen()
  assert.equal((await again.view('api-1')).state.outcome.summary, 'after the line')
})

test('a line still being written is held, never read again from its start; a line over the cap is dropped as it comes', (t) => {
  const dir = tempDir('kitchen-bounded-')
  const path = join(dir, 'run.jsonl')
  const reader = new LineReader({ maxLine: 64 * 1024 })
  writeFileSync(path, '{"a":1}\n' + 'x'.repeat(40 * 1024))
  assert.deepEqual(reader.read(path).lines, ['{"a":1}'])
  assert.equal(reader.offset, 8 + 40 * 1024, 'the partial line is consumed, not left to be read again')
  assert.equal(reader.pending, 40 * 1024)
  appendFileSync(path, 'y'.repeat(10 * 1024))
  assert.deepEqual(reader.read(path).lines, [])
  assert.equal(reader.offset, 8 + 50 * 1024)
  appendFileSync(path, '\n{"b":2}\n')
  const got = reader.read(path).lines
  assert.equal(got.length, 2)
  assert.equal(got[0].length, 50 * 1024)
  assert.deepEqual(got[1], '{"b":2}')
  // over the cap: nothing of it is kept while it grows
  appendFileSync(path, 'z'.repeat(100 * 1024))
  reader.read(path)
  assert.equal(reader.pending, 0, 'an over-long line is not held')
  appendFileSync(path, 'z'.repeat(100 * 1024) + '\n{"c":3}\n')
  const cut = reader.read(path).lines
  assert.deepEqual(cut[0].cut, 200 * 1024)
  assert.match(cut[0].head, /^z+$/)
  assert.deepEqual(cut[1], '{"c":3}')
})

test('a huge file is read a budget at a time in bounded memory', (t) => {
  const dir = tempDir('kitchen-bounded-')
  const path = join(dir, 'run.jsonl')
  // 48 MiB: one 40 MiB line, then a good line
  execFileSync('sh', ['-c', `head -c ${40 * 1024 * 1024} /dev/zero | tr '\\0' x > ${path}; printf '\\n{"ok":1}\\n' >> ${path}`])
  const reader = new LineReader()
  const before = process.memoryUsage().arrayBuffers
  let peak = 0
  const lines = []
  for (let i = 0; i < 100; i++) {
    const r = reader.read(path)
    lines.push(...r.lines)
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - before, reader.pending)
    if (!r.more) break
  }
  assert.equal(lines.length, 2)
  assert.equal(lines[0].cut, 40 * 1024 * 1024)
  assert.equal(lines[1], '{"ok":1}')
  assert.ok(peak < 16 * 1024 * 1024, `memory stayed bounded (${peak} bytes above the start)`)
})

test('a FIFO in place of a run file or a log: the tick never blocks, the problem names the file', async (t) => {
  const { root, state } = await setup(t)
  const kitchen = state.k.kitchen
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'a', brief: '@fake: done' }, { title: 'b', brief: '@fake: done' }] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  const run = join(root, 'tasks', 'api-1', 'runs', '1.jsonl')
  rmSync(run)
  execFileSync('mkfifo', [run])
  const log = join(root, 'tasks', 'api-2', 'log.jsonl')
  rmSync(log, { force: true })
  execFileSync('mkfifo', [log])
  const k = await state.reopen()
  const tk = await k.tick()
  const v = tk.views.find((x) => x.id === 'api-1')
  assert.equal(v.state.outcome.kind, 'failed')
  assert.match(v.state.outcome.reason, /runs\/1\.jsonl can't be read: 1\.jsonl is a FIFO, not a regular file/)
  assert.ok(tk.errors.some((l) => /task api-2 is broken: log\.jsonl can't be read: log\.jsonl is a FIFO/.test(l)), tk.errors.join('\n'))
})
