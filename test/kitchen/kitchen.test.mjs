import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { FAST_CONFIG, git, makeRepo, ownerKitchen, settled, tempDir, until, writeConfig } from './support.mjs'

async function setup(config = {}) {
  const dir = tempDir()
  const root = join(dir, 'kitchen')
  const { mkdirSync } = await import('node:fs')
  mkdirSync(root)
  writeConfig(root, { ...FAST_CONFIG, ...config })
  const api = makeRepo(dir, 'api')
  const web = makeRepo(dir, 'web')
  const k = await ownerKitchen(root)
  return { dir, root, api, web, ...k }
}

const logOf = (root, id) => readFileSync(join(root, 'tasks', id, 'log.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))

test('two projects; needs_decision, send, commit, done; close refuses unlanded work, then closes and deletes the landed branch', async (t) => {
  const { root, api, web, kitchen, wakes } = await setup()
  t.after(() => kitchen.shutdown())
  const a = await kitchen.addProject({ path: api, note: 'make test' })
  assert.equal(a.text, `Registered api: ${api}, tasks fork from main on branches issue/.`)
  await kitchen.addProject({ path: web, branchPrefix: 'feat/' })

  const d1 = await kitchen.dispatch({ project: 'api', title: 'Rate limit', brief: 'Add a token bucket.\n@fake: needs_decision=cookie_or_bearer?' })
  const d2 = await kitchen.dispatch({ project: 'web', title: 'Redirect', brief: 'Fix it.\n@fake: commit=fix.txt done=fixed_the_redirect' })
  assert.equal(d1.tasks[0].task, 'api-1')
  assert.equal(d1.tasks[0].branch, 'issue/api-1')
  assert.equal(d1.tasks[0].state, 'cooking')
  assert.match(d1.text, /api-1 is cooking on branch issue\/api-1 \(1\/3 cooks busy\)/)
  assert.equal(d2.tasks[0].branch, 'feat/web-1')

  const v1 = await settled(kitchen, 'api-1')
  assert.deepEqual(v1.state.outcome, { kind: 'needs_decision', question: 'cookie or bearer?' })
  const v2 = await settled(kitchen, 'web-1')
  assert.equal(v2.state.outcome.kind, 'done')
  await until(() => wakes.length > 0 && wakes.flatMap((w) => w.runs).length >= 2, 'wakes')
  const text = wakes.map((w) => w.text).join('\n')
  assert.match(text, /api-1 "Rate limit" needs a decision: cookie or bearer\? Answer with chef_send api-1/)
  assert.match(text, /web-1 "Redirect" is done: fixed the redirect/)

  const s = await kitchen.send('api-1', 'Use bearer tokens.\n@fake: commit=limit.go done=token_bucket_in_limit.go')
  assert.equal(s.kind, 'launched')
  assert.equal(s.run, 2)
  const v3 = await settled(kitchen, 'api-1')
  assert.deepEqual(v3.state.outcome, { kind: 'done', summary: 'token bucket in limit.go', reported: true })
  // run 2 got only the message: the session already holds the brief
  const p2 = readFileSync(join(root, 'tasks', 'api-1', 'runs', '2.prompt.md'), 'utf8')
  assert.match(p2, /Use bearer tokens/)
  assert.doesNotMatch(p2, /Add a token bucket/)
  assert.deepEqual(readdirSync(join(root, 'tasks', 'api-1', 'inbox')).filter((n) => n.endsWith('.msg')), [])

  const r = await kitchen.result('api-1')
  assert.equal(r.ahead, 1)
  assert.equal(r.landed, false)
  assert.equal(r.dirty, false)
  assert.match(r.diffstat, /limit\.go/)
  assert.match(r.text, /1 commit ahead of main, not landed/)

  await assert.rejects(kitchen.close('api-1'), (e) => e.code === 'KITCHEN_CLOSE_REFUSED' && /branch issue\/api-1 has 1 commit on neither main/.test(e.message))
  git(api, 'merge', '-q', '--ff-only', 'issue/api-1')
  const c = await kitchen.close('api-1')
  assert.equal(c.worktree, 'removed')
  assert.equal(c.branch, 'deleted')
  assert.ok(!existsSync(join(root, 'worktrees', 'api-1')))
  assert.equal((await kitchen.view('api-1')).state.kind, 'closed')
  // notified exactly once per final run
  await until(async () => logOf(root, 'api-1').filter((e) => e.type === 'notified').length === 2, 'notified')
  assert.deepEqual(logOf(root, 'api-1').filter((e) => e.type === 'notified').map((e) => e.run), [1, 2])
})

test('a second tick does nothing', async (t) => {
  const { api, kitchen, root } = await setup()
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: api })
  // the cook cooks until a message comes, so both ticks see it cooking however slow the machine is
  await kitchen.dispatch({ project: 'api', title: 'x', brief: '@fake: steer=60000 done' })
  await kitchen.tick()
  const before = readdirSync(join(root, 'tasks', 'api-1', 'runs')).sort()
  const t2 = await kitchen.tick()
  assert.deepEqual(readdirSync(join(root, 'tasks', 'api-1', 'runs')).sort(), before)
  assert.equal(t2.views[0].state.kind, 'cooking')
  await kitchen.send('api-1', 'finish')
  await settled(kitchen, 'api-1')
})

test('the board lists projects, open tasks and the rulebook selection', async (t) => {
  const { api, kitchen, root } = await setup({ rulebook: { default: 'pstack', projects: { api: 'none' } } })
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: api, note: 'Go service, run make test' })
  await kitchen.dispatch({ project: 'api', title: 'Board me', brief: '@fake: needs_decision=which_one?' })
  await settled(kitchen, 'api-1')
  const board = await kitchen.board()
  assert.match(board, /api: .*api, base main, branches issue\/<id>\. Go service, run make test/)
  assert.match(board, /Rulebook: pstack\. Per project: api none\./)
  assert.match(board, /api-1/)
  assert.match(board, /needs decision: which one\?/)
  void root
})

test('a cook that crashes mid-run fails the run with cause crash and wakes the chef; a send retries', async (t) => {
  const { api, kitchen, wakes } = await setup()
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: api })
  await kitchen.dispatch({ project: 'api', title: 'Crashy', brief: '@fake: tool=npm_test crash' })
  const v = await settled(kitchen, 'api-1')
  assert.equal(v.state.outcome.kind, 'failed')
  assert.equal(v.state.outcome.cause, 'crash')
  assert.match(v.state.outcome.reason, /the cook exited before settling/)
  await until(() => wakes.some((w) => /api-1 "Crashy" failed: the cook exited before settling/.test(w.text)), 'crash wake')
  assert.deepEqual(await kitchen.send('api-1', 'try again\n@fake: done=second_try'), { kind: 'launched', run: 2 })
  const v2 = await settled(kitchen, 'api-1')
  assert.equal(v2.state.outcome.summary, 'second try')
})
