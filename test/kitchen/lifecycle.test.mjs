import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { openKitchen } from '../../dist/src/kitchen/index.js'
import { FAST_CONFIG, COOK_COMMAND, crash, git, makeRepo, owners, ownerKitchen, pidAlive, settled, sleep, tempDir, until, writeConfig } from './support.mjs'

/** A fresh kitchen directory with the fast test config. */
function kitchenRoot() {
  const dir = tempDir()
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  return { dir, root }
}

async function setup(config = {}, extra = {}) {
  const dir = tempDir()
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, { ...FAST_CONFIG, ...config })
  const api = makeRepo(dir, 'api')
  const k = await ownerKitchen(root, extra)
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, ...k }
}
const logOf = (root, id) => {
  const p = join(root, 'tasks', id, 'log.jsonl')
  return existsSync(p) ? readFileSync(p, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
}
const session = (root, id) => readFileSync(join(root, 'tasks', id, 'session', 'fake-session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))

test('a message sent mid-run is steered: the cook moves it to handled/ and names it in its report', async (t) => {
  const { root, kitchen } = await setup()
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'steer me', brief: '@fake: steer done=base' })
  await until(async () => (await kitchen.view('api-1')).state.kind === 'cooking', 'cooking')
  const s = await kitchen.send('api-1', 'also add a test')
  assert.deepEqual(s, { kind: 'steered', run: 1 })
  const v = await settled(kitchen, 'api-1')
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'base (steered: also add a test)', reported: true })
  assert.equal(readdirSync(join(root, 'tasks', 'api-1', 'inbox', 'handled')).length, 1)
  assert.equal(readdirSync(join(root, 'tasks', 'api-1', 'runs')).filter((n) => n.endsWith('.jsonl')).length, 1)
})

test('stop kills the cook and its child (group signal); a send right after the stop relaunches with the message', async (t) => {
  const { root, kitchen } = await setup()
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'forever', brief: '@fake: child hang' })
  const childFile = join(root, 'tasks', 'api-1', 'session', 'child.pid')
  await until(() => existsSync(childFile) && readFileSync(childFile, 'utf8'), 'child')
  const child = Number(readFileSync(childFile, 'utf8'))
  const cook = (await kitchen.view('api-1')).live.pid
  const st = await kitchen.stop('api-1')
  assert.deepEqual(st, { kind: 'stopping', run: 1 })
  const s = await kitchen.send('api-1', 'start over\n@fake: done=again')
  assert.ok(['after-stop', 'launched'].includes(s.kind), s.kind)
  await until(() => !pidAlive(cook) && !pidAlive(child), 'cook and child gone')
  const v = await until(async () => {
    const x = await kitchen.view('api-1')
    return x.state.kind === 'idle' && x.state.run === 2 ? x : undefined
  }, 'run 2 done')
  assert.equal(v.state.outcome.summary, 'again')
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'stop').map((e) => e.run), [1])
})

test('a cook that ignores SIGTERM gets SIGKILL after the kill grace; the run ends as stopped', async (t) => {
  const { root, kitchen, wakes } = await setup({ killGraceMs: 200 })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'stubborn', brief: '@fake: ignoreterm hang' })
  await until(async () => (await kitchen.view('api-1')).state.activity?.text.includes('sleep forever'), 'hanging')
  const pid = (await kitchen.view('api-1')).live.pid
  await kitchen.stop('api-1')
  await until(() => !pidAlive(pid), 'killed')
  const v = await settled(kitchen, 'api-1')
  assert.deepEqual(v.state.outcome, { kind: 'stopped' })
  assert.equal(v.notice, undefined)
  await sleep(150)
  assert.equal(wakes.length, 0)
  void root
})

test('a settled cook that never exits is ended by the tick after the exit grace', async (t) => {
  const { kitchen } = await setup({ exitGraceMs: 200, killGraceMs: 200 })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'linger', brief: '@fake: done linger=60000' })
  const pid = await until(async () => (await kitchen.view('api-1')).live?.pid, 'live')
  await until(async () => (await kitchen.view('api-1')).state.kind === 'idle', 'settled')
  await until(() => !pidAlive(pid), 'killed after the grace')
  assert.equal((await kitchen.view('api-1')).state.outcome.kind, 'done')
})

test('an invalid branch prefix is refused; issue/ by default; a chef/ task closes and deletes that branch once landed', async (t) => {
  const { dir, root, api, kitchen } = await setup()
  t.after(() => kitchen.shutdown())
  const web = makeRepo(dir, 'web')
  await assert.rejects(kitchen.addProject({ path: web, branchPrefix: 'bad..' }), (e) => e.code === 'KITCHEN_BAD_BRANCH' && /gives the invalid task branch "bad\.\.web-1"/.test(e.message))
  await assert.rejects(kitchen.addProject({ path: web, baseBranch: 'nope' }), (e) => e.code === 'KITCHEN_BAD_BRANCH' && /does not exist/.test(e.message))
  const legacy = makeRepo(dir, 'old')
  await kitchen.addProject({ path: legacy, branchPrefix: 'chef/' })
  const d = await kitchen.dispatch({ project: 'old', title: 'legacy', brief: '@fake: commit=a.txt done' })
  assert.equal(d.tasks[0].branch, 'chef/old-1')
  await settled(kitchen, 'old-1')
  // the project moves to the issue/ prefix; the task keeps its stored branch
  const pf = join(root, 'projects', 'old.json')
  writeFileSync(pf, JSON.stringify({ ...JSON.parse(readFileSync(pf, 'utf8')), branchPrefix: 'issue/' }))
  await assert.rejects(kitchen.close('old-1'), /branch chef\/old-1 has 1 commit on neither main/)
  git(legacy, 'merge', '-q', '--ff-only', 'chef/old-1')
  const c = await kitchen.close('old-1')
  assert.equal(c.branch, 'deleted')
  assert.match(c.text, /branch chef\/old-1 deleted/)
  void api
})

test('close refuses a dirty clone and a detached HEAD, keeps a pushed unmerged branch, and discard drops everything', async (t) => {
  const { dir, api, root, kitchen } = await setup()
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ tasks: [{ title: 'dirty', brief: '@fake: dirty=x.txt done' }, { title: 'pushed', brief: '@fake: commit=p.txt done' }], project: 'api' })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  await assert.rejects(kitchen.close('api-1'), /uncommitted changes \(\?\? x\.txt\) on issue\/api-1/)
  // the cook's commit reaches the project when the kitchen brings the branch back (result, close)
  assert.equal(git(api, 'branch', '--list', 'issue/api-2').trim(), '')
  await kitchen.result('api-2')
  const remote = join(dir, 'remote.git')
  git(dir, 'init', '-q', '--bare', remote)
  git(api, 'remote', 'add', 'origin', remote)
  git(api, 'push', '-q', 'origin', 'issue/api-2')
  const r = await kitchen.result('api-2')
  assert.equal(r.landed, 'remote')
  assert.match(r.text, /landed on origin\/issue\/api-2 as of the last fetch, not on main/)
  const c2 = await kitchen.close('api-2')
  assert.equal(c2.branch, 'kept')
  git(join(root, 'worktrees', 'api-1'), 'checkout', '-q', '--detach')
  await assert.rejects(kitchen.close('api-1'), /is not on its branch issue\/api-1 \(HEAD: detached\)/)
  const c1 = await kitchen.close('api-1', { discard: true })
  assert.equal(c1.branch, 'deleted')
  assert.ok(!existsSync(join(root, 'worktrees', 'api-1')))
})

test('a bad model and a broken worktree path are launch failures that a send retries', async (t) => {
  const { root, kitchen, wakes } = await setup()
  t.after(() => kitchen.shutdown())
  // the harness refuses the model only once the cook runs: the owner sees it exit with no output
  await kitchen.dispatch({ project: 'api', title: 'bad model', brief: '@fake: done', model: 'bad/nope' })
  // the owner saw the exit with no output and logged it (before that, the err file alone derives the failure)
  await until(() => logOf(root, 'api-1').some((e) => e.type === 'launch_failed'), 'launch_failed')
  const v1 = await settled(kitchen, 'api-1')
  assert.equal(v1.state.outcome.kind, 'failed')
  assert.equal(v1.state.outcome.cause, 'launch')
  assert.match(v1.state.outcome.reason, /exited with code 2 before its first line: fake-cook: unknown model bad\/nope/)
  await kitchen.send('api-1', 'try again')
  await until(() => logOf(root, 'api-1').filter((e) => e.type === 'launch_failed').length === 2, 'retry failed too')
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'launch_failed').map((e) => e.run), [1, 2])

  writeFileSync(join(root, 'worktrees', 'api-2'), 'in the way')
  const d2 = await kitchen.dispatch({ project: 'api', title: 'broken path', brief: '@fake: done=ok' })
  assert.equal(d2.tasks[0].state, 'failed')
  assert.match(d2.tasks[0].reason, /exists and is not a clone/)
  unlinkSync(join(root, 'worktrees', 'api-2'))
  const s2 = await kitchen.send('api-2', 'path fixed')
  assert.deepEqual(s2, { kind: 'launched', run: 2 })
  const v = await settled(kitchen, 'api-2')
  assert.equal(v.state.outcome.summary, 'ok')
  // run 2 was the first to deliver the brief: brief plus message
  const p2 = readFileSync(join(root, 'tasks', 'api-2', 'runs', '2.prompt.md'), 'utf8')
  assert.match(p2, /broken path/)
  assert.match(p2, /path fixed/)
  await until(() => wakes.some((w) => /api-1 "bad model" failed to launch/.test(w.text)), 'launch failure wake')
})

test('a cook that ends before the tick reads the kitchen again was launched all the same: dispatch and send say so', async (t) => {
  const stall = { run: 0 }
  const runFile = (run) => join(root, 'tasks', 'api-1', 'runs', `${run}.jsonl`)
  // The owner stalls right after a spawn until that run has settled, as a loaded machine may make it:
  // a synchronous wait for the state, polled every few milliseconds, bounded so a bug cannot hang.
  const fault = (point) => {
    if (point !== 'launch:spawned' || stall.run === 0) return
    const end = Date.now() + 30_000
    const nap = new Int32Array(new SharedArrayBuffer(4))
    while (Date.now() < end && !(existsSync(runFile(stall.run)) && readFileSync(runFile(stall.run), 'utf8').includes('"settled"'))) Atomics.wait(nap, 0, 0, 5)
  }
  const { root, kitchen } = await setup({}, { fault })
  t.after(() => kitchen.shutdown())
  stall.run = 1
  const d = await kitchen.dispatch({ project: 'api', title: 'quick', brief: '@fake: needs_decision=which?' })
  assert.deepEqual({ state: d.tasks[0].state, run: d.tasks[0].run }, { state: 'cooking', run: 1 })
  await settled(kitchen, 'api-1')
  stall.run = 2
  const s = await kitchen.send('api-1', 'this one\n@fake: done=two')
  assert.deepEqual(s, { kind: 'launched', run: 2 })
  stall.run = 0
  assert.equal((await settled(kitchen, 'api-1')).state.outcome.summary, 'two')
})

test('a broken task.json and config.json do not stop the tick', async (t) => {
  const { root, kitchen, reports } = await setup()
  t.after(() => kitchen.shutdown())
  mkdirSync(join(root, 'tasks', 'old-9'))
  writeFileSync(join(root, 'tasks', 'old-9', 'task.json'), '{ not json')
  writeFileSync(join(root, 'config.json'), '{"maxCooks": "many"}')
  const tk = await kitchen.tick()
  assert.ok(tk.errors.some((l) => /task old-9 is broken: task\.json is not valid JSON/.test(l)))
  assert.ok(tk.errors.some((l) => /maxCooks must be a whole number/.test(l)))
  assert.ok(reports.some((l) => /old-9/.test(l)))
  const d = await kitchen.dispatch({ project: 'api', title: 'still works', brief: '@fake: done' })
  assert.equal(d.tasks[0].task, 'api-1')
  await settled(kitchen, 'api-1')
  assert.match(await kitchen.board(), /old-9/)
  await assert.rejects(kitchen.view('old-9'), (e) => e.code === 'KITCHEN_BROKEN_TASK')
})

test('a new owner adopts a live cook and derives the outcome of a cook that exited while no owner ran', async (t) => {
  const reg = owners()
  const ctl = reg.faults()
  const idA = reg.identity()
  const { dir, root } = kitchenRoot()
  const api = makeRepo(dir, 'api')
  const a = await ownerKitchen(root, { identity: idA, holderAlive: reg.holderAlive, fault: ctl.fault })
  await a.kitchen.addProject({ path: api })
  // api-1 cooks until a message comes, so it is still cooking when the new owner opens
  await a.kitchen.dispatch({ project: 'api', tasks: [{ title: 'long', brief: '@fake: steer=60000 done=long' }, { title: 'short', brief: '@fake: wait=100 done=short' }] })
  const longPid = (await a.kitchen.view('api-1')).live.pid
  const shortPid = (await a.kitchen.view('api-2')).live.pid
  await crash(a.kitchen, ctl, idA.pid, reg)
  // api-2 finishes while no owner runs
  const run2 = join(root, 'tasks', 'api-2', 'runs', '1.jsonl')
  await until(() => readFileSync(run2, 'utf8').includes('"settled"'), 'api-2 settled', 20_000)
  await until(() => !pidAlive(shortPid), 'api-2 exited', 20_000)
  const b = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive })
  t.after(() => b.kitchen.shutdown())
  const v1 = await b.kitchen.view('api-1')
  assert.equal(v1.state.kind, 'cooking')
  assert.equal(v1.live.pid, longPid)
  const v2 = await b.kitchen.view('api-2')
  assert.deepEqual(v2.state.outcome, { kind: 'done', summary: 'short', reported: true })
  await until(() => b.wakes.length > 0, 'wake')
  assert.match(b.wakes[0].text, /^Chef restarted: 1 cook still cooking, 1 run finished while you were away\.\n\nKitchen update \(1\):\n- api-2 "short" says it is done: short\. The kitchen saw: no commits on issue\/api-2\./)
  assert.deepEqual(await b.kitchen.send('api-1', 'finish'), { kind: 'steered', run: 1 })
  await settled(b.kitchen, 'api-1')
  await until(() => b.wakes.some((w) => /api-1 "long" says it is done: long \(steered: finish\)\. The kitchen saw: no commits on issue\/api-1\./.test(w.text)), 'long wake')
  assert.equal(a.wakes.length, 0)
})

test('a ghost cook holding a run file blocks a second launch of that run', async (t) => {
  const { root, kitchen } = await setup({ reclaimAfterMs: 100 })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'g', brief: '@fake: done=first' })
  await settled(kitchen, 'api-1')
  // a cook of run 2 that no owner knows: it holds runs/2.jsonl on fd 1 and writes nothing
  const { openSync, closeSync, utimesSync } = await import('node:fs')
  const { spawn } = await import('node:child_process')
  const runFile = join(root, 'tasks', 'api-1', 'runs', '2.jsonl')
  const fd = openSync(runFile, 'wx')
  const ghost = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', fd, 'ignore'], detached: true })
  closeSync(fd)
  t.after(() => { try { process.kill(-ghost.pid, 'SIGKILL') } catch {} })
  const old = new Date(Date.now() - 60_000)
  utimesSync(runFile, old, old)
  const s = await kitchen.send('api-1', 'second run\n@fake: done=second')
  const v = await kitchen.view('api-1')
  assert.equal(v.state.kind, 'cooking')
  assert.equal(v.live.pid, ghost.pid)
  assert.ok(existsSync(runFile))
  assert.equal(readFileSync(runFile, 'utf8'), '')
  assert.ok(['launched', 'steered', 'queued'].includes(s.kind))
  assert.deepEqual(readdirSync(join(root, 'tasks', 'api-1', 'runs')).filter((n) => n.endsWith('.jsonl')).sort(), ['1.jsonl', '2.jsonl'])
})

test('a lost lease is found before any write; a read-only session promotes when the holder dies', async (t) => {
  const reg = owners()
  const idA = reg.identity()
  const { dir, root } = kitchenRoot()
  const api = makeRepo(dir, 'api')
  const a = await ownerKitchen(root, { identity: idA, holderAlive: reg.holderAlive })
  await a.kitchen.addProject({ path: api })
  const idB = reg.identity()
  const opened = await openKitchen(root, { cookCommand: COOK_COMMAND, identity: idB, holderAlive: reg.holderAlive, tickMs: 0 })
  assert.equal(opened.kind, 'read-only')
  assert.equal(opened.holder.pid, idA.pid)
  assert.equal(opened.reader.dispatch, undefined)
  assert.equal(await opened.reader.tick(), undefined)
  // C takes over on purpose: A finds out at its next mutation, before writing anything
  const c = await openKitchen(root, { cookCommand: COOK_COMMAND, identity: reg.identity(), holderAlive: reg.holderAlive, tickMs: 0 }, { takeover: true })
  assert.equal(c.kind, 'owner')
  await assert.rejects(a.kitchen.dispatch({ project: 'api', title: 'x', brief: 'y' }), (e) => e.code === 'KITCHEN_LEASE_LOST')
  assert.deepEqual(readdirSync(join(root, 'tasks')), [])
  assert.equal(a.snapshots.at(-1).role, 'read-only')
  // the holder (C) dies: B promotes at its next tick
  reg.alive.delete(c.kitchen.lease.pid)
  c.kitchen.dispose()
  const b = await opened.reader.tick()
  assert.ok(b)
  t.after(() => b.shutdown())
  const d = await b.dispatch({ project: 'api', title: 'after promotion', brief: '@fake: done' })
  assert.equal(d.tasks[0].state, 'cooking')
  await settled(b, 'api-1')
})

test('a tick queued behind shutdown does not take the lease again: the next session owns the kitchen', async (t) => {
  const { dir, root } = kitchenRoot()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const a = await ownerKitchen(root)
  const stopping = a.kitchen.shutdown()
  // Work that lands on the chain after the shutdown began, as a timer or a cook's exit would queue it.
  const late = a.kitchen.tick().then(() => 'ran', (e) => e.code ?? e.message)
  await stopping
  assert.notEqual(await late, 'ran')
  const b = await ownerKitchen(root)
  t.after(() => b.kitchen.shutdown())
  assert.equal(b.kitchen.standing().kind, 'owner')
})

test('a takeover while an interval promotion attempt is still asking about the holder takes the lease', async (t) => {
  const reg = owners()
  const { root } = kitchenRoot()
  const a = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive })
  t.after(() => a.kitchen.shutdown())
  // B's liveness question hangs until released, so its interval attempt is in flight at the takeover
  let gate
  let release
  let questions = 0
  const holderAlive = async (h) => {
    if (gate) {
      questions++
      await gate
    }
    return reg.holderAlive(h)
  }
  const idB = reg.identity()
  const opened = await openKitchen(root, { cookCommand: COOK_COMMAND, identity: idB, holderAlive, tickMs: 0 })
  assert.equal(opened.kind, 'read-only')
  gate = new Promise((r) => { release = r })
  const interval = opened.reader.tick()
  await until(() => questions === 1, 'the interval attempt asks')
  const took = opened.reader.takeover()
  release()
  assert.equal(await interval, undefined)
  const b = await took
  t.after(() => b.shutdown())
  assert.equal(b.lease.pid, idB.pid)
  await assert.rejects(a.kitchen.dispatch({ project: 'api', title: 'x', brief: 'y' }), (e) => e.code === 'KITCHEN_LEASE_LOST')
})

test('HTTP 402 on the first candidate: run 2 on the next candidate in the same session reports done; one notice names the fallback', async (t) => {
  const { root, kitchen, wakes } = await setup({ models: { default: [{ model: 'prov/a' }, { model: 'prov/b', thinking: 'high' }] } })
  t.after(() => kitchen.shutdown())
  const d = await kitchen.dispatch({ project: 'api', title: 'Fall back', brief: '@fake: fail402=prov/a commit=f.txt done=works_on_b' })
  assert.equal(d.tasks[0].state, 'cooking')
  const v = await until(async () => {
    const x = await kitchen.view('api-1')
    return x.state.kind === 'idle' && x.state.run === 2 ? x : undefined
  }, 'run 2 idle')
  assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'works on b', reported: true })
  assert.equal(v.model, 'prov/b')
  const s = session(root, 'api-1')
  assert.deepEqual(s.map((e) => e.model), ['prov/a', 'prov/b'])
  assert.ok(s[1].argv.includes('--thinking=high'))
  const p2 = readFileSync(join(root, 'tasks', 'api-1', 'runs', '2.prompt.md'), 'utf8')
  assert.match(p2, /previous run on prov\/a stopped with a provider error: 402: Payment Required\nThis run uses prov\/b/)
  await until(() => wakes.length > 0, 'wake')
  await sleep(300)
  assert.equal(wakes.length, 1)
  assert.deepEqual(wakes[0].runs, [{ task: 'api-1', run: 2 }])
  assert.match(wakes[0].text, /api-1 "Fall back" is done: works on b\. The kitchen saw: new commits on issue\/api-1\. It fell back to prov\/b after a provider error on prov\/a \(402: Payment Required\)/)
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'notified').map((e) => e.run), [2])
})

test('a batch beyond the cook cap queues; never more cooks than the cap; items inherit project and model', async (t) => {
  const { root, kitchen, snapshots } = await setup({ maxCooks: 2 })
  t.after(() => kitchen.shutdown())
  const d = await kitchen.dispatch({ project: 'api', model: 'prov/m', tasks: Array.from({ length: 5 }, (_, i) => ({ title: `t${i}`, brief: '@fake: wait=150 done' })) })
  assert.deepEqual(d.tasks.map((x) => x.state), ['cooking', 'cooking', 'queued', 'queued', 'queued'])
  assert.match(d.text, /api-3 is queued on branch issue\/api-3: all 2 cooks are busy/)
  for (let i = 1; i <= 5; i++) await settled(kitchen, `api-${i}`)
  for (const s of snapshots) assert.ok(s.tasks.filter((x) => x.state === 'cooking').length <= 2)
  const spec = JSON.parse(readFileSync(join(root, 'tasks', 'api-5', 'task.json'), 'utf8'))
  assert.deepEqual(spec.models, [{ model: 'prov/m' }])
})

test('dispatch validation refuses the whole batch with the fix named, and creates nothing', async (t) => {
  const { root, kitchen } = await setup({ models: { rules: [{ name: 'fast', when: 'small fixes', use: { model: 'p/fast' } }] } })
  t.after(() => kitchen.shutdown())
  await assert.rejects(kitchen.dispatch({ project: 'api', tasks: [{ title: 'a', brief: 'b' }, { title: '', brief: 'b' }] }), /nothing was dispatched: tasks\[1\]\.title is blank/)
  await assert.rejects(kitchen.dispatch({ project: 'api', tasks: [{ title: 'a', brief: 'b', rule: 'slow' }] }), (e) => e.code === 'KITCHEN_UNKNOWN_RULE' && /tasks\[0\]: unknown rule "slow"; the rules are fast/.test(e.message))
  await assert.rejects(kitchen.dispatch({ project: 'nope', title: 'a', brief: 'b' }), (e) => e.code === 'KITCHEN_UNKNOWN_PROJECT' && /the projects are api/.test(e.message))
  await assert.rejects(kitchen.dispatch({ project: 'api', title: 'a', brief: 'b', model: '  ' }), /model is blank/)
  await assert.rejects(kitchen.dispatch({ project: 'api', title: 'a', brief: 'b', tasks: [{ title: 'c', brief: 'd' }] }), /title goes in each tasks\[\] item of a batch/)
  await assert.rejects(kitchen.dispatch({ project: 'api', tasks: [{ title: 'c', brief: 'd', model: 'p/x', rule: 'fast' }] }), (e) => e.code === 'KITCHEN_RULE_WITH_MODEL')
  assert.deepEqual(readdirSync(join(root, 'tasks')), [])
  const d = await kitchen.dispatch({ project: 'api', rule: 'fast', tasks: [{ title: 'a', brief: '@fake: done' }] })
  assert.equal(JSON.parse(readFileSync(join(root, 'tasks', 'api-1', 'task.json'), 'utf8')).rule, 'fast')
  assert.equal(d.tasks[0].state, 'cooking')
  await settled(kitchen, 'api-1')
})

test('a config change applies at the next tick: the cap and cookArgs, with no task lost and no cook orphaned', async (t) => {
  const { root, kitchen } = await setup({ maxCooks: 1 })
  t.after(() => kitchen.shutdown())
  // each cook cooks until a message comes: all three can be seen cooking at once on any machine
  const d = await kitchen.dispatch({ project: 'api', tasks: [1, 2, 3].map((i) => ({ title: `c${i}`, brief: '@fake: steer=60000 done' })) })
  assert.deepEqual(d.tasks.map((x) => x.state), ['cooking', 'queued', 'queued'])
  writeConfig(root, { ...FAST_CONFIG, maxCooks: 3, cookArgs: ['--extra=1'] })
  await until(async () => {
    const tk = await kitchen.tick()
    return tk.views.filter((v) => v.state.kind === 'cooking').length === 3
  }, 'three cooking')
  for (const id of ['api-1', 'api-2', 'api-3']) assert.equal((await kitchen.send(id, 'finish')).kind, 'steered')
  for (const id of ['api-1', 'api-2', 'api-3']) await settled(kitchen, id)
  assert.ok(!session(root, 'api-1')[0].argv.includes('--extra=1'))
  assert.ok(session(root, 'api-2')[0].argv.includes('--extra=1'))
  assert.ok(session(root, 'api-3')[0].argv.includes('--extra=1'))
})

test('send waits for a reported cook that is still exiting, answers after-exit when the wait runs out; stop frees the session', async (t) => {
  const { kitchen } = await setup({ maxCooks: 2, exitWaitMs: 3000, exitGraceMs: 60000 })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'exiting', brief: '@fake: done linger=700' }, { title: 'slow exit', brief: '@fake: done linger=60000' }] })
  await until(async () => (await kitchen.view('api-1')).state.kind === 'idle', 'api-1 reported')
  const s1 = await kitchen.send('api-1', 'one more thing\n@fake: done=more')
  assert.deepEqual(s1, { kind: 'launched', run: 2 })
  await until(async () => (await kitchen.view('api-2')).state.kind === 'idle', 'api-2 reported')
  const s2 = await kitchen.send('api-2', 'again')
  assert.deepEqual(s2, { kind: 'after-exit' })
  // stop frees the session at once (SIGTERM to the lingering cook); the pending message relaunches
  assert.deepEqual(await kitchen.stop('api-2'), { kind: 'signalled', run: 1 })
  await until(async () => {
    const v = await kitchen.view('api-2')
    return v.state.kind === 'idle' && v.state.run === 2
  }, 'api-2 run 2 done')
})

test('a queued task is held by stop; a newer message resumes it; send to a task behind the cap answers queued', async (t) => {
  const { root, kitchen } = await setup({ maxCooks: 1 })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'busy', brief: '@fake: hang' }, { title: 'waiting', brief: '@fake: done=resumed' }] })
  assert.equal((await kitchen.view('api-2')).state.kind, 'queued')
  assert.deepEqual(await kitchen.stop('api-2'), { kind: 'held', run: 1 })
  assert.deepEqual((await kitchen.view('api-2')).state.outcome, { kind: 'stopped' })
  assert.deepEqual(await kitchen.send('api-2', 'go ahead'), { kind: 'queued' })
  await kitchen.stop('api-1')
  const v = await until(async () => {
    const x = await kitchen.view('api-2')
    return x.state.kind === 'idle' && x.state.outcome.kind === 'done' ? x : undefined
  }, 'api-2 done')
  assert.equal(v.state.outcome.summary, 'resumed')
  const p = readFileSync(join(root, 'tasks', 'api-2', 'runs', '1.prompt.md'), 'utf8')
  assert.match(p, /waiting/)
  assert.match(p, /go ahead/)
})

test('a wake the chef dropped is sent again and marked notified once; snapshots change only when the board does', async (t) => {
  let drops = 1
  const seen = []
  const { root, kitchen, snapshots } = await setup({}, {
    deliver: async (w) => {
      seen.push(w)
      if (drops-- > 0) return false
      return true
    },
  })
  t.after(() => kitchen.shutdown())
  // the cook cooks until a message comes, so a snapshot shows it cooking however slow the machine is
  await kitchen.dispatch({ project: 'api', title: 'wake me', brief: '@fake: steer=60000 done=woken' })
  await until(() => snapshots.some((s) => s.tasks.some((x) => x.state === 'cooking')), 'a cooking snapshot')
  await kitchen.send('api-1', 'finish')
  await settled(kitchen, 'api-1')
  await until(() => logOf(root, 'api-1').some((e) => e.type === 'notified'), 'notified')
  assert.equal(seen.length, 2)
  assert.equal(seen[0].text, seen[1].text)
  await sleep(200)
  assert.equal(seen.length, 2)
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'notified').map((e) => e.run), [1])
  const states = snapshots.map((s) => s.tasks.map((x) => x.state).join(','))
  assert.ok(states.includes('cooking') && states.at(-1) === 'idle')
  for (let i = 1; i < snapshots.length; i++) assert.notDeepEqual(snapshots[i], snapshots[i - 1])
  const last = snapshots.at(-1).tasks[0]
  assert.equal(last.outcome.kind, 'done')
  assert.equal(last.transcript, join(root, 'tasks', 'api-1', 'runs', '1.jsonl'))
  await kitchen.shutdown()
  assert.deepEqual(snapshots.at(-1), { version: 1, sessionId: kitchen.sessionId, role: 'off', tasks: [] })
})

test('a read-only session promotes by itself on its interval tick and hands over the owner', async (t) => {
  const reg = owners()
  const { root } = kitchenRoot()
  const a = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive })
  let promoted
  const snaps = []
  const opened = await openKitchen(root, {
    cookCommand: COOK_COMMAND, identity: reg.identity(), holderAlive: reg.holderAlive, tickMs: 30,
    promoted: (k) => (promoted = k), emit: (s) => snaps.push(s),
  })
  assert.equal(opened.kind, 'read-only')
  await until(() => snaps.some((s) => s.role === 'read-only'), 'read-only snapshot')
  assert.equal(promoted, undefined)
  reg.alive.delete(a.kitchen.lease.pid) // the holder dies
  a.kitchen.dispose()
  const k = await until(() => promoted, 'promoted')
  t.after(() => k.shutdown())
  assert.equal(k.lease.sessionId, opened.reader.sessionId)
  await until(() => snaps.some((s) => s.role === 'owner'), 'owner snapshot')
})

test('the host\'s cook template launches, read at each launch; a bad template is a launch failure that names the fix', async (t) => {
  const template = { argv: [...COOK_COMMAND, '--from-host=1'] }
  const { root, kitchen } = await setup({}, { cookCommand: () => template.argv })
  t.after(() => kitchen.shutdown())
  await kitchen.dispatch({ project: 'api', title: 'templated', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  assert.ok(session(root, 'api-1')[0].argv.includes('--from-host=1'))
  template.argv = [process.execPath, 'cook.mjs', '--model', '{model}', '--prompt-file={promptFile}']
  const d = await kitchen.dispatch({ project: 'api', title: 'bad template', brief: '@fake: done' })
  assert.equal(d.tasks[0].state, 'failed')
  assert.match(d.tasks[0].reason, /\{model\} must share its element with the flag, e\.g\. "--model=\{model\}"/)
})
