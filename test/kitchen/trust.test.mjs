// What the kitchen trusts in its own directory: only what it wrote, and only as much as it must.
// A rewritten config.json never chooses the launch command; a rewritten project file never moves a
// project; a run file nobody claimed is not a run; a deleted lease is taken again, not a crash; a
// branch rewritten under the kitchen is refused, its reported tip kept.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openKitchen } from '../../dist/src/kitchen/index.js'
import { COOK_COMMAND, FAST_CONFIG, git, makeRepo, ownerKitchen, settled, tempDir, until, writeConfig } from './support.mjs'

async function setup(t, extra = {}, config = {}) {
  const dir = tempDir('kitchen-trust-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, { ...FAST_CONFIG, ...config })
  const api = makeRepo(dir, 'api')
  const k = await ownerKitchen(root, extra)
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, ...k }
}

const logOf = (root, id) => {
  const p = join(root, 'tasks', id, 'log.jsonl')
  return existsSync(p) ? readFileSync(p, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
}
const session = (root, id) => readFileSync(join(root, 'tasks', id, 'session', 'fake-session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))

test('a config.json rewritten with a cookCommand and cookArgs: no later launch runs them', async (t) => {
  const dir = tempDir('kitchen-trust-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  const api = makeRepo(dir, 'api')
  const pwned = join(dir, 'pwned')
  // a kitchen without a host config reads config.json, but never a command from it
  const o = await openKitchen(root, { cookCommand: COOK_COMMAND, tickMs: 0 })
  t.after(() => o.kitchen.shutdown())
  const k = o.kitchen
  await k.addProject({ path: api })
  writeFileSync(join(root, 'config.json'), JSON.stringify({ ...FAST_CONFIG, cookCommand: ['/bin/sh', '-c', `touch ${pwned}`, '--prompt-file={promptFile}'], cookArgs: [`--from-file=${pwned}`] }))
  await k.dispatch({ project: 'api', title: 'After the rewrite', brief: '@fake: done=fine' })
  const v = await settled(k, 'api-1')
  assert.equal(v.state.outcome.summary, 'fine')
  assert.ok(!existsSync(pwned), 'the rewritten cookCommand never ran')
  assert.ok(!session(root, 'api-1')[0].argv.some((a) => a.includes('--from-file')), 'nor its cookArgs')
  const board = await k.board()
  assert.match(board, /cookCommand is ignored here; the cook command comes only from the kitchen's host/)
  assert.match(board, /cookArgs is ignored here/)
})

test('a host config: config.json is never read at all', async (t) => {
  const host = { ...FAST_CONFIG, maxCooks: 1 }
  const { root, kitchen } = await setup(t, { config: () => host })
  writeFileSync(join(root, 'config.json'), JSON.stringify({ maxCooks: 5 }))
  const d = await kitchen.dispatch({ project: 'api', tasks: [{ title: 't1', brief: '@fake: steer=60000 done' }, { title: 't2', brief: '@fake: done' }] })
  assert.deepEqual(d.tasks.map((x) => x.state), ['cooking', 'queued'], 'the cap is the host\'s, not the file\'s')
  await kitchen.send('api-1', 'finish')
  await settled(kitchen, 'api-2')
})

test('a rewritten projects/<name>.json: path, base branch and test command stay as the kitchen recorded them', async (t) => {
  const { dir, root, api, kitchen } = await setup(t)
  const other = makeRepo(dir, 'other')
  git(api, 'branch', 'release')
  const file = join(root, 'projects', 'api.json')
  const spec = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...spec, path: other, baseBranch: 'release', testCommand: 'rm -rf ~' }))
  const d = await kitchen.dispatch({ project: 'api', title: 'Where?', brief: '@fake: commit=w.txt done' })
  assert.equal(d.tasks[0].branch, 'issue/api-1')
  await settled(kitchen, 'api-1')
  const task = JSON.parse(readFileSync(join(root, 'tasks', 'api-1', 'task.json'), 'utf8'))
  assert.equal(task.baseBranch, 'main', 'forked from the recorded base')
  await kitchen.result('api-1')
  assert.match(git(api, 'branch', '--list', 'issue/api-1'), /issue\/api-1/, 'brought back into the recorded project')
  assert.equal(git(other, 'branch', '--list', 'issue/api-1').trim(), '', 'never into the one the file names')
  const board = await kitchen.board()
  assert.match(board, /projects\/api\.json changed since this session read it; the kitchen keeps what it recorded/)
  assert.ok(board.includes(`- api: ${api}, base main`), board)
})

test('an empty run file planted in an idle task: no relaunch, and its pending wake is still sent', async (t) => {
  let deliver = false
  const delivered = []
  const { root, kitchen } = await setup(t, { deliver: async (w) => (deliver ? (delivered.push(w), true) : false) })
  await kitchen.dispatch({ project: 'api', title: 'Done once', brief: '@fake: done=once' })
  await settled(kitchen, 'api-1')
  writeFileSync(join(root, 'tasks', 'api-1', 'runs', '2.jsonl'), '')
  writeFileSync(join(root, 'tasks', 'api-1', 'runs', '3.jsonl'), JSON.stringify({ type: 'run_start', at: 1, v: 1, sessionId: 'x', resumed: false, model: { provider: 'p', model: 'm' } }) + '\n')
  const tk = await kitchen.tick()
  const v = tk.views.find((x) => x.id === 'api-1')
  assert.equal(v.state.kind, 'idle')
  assert.equal(v.state.run, 1)
  assert.ok(tk.errors.some((l) => /runs\/3\.jsonl was not claimed by the kitchen; it is not read/.test(l)), tk.errors.join('\n'))
  for (let i = 0; i < 5; i++) await kitchen.tick() // ticks of their own: none relaunches
  assert.deepEqual(readdirSync(join(root, 'tasks', 'api-1', 'runs')).filter((n) => n.endsWith('.prompt.md')), ['1.prompt.md'], 'nothing relaunched')
  deliver = true
  await until(() => delivered.some((w) => /api-1 "Done once" says it is done: once\. The kitchen saw: no commits on issue\/api-1\./.test(w.text)), 'the wake of run 1')
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'notified').map((e) => e.run), [1])
  // a later launch takes run 2 as its own: the planted file is moved aside, never read as the run
  await kitchen.send('api-1', 'again\n@fake: done=twice')
  const v2 = await until(async () => {
    const x = await kitchen.view('api-1')
    return x.state.kind === 'idle' && x.state.run === 2 ? x : undefined
  }, 'run 2 idle')
  assert.equal(v2.state.outcome.summary, 'twice')
})

test('a deleted lease is not a crash: the owner takes it again and goes on', async (t) => {
  const { root, kitchen } = await setup(t)
  rmSync(join(root, 'lease'), { recursive: true, force: true })
  rmSync(join(root, 'pass.lock'), { force: true }) // where kitchens before lease generations kept it
  const d = await kitchen.dispatch({ project: 'api', title: 'After the lease went', brief: '@fake: done' })
  assert.equal(d.tasks[0].state, 'cooking')
  assert.equal(kitchen.lost, false)
  assert.equal(readdirSync(join(root, 'lease')).length, 1)
  await settled(kitchen, 'api-1')
})

test('two chefs open a stale lease at the same moment: one owner and one reader, every round', async (t) => {
  const dir = tempDir('kitchen-trust-')
  for (let round = 0; round < 20; round++) {
    const root = join(dir, `k${round}`)
    mkdirSync(root)
    // a lease of a chef that died (also where kitchens before lease generations kept it)
    const dead = JSON.stringify({ pid: 1, pidStart: 'gone', sessionId: 'dead', since: 1 })
    mkdirSync(join(root, 'lease'))
    writeFileSync(join(root, 'lease', '1.json'), dead)
    writeFileSync(join(root, 'pass.lock'), dead)
    // both ask about the dead holder, and both get the answer only once both asked
    let asked = 0
    let release
    const gate = new Promise((r) => (release = r))
    const holderAlive = async (h) => {
      if (h.sessionId === 'dead' && ++asked === 2) release()
      if (h.sessionId === 'dead') await gate
      return h.sessionId !== 'dead'
    }
    const open = (pid) => openKitchen(root, { cookCommand: COOK_COMMAND, tickMs: 0, identity: { pid, pidStart: `s${pid}` }, holderAlive })
    const [a, b] = await Promise.all([open(900_001), open(900_002)])
    const kinds = [a.kind, b.kind].sort()
    assert.deepEqual(kinds, ['owner', 'read-only'], `round ${round}`)
    const owner = a.kind === 'owner' ? a.kitchen : b.kitchen
    const reader = a.kind === 'owner' ? b : a
    assert.equal(reader.holder.pid, owner.lease.pid)
    await owner.shutdown()
    reader.reader.dispose()
  }
})

test('a kitchen that can\'t be written opens read-only and reads: board, views, results', async (t) => {
  const { root, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'Readable', brief: '@fake: commit=r.txt done=readable' })
  await settled(kitchen, 'api-1')
  await kitchen.result('api-1')
  await kitchen.shutdown()
  const erofs = (what) => { throw Object.assign(new Error(`EROFS: read-only file system, ${what}`), { code: 'EROFS' }) }
  const o = await openKitchen(root, { cookCommand: COOK_COMMAND, tickMs: 0, writeFault: erofs })
  assert.equal(o.kind, 'read-only')
  assert.match(o.reason, /can't be written: EROFS/)
  assert.equal(o.holder, undefined)
  assert.match(await o.reader.board(), /api-1 "Readable" done: readable/)
  assert.equal((await o.reader.view('api-1')).state.kind, 'idle')
  assert.match((await o.reader.result('api-1')).text, /1 commit ahead of main.*as the owner last brought it back/)
  assert.equal(await o.reader.tick(), undefined, 'a tick tries again and stays read-only')
  await assert.rejects(o.reader.takeover(), /can't be taken over: .*EROFS/)
  o.reader.dispose()
})

test('a batch that fails half-way on a full disk creates nothing and says so; the retry creates each task once', async (t) => {
  let failAt = 2
  let writes = 0
  const writeFault = (what) => {
    if (what !== 'task' || failAt === 0) return
    if (++writes === failAt * 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
  }
  const { root, kitchen } = await setup(t, { writeFault })
  const batch = { project: 'api', tasks: [{ title: 'one', brief: '@fake: done=1' }, { title: 'two', brief: '@fake: done=2' }, { title: 'three', brief: '@fake: done=3' }] }
  await assert.rejects(kitchen.dispatch(batch), (e) => {
    assert.equal(e.code, 'KITCHEN_DISPATCH_FAILED', e.message)
    assert.match(e.message, /^Nothing was dispatched: ENOSPC: no space left on device, write\. No task was created/)
    return true
  })
  assert.deepEqual(readdirSync(join(root, 'tasks')), [], 'no orphan folder, no half-made task')
  failAt = 0
  const d = await kitchen.dispatch(batch)
  assert.deepEqual(d.tasks.map((x) => x.task), ['api-1', 'api-2', 'api-3'])
  // the chef retries the same call (its answer was lost): nothing is created twice
  const again = await kitchen.dispatch(batch)
  assert.deepEqual(again.tasks.map((x) => [x.task, x.again]), [['api-1', true], ['api-2', true], ['api-3', true]])
  assert.match(again.text, /api-1 was dispatched already by the same request/)
  assert.deepEqual(readdirSync(join(root, 'tasks')).sort(), ['api-1', 'api-2', 'api-3'])
  for (const id of ['api-1', 'api-2', 'api-3']) await settled(kitchen, id)
})

test('a branch rewritten under the kitchen after it reported: result says so, close refuses and keeps the reported tip', async (t) => {
  const { root, api, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'Work', brief: '@fake: commit=w.txt done=work' })
  await settled(kitchen, 'api-1')
  const r = await kitchen.result('api-1')
  const reported = r.tipCommit
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'fetched').map((e) => e.tip), [reported])
  // the cook (or anyone with its clone) rewinds the branch and commits something else on top of main
  const clone = join(root, 'worktrees', 'api-1')
  git(clone, 'reset', '-q', '--hard', 'main')
  writeFileSync(join(clone, 'other.txt'), 'x\n')
  git(clone, 'add', 'other.txt')
  git(clone, 'commit', '-q', '-m', 'other')
  const again = await kitchen.result('api-1')
  assert.match(again.text, /^Not brought back: the clone's issue\/api-1 \([0-9a-f]{10}\) no longer contains [0-9a-f]{10}, the tip the kitchen has in .*: its history was rewritten/m)
  assert.equal(git(api, 'rev-parse', 'issue/api-1').trim(), reported, 'the project keeps the reported tip')
  await assert.rejects(kitchen.close('api-1'), (e) => e.code === 'KITCHEN_CLOSE_REFUSED' && /history was rewritten.*so the clone holds work the project does not/.test(e.message))
  // the same when the project's branch itself is moved back (by anyone): the reported tip is missing
  git(api, 'update-ref', 'refs/heads/issue/api-1', git(api, 'rev-parse', 'main').trim())
  git(clone, 'reset', '-q', '--hard', 'main')
  const moved = await kitchen.result('api-1')
  assert.match(moved.text, /no longer contains [0-9a-f]{10}, the tip the kitchen reported before: its history was rewritten/)
  await assert.rejects(kitchen.close('api-1'), /history was rewritten/)
  const c = await kitchen.close('api-1', { discard: true })
  assert.equal(c.branch, 'deleted')
})
