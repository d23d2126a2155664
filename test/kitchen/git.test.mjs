import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
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
  return { dir, r, wt: join(dir, 'wt') }
}
function commitIn(dir, file, text) {
  writeFileSync(join(dir, file), text)
  sh(dir, 'add', '.')
  sh(dir, 'commit', '-q', '-m', `change ${file}`)
}

test('ensure worktree twice: created, then present, then re-attached after the directory is gone', async () => {
  const { r, wt } = repo()
  assert.equal(await g.ensureWorktree(r, wt, 'issue/p-1', 'main'), 'created')
  assert.equal(await g.ensureWorktree(r, wt, 'issue/p-1', 'main'), 'present')
  assert.equal(await g.currentBranch(wt), 'issue/p-1')
  rmSync(wt, { recursive: true, force: true })
  assert.equal(await g.ensureWorktree(r, wt, 'issue/p-1', 'main'), 'attached')
  assert.equal(await g.currentBranch(wt), 'issue/p-1')
})

test('a worktree path that is a plain directory is refused with the fix named', async () => {
  const { r, wt } = repo()
  execFileSync('mkdir', ['-p', wt])
  writeFileSync(join(wt, 'x'), 'x')
  await assert.rejects(g.ensureWorktree(r, wt, 'issue/p-1', 'main'), /exists and is not a worktree.*move it away/)
})

test('a missing base branch is refused', async () => {
  const { r, wt } = repo()
  await assert.rejects(g.ensureWorktree(r, wt, 'issue/p-1', 'nope'), /base branch nope does not exist/)
})

test('landed by base: not landed with a commit ahead, landed after the merge; the branch is deleted only then', async () => {
  const { r, wt } = repo()
  await g.ensureWorktree(r, wt, 'issue/p-1', 'main')
  commitIn(wt, 'b.txt', 'b\n')
  let l = await g.landing(r, 'issue/p-1', 'main')
  assert.deepEqual([l.exists, l.ahead, l.byBase, l.byRemote], [true, 1, false, undefined])
  assert.match(await g.diffstat(r, 'issue/p-1', 'main'), /b\.txt \| 1 \+/)
  assert.equal(await g.removeWorktree(r, wt), 'removed')
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'kept')
  sh(r, 'merge', '-q', '--ff-only', 'issue/p-1')
  l = await g.landing(r, 'issue/p-1', 'main')
  assert.deepEqual([l.ahead, l.byBase], [0, true])
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'deleted')
  assert.equal(await g.branchCommit(r, 'issue/p-1'), undefined)
  assert.equal(await g.deleteBranch(r, 'issue/p-1', 'main', false), 'already-gone')
})

test('landed by a remote-tracking ref, and a stale remote-tracking ref never deletes the branch', async () => {
  const { dir, r, wt } = repo()
  const remote = join(dir, 'remote.git')
  execFileSync('git', ['init', '-q', '--bare', remote])
  sh(r, 'remote', 'add', 'origin', remote)
  await g.ensureWorktree(r, wt, 'issue/p-2', 'main')
  commitIn(wt, 'c.txt', 'c\n')
  sh(wt, 'push', '-q', 'origin', 'issue/p-2')
  const l = await g.landing(r, 'issue/p-2', 'main')
  assert.equal(l.byBase, false)
  assert.equal(l.byRemote, 'origin/issue/p-2')
  // The remote branch is deleted upstream, but the local tracking ref is stale (no fetch): kept.
  execFileSync('git', ['--git-dir', remote, 'update-ref', '-d', 'refs/heads/issue/p-2'])
  assert.equal((await g.landing(r, 'issue/p-2', 'main')).byRemote, 'origin/issue/p-2')
  await g.removeWorktree(r, wt)
  assert.equal(await g.deleteBranch(r, 'issue/p-2', 'main', false), 'kept')
  assert.ok(await g.branchCommit(r, 'issue/p-2'))
  assert.equal(await g.deleteBranch(r, 'issue/p-2', 'main', true), 'deleted')
})

test('dirty worktree and detached HEAD are seen; a detached HEAD is off the branch', async () => {
  const { r, wt } = repo()
  await g.ensureWorktree(r, wt, 'issue/p-3', 'main')
  assert.deepEqual(await g.worktreeState(wt), { exists: true, dirty: false, head: 'issue/p-3', rebasing: false })
  writeFileSync(join(wt, 'new.txt'), 'n')
  assert.equal((await g.worktreeState(wt)).dirty, true)
  rmSync(join(wt, 'new.txt'))
  sh(wt, 'checkout', '-q', '--detach')
  const s = await g.worktreeState(wt)
  assert.equal(s.head, undefined)
  assert.equal(s.dirty, false)
  // ensure sees the detached worktree as not on the branch
  await assert.rejects(g.ensureWorktree(r, wt, 'issue/p-3', 'main'), /not on issue\/p-3/)
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

test('removing a missing worktree is already-gone', async () => {
  const { r, wt } = repo()
  await g.ensureWorktree(r, wt, 'issue/p-4', 'main')
  rmSync(wt, { recursive: true, force: true })
  assert.equal(await g.removeWorktree(r, wt), 'already-gone')
  assert.ok(!existsSync(wt))
})

test('parseWorktreeList reads the porcelain -z records', () => {
  const text = 'worktree /a\0HEAD 1\0branch refs/heads/main\0\0worktree /b\0HEAD 2\0detached\0prunable gitdir file points to non-existent location\0\0'
  assert.deepEqual(g.parseWorktreeList(text), [
    { path: '/a', branch: 'main', detached: false, prunable: false },
    { path: '/b', detached: true, prunable: true },
  ])
})
