// What the kitchen says is what it saw, with real fake-cook processes: a wake gives the kitchen's
// own facts (commits on the branch, the project's test command, the tool calls that failed) beside
// a cook's claim of done; a chef that comes back to cooks still cooking says it restarted, once,
// in whatever wake comes first; an owner whose lease another session took is read-only the moment
// anyone asks, before any write of its own.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { openKitchen } from '../../dist/src/kitchen/index.js'
import { COOK_COMMAND, FAST_CONFIG, crash, makeRepo, owners, ownerKitchen, settled, tempDir, until, writeConfig } from './support.mjs'

function kitchenRoot() {
  const dir = tempDir()
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  return { dir, root, api: makeRepo(dir, 'api') }
}

const sh = (command) => `sh=${Buffer.from(command).toString('base64')}`

test('a cook that says it is done with no commit and a failed command: the wake says what the kitchen saw', async (t) => {
  const { root, api } = kitchenRoot()
  const { kitchen, wakes } = await ownerKitchen(root, { testCommand: () => 'make test' })
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: api })
  // a command that ends as dsh's bash tool ends one it timed out, then a claim that all is well
  const timedOut = sh('echo compiling; echo "[timed out after 60000ms]"; exit 124')
  await kitchen.dispatch({ project: 'api', title: 'Claims', brief: `@fake: ${timedOut} done=all_tests_pass` })
  await settled(kitchen, 'api-1')
  const wake = await until(() => wakes.find((w) => w.text.includes('api-1')), 'the wake of api-1')
  assert.match(wake.text, /- api-1 "Claims" says it is done: all tests pass\. The kitchen saw: /)
  assert.match(wake.text, new RegExp('The kitchen saw: no commits on issue/api-1; the test command `make test` not run; ' +
    '1 tool call failed, the last `bash: [^`]*exit 124` \\(\\[timed out after 60000ms\\]\\)\\.'))
  assert.doesNotMatch(wake.text, /"Claims" is done/, 'the kitchen does not call it done')
})

test('a cook that commits and runs the test command: the wake says so, and calls it done', async (t) => {
  const { root, api } = kitchenRoot()
  const { kitchen, wakes } = await ownerKitchen(root, { testCommand: () => 'make test' })
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: api })
  await kitchen.dispatch({ project: 'api', title: 'Real work', brief: '@fake: commit=limit.go tool=make_test done=limit_in_place' })
  await settled(kitchen, 'api-1')
  const wake = await until(() => wakes.find((w) => w.text.includes('api-1')), 'the wake of api-1')
  assert.ok(wake.text.includes('- api-1 "Real work" is done: limit in place. ' +
    'The kitchen saw: new commits on issue/api-1; the test command `make test` passed. Review with chef_result api-1.'), wake.text)
})

test('a chef that comes back while a cook still cooks starts its first wake with the restart line, once', async (t) => {
  const reg = owners()
  const ctl = reg.faults()
  const idA = reg.identity()
  const { root, api } = kitchenRoot()
  const a = await ownerKitchen(root, { identity: idA, holderAlive: reg.holderAlive, fault: ctl.fault })
  await a.kitchen.addProject({ path: api })
  await a.kitchen.dispatch({ project: 'api', title: 'long', brief: '@fake: steer=60000 done=long' })
  await until(async () => (await a.kitchen.view('api-1')).state.kind === 'cooking', 'api-1 cooking')
  await crash(a.kitchen, ctl, idA.pid, reg)
  // B comes back with nothing to tell yet: the cook still cooks. Its first wake is dropped once.
  let drops = 1
  const tried = []
  const b = await ownerKitchen(root, {
    identity: reg.identity(), holderAlive: reg.holderAlive,
    deliver: async (w) => {
      tried.push(w)
      return drops-- <= 0
    },
  })
  t.after(() => b.kitchen.shutdown())
  assert.equal((await b.kitchen.view('api-1')).state.kind, 'cooking')
  assert.deepEqual(await b.kitchen.send('api-1', 'finish'), { kind: 'steered', run: 1 })
  await settled(b.kitchen, 'api-1')
  await until(() => tried.length >= 2, 'the wake, sent again after the drop')
  for (const w of tried.slice(0, 2)) assert.match(w.text, /^Chef restarted: 1 cook still cooking\.\n\nKitchen update \(1\):\n- api-1 "long" /)
  // the line is said once: the next wake has none
  await b.kitchen.dispatch({ project: 'api', title: 'next', brief: '@fake: done=next' })
  await settled(b.kitchen, 'api-2')
  const next = await until(() => tried.find((w) => w.text.includes('api-2')), 'the wake of api-2')
  assert.match(next.text, /^Kitchen update \(1\):\n- api-2 "next"/)
  assert.equal(a.wakes.length, 0)
})

test('an owner whose lease another session took is read-only as soon as anyone asks, before any write', async (t) => {
  const reg = owners()
  const { root, api } = kitchenRoot()
  const handed = []
  // no interval tick: nothing but the question finds the lease gone
  const a = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive, tickMs: 0, demoted: (reader) => handed.push(reader) })
  await a.kitchen.addProject({ path: api })
  assert.deepEqual(a.kitchen.standing(), { kind: 'owner' })
  const c = await openKitchen(root, { cookCommand: COOK_COMMAND, identity: reg.identity(), holderAlive: reg.holderAlive, tickMs: 0 }, { takeover: true })
  assert.equal(c.kind, 'owner')
  t.after(() => c.kitchen.shutdown())
  const s = a.kitchen.standing()
  assert.equal(s.kind, 'read-only')
  assert.equal(s.holder.sessionId, c.kitchen.sessionId)
  assert.equal(a.kitchen.lost, true)
  assert.equal(handed.length, 1, 'the host got its reader at once')
  assert.equal(handed[0].standing().holder.sessionId, c.kitchen.sessionId)
  handed[0].dispose()
  assert.equal(a.snapshots.at(-1).role, 'read-only')
  const refused = (e) => e.code === 'KITCHEN_LEASE_LOST' && e.message.includes(c.kitchen.sessionId)
  await assert.rejects(a.kitchen.dispatch({ project: 'api', title: 'x', brief: 'y' }), refused)
  assert.deepEqual(readdirSync(join(root, 'tasks')), [])
})
