// The git recipes, run for real in throwaway repositories (a bare repository stands in for the remote).
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFile, mkdir, access } from 'node:fs/promises'
import { join } from 'node:path'
import { render, runRecipe, runUndo, sh, tempDir, assertBashSyntax } from './harness.mjs'

const gitEnv = {
  GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1',
}

async function git(cwd, command) {
  const r = await sh(`git ${command}`, { cwd, env: gitEnv })
  assert.equal(r.code, 0, `git ${command}: ${r.stderr}`)
  return r.stdout.trim()
}

/** A repository with commits `first` (a.txt) and `second` (b.txt) on main; with `remote`, pushed to a bare origin. */
async function repo(t, { remote = false } = {}) {
  const dir = await tempDir(t, 'scout-git-')
  const work = join(dir, 'work')
  await mkdir(work)
  await git(work, 'init -q -b main')
  await writeFile(join(work, 'a.txt'), 'alpha\n')
  await git(work, 'add a.txt')
  await git(work, 'commit -q -m first')
  await writeFile(join(work, 'b.txt'), 'beta\n')
  await git(work, 'add b.txt')
  await git(work, 'commit -q -m second')
  if (remote) {
    await git(dir, 'init -q --bare -b main origin.git')
    await git(work, `remote add origin ${join(dir, 'origin.git')}`)
    await git(work, 'push -q -u origin main')
  }
  return { dir, work, origin: join(dir, 'origin.git') }
}

const opts = (cwd) => ({ cwd, env: gitEnv })
const exists = (p) => access(p).then(() => true, () => false)

describe('git recipes', { concurrency: true }, () => {
  test('git.undo_last_commit removes the commit, keeps its changes staged, and the undo brings it back', async (t) => {
    const { work } = await repo(t)
    const second = await git(work, 'rev-parse HEAD')
    const r = render('git.undo_last_commit', { mode: 'soft' })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, opts(work))
    assert.match(verified, /^[0-9a-f]+ first$/m)
    assert.equal(await git(work, 'log --format=%s'), 'first')
    assert.equal(await git(work, 'diff --cached --name-only'), 'b.txt')
    await runUndo(r, opts(work))
    assert.equal(await git(work, 'rev-parse HEAD'), second)
    assert.equal(await git(work, 'status --porcelain'), '')
  })

  test('git.undo_last_commit in mixed mode leaves the changes unstaged', async (t) => {
    const { work } = await repo(t)
    const r = render('git.undo_last_commit', { mode: 'mixed' })
    await runRecipe(r, opts(work))
    assert.equal(await git(work, 'status --porcelain'), '?? b.txt')
    await runUndo(r, opts(work))
    assert.equal(await git(work, 'log -1 --format=%s'), 'second')
    assert.equal(await git(work, 'status --porcelain'), '')
  })

  test('git.amend_last_commit replaces message and adds the staged file; undo restores the original commit', async (t) => {
    const { work } = await repo(t)
    await writeFile(join(work, 'c.txt'), 'gamma\n')
    await git(work, 'add c.txt')
    const r = render('git.amend_last_commit', { message: "second, with c.txt's content" })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, opts(work))
    assert.match(verified, /^second, with c\.txt's content$/m)
    assert.equal(await git(work, 'rev-list --count HEAD'), '2')
    assert.equal(await git(work, 'show --name-only --format= HEAD'), 'b.txt\nc.txt')
    await runUndo(r, opts(work))
    assert.equal(await git(work, 'log -1 --format=%s'), 'second')
    assert.equal(await git(work, 'diff --cached --name-only'), 'c.txt')
  })

  test('git.revert_pushed_commit pushes a revert; undo pushes the changes back', async (t) => {
    const { work, origin } = await repo(t, { remote: true })
    const r = render('git.revert_pushed_commit', { commit: 'HEAD' })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, opts(work))
    assert.match(verified, /^Revert "second"$/m)
    assert.doesNotMatch(verified, /ahead/)
    assert.equal(await exists(join(work, 'b.txt')), false)
    assert.match(await git(origin, 'log -1 --format=%s main'), /^Revert "second"/)
    await runUndo(r, opts(work))
    assert.equal(await exists(join(work, 'b.txt')), true)
    assert.match(await git(origin, 'log -1 --format=%s main'), /^Revert "Revert "second""/)
  })

  test('git.restore_deleted_file brings back a file deleted two commits ago; undo removes it again', async (t) => {
    const { work } = await repo(t)
    await git(work, 'rm -q a.txt')
    await git(work, 'commit -q -m "delete a"')
    await writeFile(join(work, 'b.txt'), 'beta 2\n')
    await git(work, 'commit -q -am "later"')
    const r = render('git.restore_deleted_file', { path: 'a.txt' })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r, opts(work))
    assert.match(out, /delete a/)
    assert.match(verified, /^A {2}a\.txt$/m)
    assert.equal(await sh('cat a.txt', { cwd: work }).then((x) => x.stdout), 'alpha\n')
    await runUndo(r, opts(work))
    assert.equal(await exists(join(work, 'a.txt')), false)
    assert.equal(await git(work, 'status --porcelain'), '')
  })

  test('git.recover_dropped_stash finds the dropped stash and puts it back on the list', async (t) => {
    const { work } = await repo(t)
    await writeFile(join(work, 'a.txt'), 'alpha, work in progress\n')
    await git(work, 'stash push -q -m "half done"')
    const stash = await git(work, 'rev-parse stash@{0}')
    await git(work, 'stash drop -q')
    assert.equal(await git(work, 'stash list'), '')
    const r = render('git.recover_dropped_stash', { commit: stash })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts(work))
    assert.match(steps[0].stdout, new RegExp(`^${stash} .* On main: half done$`, 'm'), 'the listing names the dropped stash')
    assert.match(verified, /^stash@\{0\}: Recovered stash$/m)
    assert.equal(await git(work, 'rev-parse stash@{0}'), stash)
    await git(work, 'stash apply -q')
    assert.equal(await sh('cat a.txt', { cwd: work }).then((x) => x.stdout), 'alpha, work in progress\n')
    // Taking it off the list again would be a stash drop, which the validator rates destructive; the note says how.
    assert.equal(r.undo.possible, false)
    assert.match(r.undo.note, /git stash drop/)
  })

  test('git.find_commit_introducing_string names the commit that added the text', async (t) => {
    const { work } = await repo(t)
    await writeFile(join(work, 'a.txt'), 'alpha\nconst secretToggle = true\n')
    await git(work, 'commit -q -am "add toggle"')
    const added = await git(work, 'rev-parse HEAD')
    await writeFile(join(work, 'a.txt'), 'alpha\nconst secretToggle = false\n')
    await git(work, 'commit -q -am "flip toggle"')
    const r = render('git.find_commit_introducing_string', { text: 'secretToggle = ' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts(work))
    assert.match(steps[0].stdout.split('\n')[0], / add toggle$/)
    assert.match(steps[1].stdout, new RegExp(`^commit ${added}`))
    assert.equal(verified.split('\n')[0], `${added} add toggle`)
    assert.equal(r.undo.possible, false)
  })

  test('git.clean_untracked_files deletes untracked files and keeps tracked and ignored ones', async (t) => {
    const { work } = await repo(t)
    await writeFile(join(work, '.gitignore'), '.env\n')
    await git(work, 'add .gitignore')
    await git(work, 'commit -q -m ignore')
    await mkdir(join(work, 'build/deep'), { recursive: true })
    await writeFile(join(work, 'build/deep/out.js'), 'x')
    await writeFile(join(work, 'stray.txt'), 'x')
    await writeFile(join(work, '.env'), 'KEEP=1')
    const r = render('git.clean_untracked_files', {})
    assert.equal(r.requires_confirmation, true)
    assert.equal(r.undo.possible, false)
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts(work))
    assert.deepEqual(steps[0].stdout.trim().split('\n').sort(), ['build/deep/out.js', 'stray.txt'])
    assert.equal(verified, '')
    assert.equal(await exists(join(work, 'build')), false)
    assert.equal(await exists(join(work, 'stray.txt')), false)
    assert.equal(await exists(join(work, '.env')), true)
    assert.equal(await exists(join(work, 'a.txt')), true)
  })

  test('git.rename_branch renames locally and on the remote; undo renames it back', async (t) => {
    const { work, origin } = await repo(t, { remote: true })
    await git(work, 'switch -q -c feature/old')
    await git(work, 'push -q -u origin feature/old')
    const r = render('git.rename_branch', { old_name: 'feature/old', new_name: 'feature/new' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, opts(work))
    assert.equal(steps[0].stdout, 'feature/old origin/feature/old\n')
    assert.match(steps[1].stdout, /\trefs\/heads\/feature\/old$/m)
    assert.match(verified, /\trefs\/heads\/feature\/new$/m)
    assert.doesNotMatch(verified, /refs\/heads\/feature\/old/)
    assert.match(verified, /^feature\/new -> origin\/feature\/new$/m)
    assert.equal(await git(origin, 'branch --list "feature/*" --format="%(refname:short)"'), 'feature/new')
    await runUndo(r, opts(work))
    assert.equal(await git(origin, 'branch --list "feature/*" --format="%(refname:short)"'), 'feature/old')
    assert.equal(await git(work, 'branch --show-current'), 'feature/old')
  })

  test('git.unstage_files unstages but keeps the change; undo stages it again', async (t) => {
    const { work } = await repo(t)
    await writeFile(join(work, 'a.txt'), 'alpha changed\n')
    await git(work, 'add a.txt')
    const r = render('git.unstage_files', { path: 'a.txt' })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r, opts(work))
    assert.equal(verified, '')
    assert.equal(await git(work, 'status --porcelain'), 'M a.txt')
    await runUndo(r, opts(work))
    assert.equal(await git(work, 'status --porcelain'), 'M  a.txt')
  })
})
