// The kitchen's git on real temp repositories: a cook's clone (its own repository, the project's
// objects borrowed read-only), the branch brought back by a fast-forward fetch only, the clone's
// state read without running git in it, landing, and branch deletion.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import * as g from '../../dist/src/kitchen/git.js'
import { tempDir } from './support.mjs'

function sh(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
}
function repo() {
  const dir = tempDir('kgit-')
  const r = join(dir, 'repo')
  execFileSync('git', ['init', '-q', '-b', 'main', r])
  writeFileSync(join(r, 'a.txt'), 'a\n')
  sh(r, 'add', '.')
  sh(r, 'commit', '-q', '-m', 'init')
  mkdirSync(join(dir, 'k'))
  return { dir, r, wt: join(dir, 'k', 'p-1'), index: join(dir, 'k', 'p-1.index') }
}
function commitIn(dir, file, text) {
  writeFileSync(join(dir, file), text)
  sh(dir, 'add', '.')
  sh(dir, 'commit', '-q', '-m', `change ${file}`)
}
const tip = (r, b) => sh(r, 'rev-parse', `refs/heads/${b}`).trim()

test('a clone of its own: made once, present after, its own .git, the project\'s objects borrowed and never written', async () => {
  const { r, wt } = repo()
  const objectsBefore = sh(r, 'count-objects', '-v')
  assert.equal(await g.ensureClone(r, wt, 'issue/p-1', 'main'), 'created')
  assert.equal(await g.ensureClone(r, wt, 'issue/p-1', 'main'), 'present')
  assert.equal(g.cloneKind(wt), 'clone')
  assert.equal(sh(wt, 'symbolic-ref', 'HEAD').trim(), 'refs/heads/issue/p-1')
  assert.equal(readFileSync(join(wt, '.git', 'objects', 'info', 'alternates'), 'utf8').trim(), join(r, '.git', 'objects'))
  assert.equal(readFileSync(join(wt, 'a.txt'), 'utf8'), 'a\n')
  // the project has no task branch until the kitchen brings it back; the cook's commit lives in the clone
  commitIn(wt, 'b.txt', 'b\n')
  assert.equal(sh(r, 'branch', '--list', 'issue/p-1').trim(), '')
  assert.equal(sh(r, 'count-objects', '-v'), objectsBefore, 'no object was written into the project')
  // gone: made again from the project's branch once it has one
  assert.equal((await g.bringBack(r, wt, 'issue/p-1')).kind, 'updated')
  rmSync(wt, { recursive: true, force: true })
  assert.equal(await g.ensureClone(r, wt, 'issue/p-1', 'main'), 'created')
  assert.ok(existsSync(join(wt, 'b.txt')), 'the branch\'s commit is in the new clone')
})

test('a clone path that is a plain directory or an older linked worktree is refused with the fix named; a missing base too', async () => {
  const { r, wt, dir } = repo()
  mkdirSync(wt)
  writeFileSync(join(wt, 'x'), 'x')
  await assert.rejects(g.ensureClone(r, wt, 'issue/p-1', 'main'), /exists and is not a clone.*move it away/)
  const linked = join(dir, 'k', 'p-2')
  sh(r, 'worktree', 'add', '-q', '-b', 'issue/p-2', linked, 'main')
  await assert.rejects(g.ensureClone(r, linked, 'issue/p-2', 'main'), /linked worktree of an older kitchen/)
  await assert.rejects(g.ensureClone(r, join(dir, 'k', 'p-3'), 'issue/p-3', 'nope'), /base branch nope does not exist/)
  assert.ok(!existsSync(join(dir, 'k', 'p-3')), 'nothing half-made is left')
})

test('bringing back: a fast-forward only; a rewritten clone branch is refused and the project keeps its tip', async () => {
  const { r, wt } = repo()
  await g.ensureClone(r, wt, 'issue/p-1', 'main')
  assert.equal((await g.bringBack(r, wt, 'issue/p-1')).kind, 'updated', 'the first fetch makes the branch')
  commitIn(wt, 'b.txt', 'b\n')
  const b = await g.bringBack(r, wt, 'issue/p-1')
  assert.deepEqual([b.kind, b.tip], ['updated', tip(wt, 'issue/p-1')])
  assert.equal((await g.bringBack(r, wt, 'issue/p-1')).kind, 'same')
  // the cook rewinds its branch to main: the project's branch is not moved back
  const kept = tip(r, 'issue/p-1')
  sh(wt, 'reset', '-q', '--hard', 'main')
  const back = await g.bringBack(r, wt, 'issue/p-1')
  assert.equal(back.kind, 'behind', 'the clone is behind the project: nothing is lost')
  assert.equal(tip(r, 'issue/p-1'), kept)
  // a commit on another line: rewritten, refused
  commitIn(wt, 'c.txt', 'c\n')
  const rw = await g.bringBack(r, wt, 'issue/p-1')
  assert.equal(rw.kind, 'rewritten')
  assert.equal(rw.tip, kept)
  assert.equal(rw.cloneTip, tip(wt, 'issue/p-1'))
  assert.equal(tip(r, 'issue/p-1'), kept)
  // no clone, or no such branch in it
  assert.equal((await g.bringBack(r, join(wt, 'nope'), 'issue/p-1')).kind, 'no-clone')
  sh(wt, 'checkout', '-q', '-b', 'other')
  sh(wt, 'branch', '-q', '-D', 'issue/p-1')
  assert.equal((await g.bringBack(r, wt, 'issue/p-1')).kind, 'no-branch')
})

test('a branch checked out in the project is never fetched into: the person\'s checkout and index stay', async () => {
  const { r, wt } = repo()
  await g.ensureClone(r, wt, 'issue/p-1', 'main')
  await g.bringBack(r, wt, 'issue/p-1')
  sh(r, 'checkout', '-q', 'issue/p-1')
  commitIn(wt, 'b.txt', 'b\n')
  const back = await g.bringBack(r, wt, 'issue/p-1')
  assert.equal(back.kind, 'failed')
  assert.match(back.reason, /checked out|refusing/i)
  assert.equal(sh(r, 'status', '--porcelain').trim(), '')
})

test('the clone\'s state without running git in it: clean, uncommitted and untracked changes, detached HEAD, a hostile config', async () => {
  const { r, wt, index } = repo()
  await g.ensureClone(r, wt, 'issue/p-3', 'main')
  let t = (await g.bringBack(r, wt, 'issue/p-3')).tip
  assert.deepEqual(await g.cloneState(r, wt, t, index), { exists: true, kind: 'clone', dirty: false, changes: [], head: 'issue/p-3', rebasing: false })
  writeFileSync(join(wt, 'new.txt'), 'n')
  writeFileSync(join(wt, 'a.txt'), 'changed\n')
  const s = await g.cloneState(r, wt, t, index)
  assert.equal(s.dirty, true)
  assert.deepEqual(s.changes.sort(), ['?? new.txt', 'M a.txt'])
  rmSync(join(wt, 'new.txt'))
  sh(wt, 'checkout', '-q', 'a.txt')
  // the cook's .git/config runs nothing of the kitchen's: an fsmonitor command and a clean filter
  // that would leave a mark, and a hook
  writeFileSync(join(wt, '.gitattributes'), '* filter=x\n')
  commitIn(wt, '.gitattributes', '* filter=x\n')
  t = (await g.bringBack(r, wt, 'issue/p-3')).tip
  const mark = join(wt, '..', 'ran')
  sh(wt, 'config', 'core.fsmonitor', `touch ${mark}; false`)
  sh(wt, 'config', 'filter.x.clean', `touch ${mark}; cat`)
  writeFileSync(join(wt, '.git', 'hooks', 'reference-transaction'), `#!/bin/sh\ntouch ${mark}\n`, { mode: 0o755 })
  writeFileSync(join(wt, 'a.txt'), 'a\n') // a fresh mtime: a racy entry git would clean again
  assert.equal((await g.cloneState(r, wt, t, index)).dirty, false)
  assert.equal((await g.bringBack(r, wt, 'issue/p-3')).kind, 'same')
  assert.ok(!existsSync(mark), 'the clone\'s config and hooks ran nothing')
  sh(wt, '-c', 'core.fsmonitor=false', '-c', 'filter.x.clean=cat', 'checkout', '-q', '--detach')
  const d = await g.cloneState(r, wt, t, index)
  assert.equal(d.head, undefined)
  rmSync(mark, { force: true })
})

test('landed by base: not landed with a commit ahead, landed after the merge; the branch is deleted only then', async () => {
  const { r, wt } = repo()
  await g.ensureClone(r, wt, 'issue/p-1', 'main')
  commitIn(wt, 'b.txt', 'b\n')
  await g.bringBack(r, wt, 'issue/p-1')
  let l = await g.landing(r, 'issue/p-1', 'main')
  assert.deepEqual([l.exists, l.ahead, l.byBase, l.byRemote], [true, 1, false, undefined])
  assert.match(await g.diffstat(r, 'issue/p-1', 'main'), /b\.txt \| 1 \+/)
  assert.equal(await g.removeClone(r, wt), 'removed')
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'kept')
  sh(r, 'merge', '-q', '--ff-only', 'issue/p-1')
  l = await g.landing(r, 'issue/p-1', 'main')
  assert.deepEqual([l.ahead, l.byBase], [0, true])
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'deleted')
  assert.equal(await g.branchCommit(r, 'issue/p-1'), undefined)
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'already-gone')
  assert.equal(await g.removeClone(r, wt), 'already-gone')
})

test('landed by a remote-tracking ref, and a stale remote-tracking ref never deletes the branch', async () => {
  const { dir, r, wt } = repo()
  const remote = join(dir, 'remote.git')
  execFileSync('git', ['init', '-q', '--bare', remote])
  sh(r, 'remote', 'add', 'origin', remote)
  await g.ensureClone(r, wt, 'issue/p-2', 'main')
  commitIn(wt, 'c.txt', 'c\n')
  await g.bringBack(r, wt, 'issue/p-2')
  sh(r, 'push', '-q', 'origin', 'issue/p-2')
  const l = await g.landing(r, 'issue/p-2', 'main')
  assert.equal(l.byBase, false)
  assert.equal(l.byRemote, 'origin/issue/p-2')
  // The remote branch is deleted upstream, but the local tracking ref is stale (no fetch): kept.
  execFileSync('git', ['--git-dir', remote, 'update-ref', '-d', 'refs/heads/issue/p-2'])
  assert.equal((await g.landing(r, 'issue/p-2', 'main')).byRemote, 'origin/issue/p-2')
  assert.equal(await g.deleteBranch(r, 'issue/p-2', 'main', false), 'kept')
  assert.ok(await g.branchCommit(r, 'issue/p-2'))
  assert.equal(await g.deleteBranch(r, 'issue/p-2', 'main', true), 'deleted')
})

test('a base branch\'s tree checked out on its own, from the project\'s objects', async () => {
  const { dir, r } = repo()
  sh(r, 'checkout', '-q', '-b', 'side')
  commitIn(r, 'side.txt', 's\n')
  const out = join(dir, 'tree')
  mkdirSync(out)
  await g.checkoutTree(r, tip(r, 'main'), out)
  assert.equal(readFileSync(join(out, 'a.txt'), 'utf8'), 'a\n')
  assert.ok(!existsSync(join(out, 'side.txt')), 'only main\'s files')
  assert.equal(sh(r, 'status', '--porcelain').trim(), '', 'the checkout of the project is untouched')
})

test('branch names go through git check-ref-format --branch; a dash-leading ref is never an option', async () => {
  const { r } = repo()
  assert.equal(await g.checkBranchName(r, 'issue/api-7'), 'issue/api-7')
  assert.equal(await g.checkBranchName(r, 'bad..name-1'), undefined)
  assert.equal(await g.checkBranchName(r, 'x y-1'), undefined)
  assert.equal(await g.checkBranchName(r, '-x'), undefined)
  assert.equal(await g.branchCommit(r, '--help'), undefined)
  assert.equal((await g.landing(r, '--all', 'main')).exists, false)
})

test('parseWorktreeList reads the porcelain -z records', () => {
  const text = 'worktree /a\0HEAD 1\0branch refs/heads/main\0\0worktree /b\0HEAD 2\0detached\0prunable gitdir file points to non-existent location\0\0'
  assert.deepEqual(g.parseWorktreeList(text), [
    { path: '/a', branch: 'main', detached: false, prunable: false },
    { path: '/b', detached: true, prunable: true },
  ])
})
