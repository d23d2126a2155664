// The kitchen trusts nothing it reads back: task files edited by hand or by a confused agent, and
// symlinks planted in the kitchen, never make it write outside the kitchen, delete the base branch,
// or remove another task's worktree.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Store } from '../../dist/src/kitchen/index.js'
import { FAST_CONFIG, git, makeRepo, ownerKitchen, settled, tempDir, until, writeConfig } from './support.mjs'

async function setup(t) {
  const dir = tempDir('kitchen-hostile-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const outside = join(dir, 'outside')
  mkdirSync(outside)
  const k = await ownerKitchen(root)
  const state = { kitchen: k.kitchen }
  t.after(async () => {
    await state.kitchen.shutdown()
    rmSync(dir, { recursive: true, force: true })
  })
  await k.kitchen.addProject({ path: api })
  /** A new owner on the same kitchen, as after a restart: it reads every task file afresh. */
  state.reopen = async () => {
    await state.kitchen.shutdown()
    state.kitchen = (await ownerKitchen(root)).kitchen
    return state.kitchen
  }
  return { dir, root, api, outside, state, kitchen: k.kitchen }
}

const taskFile = (root, id) => join(root, 'tasks', id, 'task.json')
function editTask(root, id, change) {
  const spec = JSON.parse(readFileSync(taskFile(root, id), 'utf8'))
  writeFileSync(taskFile(root, id), JSON.stringify({ ...spec, ...change }, null, 2))
}
const branches = (repo) => git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n').sort()
const broken = (e) => e.code === 'KITCHEN_BROKEN_TASK'

test('a task.json edited to the base branch and another task\'s worktree: close(discard) deletes neither', async (t) => {
  const { root, api, state, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'keep me', brief: '@fake: dirty=keep.txt done' }, { title: 'hostile', brief: '@fake: done' }] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  await kitchen.result('api-1')
  await kitchen.result('api-2')
  editTask(root, 'api-2', { branch: 'main', worktree: join(root, 'worktrees', 'api-1') })
  const k = await state.reopen()
  await assert.rejects(k.close('api-2', { discard: true }), broken)
  await assert.rejects(k.view('api-2'), (e) => broken(e) && /branch "main"/.test(e.message))
  assert.deepEqual(branches(api), ['issue/api-1', 'issue/api-2', 'main'])
  assert.equal(readFileSync(join(root, 'worktrees', 'api-1', 'keep.txt'), 'utf8').length > 0, true)
  assert.match(await k.board(), /api-2 broken: .*branch "main"/)
})

test('a branch of another task in task.json is refused: close(discard) keeps that branch', async (t) => {
  const { root, api, state, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'work', brief: '@fake: commit=w.txt done' }, { title: 'hostile', brief: '@fake: done' }] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  await kitchen.result('api-1')
  editTask(root, 'api-2', { branch: 'issue/api-1' })
  const k = await state.reopen()
  await assert.rejects(k.close('api-2', { discard: true }), (e) => broken(e) && /branch "issue\/api-1" is not the branch of api-2/.test(e.message))
  assert.ok(branches(api).includes('issue/api-1'))
  assert.equal(git(api, 'rev-list', '--count', 'main..issue/api-1').trim(), '1')
})

test('a worktree outside the kitchen\'s worktrees/ is refused: nothing there is removed or created', async (t) => {
  const { dir, root, state, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'task', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  const elsewhere = join(dir, 'elsewhere')
  mkdirSync(elsewhere)
  writeFileSync(join(elsewhere, 'precious.txt'), 'mine')
  editTask(root, 'api-1', { worktree: elsewhere })
  const k = await state.reopen()
  await assert.rejects(k.close('api-1', { discard: true }), (e) => broken(e) && /worktree .* is not .*worktrees\/api-1/.test(e.message))
  await assert.rejects(k.send('api-1', 'go on'), broken)
  assert.deepEqual(readdirSync(elsewhere), ['precious.txt'])
  // a worktree path that climbs out of worktrees/ with .. is the same case
  editTask(root, 'api-1', { worktree: join(root, 'worktrees', '..', '..', 'elsewhere') })
  const k2 = await state.reopen()
  await assert.rejects(k2.close('api-1', { discard: true }), broken)
  assert.deepEqual(readdirSync(elsewhere), ['precious.txt'])
})

test('a symlinked inbox: send writes nothing outside the kitchen', async (t) => {
  const { root, outside, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'task', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  const inbox = join(root, 'tasks', 'api-1', 'inbox')
  rmSync(inbox, { recursive: true })
  mkdirSync(join(outside, 'handled'))
  symlinkSync(outside, inbox)
  await assert.rejects(kitchen.send('api-1', 'write me somewhere else'), (e) => broken(e) && /inbox/.test(e.message))
  assert.deepEqual(readdirSync(outside), ['handled'])
  assert.deepEqual(readdirSync(join(outside, 'handled')), [])
})

test('a symlinked handled/ inside a real inbox: a launch moves no message outside the kitchen', async (t) => {
  const { root, outside, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'task', brief: '@fake: needs_decision' })
  await settled(kitchen, 'api-1')
  const handled = join(root, 'tasks', 'api-1', 'inbox', 'handled')
  rmSync(handled, { recursive: true })
  symlinkSync(outside, handled)
  const sent = await kitchen.send('api-1', 'answer\n@fake: done').then((r) => r, (e) => e)
  assert.ok(sent.kind === 'failed' || broken(sent), JSON.stringify(sent))
  assert.deepEqual(readdirSync(outside), [])
})

test('a symlinked task directory is not followed: broken, never launched, nothing written through it', async (t) => {
  const { root, outside, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'task', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  // a copy of a fresh task, outside the kitchen, linked in as tasks/api-5
  const fake = join(outside, 'api-5')
  mkdirSync(fake)
  for (const sub of ['runs', 'session', 'inbox', join('inbox', 'handled')]) mkdirSync(join(fake, sub))
  const spec = JSON.parse(readFileSync(taskFile(root, 'api-1'), 'utf8'))
  writeFileSync(join(fake, 'task.json'), JSON.stringify({ ...spec, id: 'api-5', branch: 'issue/api-5', worktree: join(root, 'worktrees', 'api-5') }))
  symlinkSync(fake, join(root, 'tasks', 'api-5'))
  const tk = await kitchen.tick()
  assert.ok(tk.errors.some((l) => /task api-5 is broken: .*symlink/.test(l)), tk.errors.join('\n'))
  await assert.rejects(kitchen.view('api-5'), broken)
  await assert.rejects(kitchen.send('api-5', 'hello'), broken)
  await assert.rejects(kitchen.close('api-5', { discard: true }), broken)
  assert.deepEqual(readdirSync(join(fake, 'runs')), [])
  assert.deepEqual(readdirSync(join(fake, 'inbox')), ['handled'])
  assert.ok(!existsSync(join(root, 'worktrees', 'api-5')))
})

test('a symlinked log.jsonl or runs/ is not followed: stop and close append nothing outside', async (t) => {
  const { root, outside, state, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'a', brief: '@fake: done' }, { title: 'b', brief: '@fake: done' }] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  const victim = join(outside, 'victim.txt')
  writeFileSync(victim, 'untouched\n')
  const log = join(root, 'tasks', 'api-1', 'log.jsonl')
  // The log is written when the owner records the settled run; under load that lands after settle.
  await until(() => existsSync(log), 'api-1/log.jsonl')
  renameSync(log, join(outside, 'old-log.jsonl'))
  symlinkSync(victim, log)
  const runs = join(root, 'tasks', 'api-2', 'runs')
  renameSync(runs, join(outside, 'runs'))
  symlinkSync(join(outside, 'runs'), runs)
  const k = await state.reopen()
  await assert.rejects(k.close('api-1', { discard: true }), broken)
  await assert.rejects(k.stop('api-1'), broken)
  await assert.rejects(k.send('api-2', 'again'), broken)
  assert.equal(readFileSync(victim, 'utf8'), 'untouched\n')
  assert.deepEqual(readdirSync(join(outside, 'runs')).sort(), ['1.err', '1.jsonl', '1.prompt.md'])
})

test('a worktree replaced by a symlink to another task\'s worktree: close(discard) leaves the other one alone', async (t) => {
  const { root, api, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', tasks: [{ title: 'keep me', brief: '@fake: dirty=keep.txt done' }, { title: 'hostile', brief: '@fake: done' }] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  const wt2 = join(root, 'worktrees', 'api-2')
  await kitchen.result('api-1')
  rmSync(wt2, { recursive: true, force: true })
  symlinkSync(join(root, 'worktrees', 'api-1'), wt2)
  await assert.rejects(kitchen.close('api-2', { discard: true }), (e) => broken(e) && /symlink/.test(e.message))
  assert.equal(readFileSync(join(root, 'worktrees', 'api-1', 'keep.txt'), 'utf8').length > 0, true)
  assert.ok(branches(api).includes('issue/api-1'))
})

test('ids with .. or slashes name no task and no path', async (t) => {
  const { root, kitchen } = await setup(t)
  await kitchen.dispatch({ project: 'api', title: 'task', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  for (const id of ['../api-1', 'api-1/..', '..', 'api-1/../api-1', '../../tmp/x-1', 'api-1/']) {
    await assert.rejects(kitchen.send(id, 'hi'), (e) => ['KITCHEN_UNKNOWN_TASK', 'KITCHEN_BAD_INPUT'].includes(e.code), id)
    await assert.rejects(kitchen.close(id, { discard: true }), (e) => ['KITCHEN_UNKNOWN_TASK', 'KITCHEN_BAD_INPUT'].includes(e.code), id)
    await assert.rejects(kitchen.result(id), (e) => ['KITCHEN_UNKNOWN_TASK', 'KITCHEN_BAD_INPUT'].includes(e.code), id)
  }
  const store = Store.open(root)
  for (const id of ['../x-1', 'a/../../b-1', '..', 'api-1/..']) {
    assert.throws(() => store.taskDir(id), (e) => e.code === 'KITCHEN_BAD_INPUT', id)
    assert.throws(() => store.worktree(id), (e) => e.code === 'KITCHEN_BAD_INPUT', id)
    assert.throws(() => store.writeMessage(id, 'x', Date.now()), (e) => e.code === 'KITCHEN_BAD_INPUT', id)
  }
  assert.deepEqual(readdirSync(join(root, 'tasks')), ['api-1'])
})

test('git never deletes the base branch or the checked-out branch, and removes only a linked worktree it lists', async (t) => {
  const g = await import('../../dist/src/kitchen/git.js')
  const dir = tempDir('kitchen-hostile-git-')
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const r = makeRepo(dir, 'r')
  git(r, 'branch', 'side')
  await assert.rejects(g.deleteBranch(r, 'main', 'main', true), /base branch; it is never deleted/)
  await assert.rejects(g.deleteBranch(r, 'main', 'side', true), /checked out in/)
  assert.deepEqual(branches(r), ['main', 'side'])
  // the main worktree, a plain directory, and a symlink to a linked worktree (an older kitchen's) are never removed
  await assert.rejects(g.removeWorktree(r, r), /main worktree/)
  const plain = join(dir, 'plain')
  mkdirSync(plain)
  await assert.rejects(g.removeWorktree(r, plain), /not a worktree that git lists/)
  const wt = join(dir, 'wt')
  git(r, 'worktree', 'add', '-q', '-b', 'issue/r-1', wt, 'main')
  writeFileSync(join(wt, 'uncommitted.txt'), 'x')
  const link = join(dir, 'link')
  symlinkSync(wt, link)
  await assert.rejects(g.removeWorktree(r, link), /not a worktree that git lists/)
  assert.ok(existsSync(join(wt, 'uncommitted.txt')))
  assert.ok(existsSync(plain))
  assert.equal(await g.removeWorktree(r, wt), 'removed')
})

test('the branch rule: the id after a slash-ended prefix or the project prefix, never the base branch', async () => {
  const { taskBranchProblem } = await import('../../dist/src/kitchen/domain.js')
  const spec = (branch) => ({ id: 'api-7', branch, baseBranch: 'main' })
  const project = { branchPrefix: 'feat-', baseBranch: 'main' }
  assert.equal(taskBranchProblem(spec('issue/api-7')), undefined)
  assert.equal(taskBranchProblem(spec('chef/api-7'), project), undefined)
  assert.equal(taskBranchProblem(spec('feat-api-7'), project), undefined)
  assert.match(taskBranchProblem(spec('feat-api-7')), /not the branch of api-7/)
  assert.match(taskBranchProblem(spec('main')), /is the base branch/)
  assert.match(taskBranchProblem({ id: 'api-7', branch: 'issue/api-7', baseBranch: 'issue/api-7' }), /is the base branch/)
  assert.match(taskBranchProblem(spec('issue/api-17')), /not the branch of api-7/)
  assert.match(taskBranchProblem(spec('issue/xapi-7')), /not the branch of api-7/)
  assert.match(taskBranchProblem(spec('x/../api-7')), /not a branch name/)
  assert.match(taskBranchProblem(spec('-x/api-7')), /not a branch name/)
})
