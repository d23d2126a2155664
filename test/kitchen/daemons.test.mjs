// A cook's whole process tree ends on stop and close: daemons that left its process group with
// setsid, and ones a double fork handed to init. With a control group per run (where this system
// lets the kitchen make one) and with the fallback that finds them by their run's marker.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FAST_CONFIG, makeRepo, ownerKitchen, processGone, settled, tempDir, until, writeConfig } from './support.mjs'

async function setup(t, extra) {
  const dir = tempDir('kitchen-daemons-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const k = await ownerKitchen(root, extra)
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, ...k }
}

const pidIn = (root, id, name) => {
  const f = join(root, 'tasks', id, 'session', name)
  return existsSync(f) && readFileSync(f, 'utf8').trim() !== '' ? Number(readFileSync(f, 'utf8')) : undefined
}

const linux = process.platform === 'linux' ? false : 'finding a cook\'s daemons needs /proc (Linux)'

for (const [mode, extra] of [['a cgroup per run', {}], ['the marker fallback', { cgroups: false }]]) {
  test(`${mode}: stop ends a cooking cook's setsid and double-fork daemons`, { skip: linux }, async (t) => {
    const { root, kitchen } = await setup(t, extra)
    await kitchen.dispatch({ project: 'api', title: 'Starts daemons', brief: '@fake: daemon daemon2 hang' })
    const d1 = await until(() => pidIn(root, 'api-1', 'daemon.pid'), 'the setsid daemon')
    const d2 = await until(() => pidIn(root, 'api-1', 'daemon2.pid'), 'the double-fork daemon')
    const cook = (await until(async () => (await kitchen.view('api-1')).live, 'the cook')).pid
    assert.ok(!processGone(d1) && !processGone(d2))
    assert.deepEqual(await kitchen.stop('api-1'), { kind: 'stopping', run: 1 })
    await until(() => processGone(cook) && processGone(d1) && processGone(d2), 'the cook and both daemons gone')
    assert.equal((await settled(kitchen, 'api-1')).state.outcome.kind, 'stopped')
  })

  test(`${mode}: close ends what a finished run left running, before the clone goes`, { skip: linux }, async (t) => {
    const { root, kitchen } = await setup(t, extra)
    await kitchen.dispatch({ project: 'api', title: 'Leaves a daemon', brief: '@fake: daemon daemon2 done' })
    await settled(kitchen, 'api-1')
    const d1 = pidIn(root, 'api-1', 'daemon.pid')
    const d2 = pidIn(root, 'api-1', 'daemon2.pid')
    assert.ok(d1 && d2 && !processGone(d1) && !processGone(d2), 'the daemons outlive their run')
    const c = await kitchen.close('api-1', { discard: true })
    assert.match(c.text, /2 leftover processes of its runs ended/)
    await until(() => processGone(d1) && processGone(d2), 'both daemons gone')
    assert.ok(!existsSync(join(root, 'worktrees', 'api-1')))
  })
}

test('stop of a task that is not cooking ends the daemons its last run left', { skip: linux }, async (t) => {
  const { root, kitchen } = await setup(t, {})
  await kitchen.dispatch({ project: 'api', title: 'Leaves a daemon', brief: '@fake: daemon done' })
  await settled(kitchen, 'api-1')
  const d = pidIn(root, 'api-1', 'daemon.pid')
  assert.ok(!processGone(d))
  assert.deepEqual(await kitchen.stop('api-1'), { kind: 'not-cooking', ended: 1 })
  await until(() => processGone(d), 'the daemon gone')
})

test('a daemon that cleared its environment and left the clone: only the run\'s control group knows it, and stop ends it', { skip: linux }, async (t) => {
  const { root, kitchen } = await setup(t, {})
  await kitchen.dispatch({ project: 'api', title: 'Hides a daemon', brief: '@fake: daemon3 hang' })
  const d = await until(() => pidIn(root, 'api-1', 'daemon3.pid'), 'the hidden daemon')
  const launch = readFileSync(join(root, 'tasks', 'api-1', 'log.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'launch')
  if (!launch.cgroup) {
    t.skip('this system gives the kitchen no control group')
    await kitchen.stop('api-1')
    process.kill(d, 'SIGKILL')
    return
  }
  assert.ok(readFileSync(join(launch.cgroup, 'cgroup.procs'), 'utf8').split('\n').includes(String(d)), 'born inside the run\'s group')
  await kitchen.stop('api-1')
  await until(() => processGone(d), 'the hidden daemon gone')
})
