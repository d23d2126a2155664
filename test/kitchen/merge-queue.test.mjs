// The merge queue with the kitchen's real code: real git repositories (in the temp directory and on a
// real disk where users keep them), the fake cook, and the chef's own test runner (verify's policy:
// the base branch's test command, gated, run in the queue's work clone) with dsh's shell seam as a
// fake that really runs the command. Checked: two tasks that change the same file land one and stop
// at the other's conflict naming the file, that branch untouched; a failing test lands nothing and
// reports its output; a base checked out with local changes is never moved; a kill after a recorded
// step leaves a queue the next owner goes on with (or reports where it waits); the project's merge
// preference makes a merge commit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mergeTester } from '../../dist/src/chef/merge-test.js'
import { FAST_CONFIG, PLACES, git, makeRepo, ownerKitchen, owners, settled, tempDir, until, writeConfig } from './support.mjs'

/** dsh's shell seam with its sandbox mode, running each command for real (no sandbox here): records what it ran. */
function runningShell() {
  const ran = []
  const shell = {
    sandboxMode: 'workspace-write',
    resolve: (r) => r,
    run: async (spec) => {
      ran.push(spec)
      const r = spawnSync('sh', ['-c', spec.command], { cwd: spec.workdir, encoding: 'utf8', timeout: spec.timeoutMs })
      return {
        exitCode: r.status, stdout: { text: r.stdout ?? '', truncated: false }, stderr: { text: r.stderr ?? '', truncated: false },
        timedOut: false, aborted: false, sandbox: { mode: 'workspace-write', denied: false },
      }
    },
  }
  return { ran, test: mergeTester({ get: (name) => (name === 'shell' ? shell : undefined) }, () => 30_000) }
}

const MAKEFILE = (check) => `## Check the work\ntest:\n\t${check}\n`

/** A kitchen, a project whose Makefile declares `check` as its test, and the queue's test runner. */
async function setup(t, { where = tempDir, check = "grep -q 'from run of' shared.txt", extra = {} } = {}) {
  const dir = where('merge-queue-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  writeFileSync(join(api, 'Makefile'), MAKEFILE(check))
  git(api, 'add', 'Makefile')
  git(api, 'commit', '-q', '-m', 'a test')
  const shell = runningShell()
  const k = await ownerKitchen(root, { mergeTest: shell.test, ...extra })
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, shell, ...k }
}

const rev = (repo, ref) => git(repo, 'rev-parse', ref).trim()
const openEntries = (root) => (existsSync(join(root, 'merge')) ? readdirSync(join(root, 'merge')).filter((n) => n.endsWith('.jsonl')) : [])

/** Dispatch tasks with fake-cook scripts and wait for each to be done with its branch back in the project. */
async function cooked(kitchen, briefs) {
  await kitchen.dispatch({ project: 'api', tasks: briefs.map((brief, i) => ({ title: `task ${i + 1}`, brief })) })
  for (let i = 1; i <= briefs.length; i++) {
    await settled(kitchen, `api-${i}`)
    await kitchen.result(`api-${i}`)
  }
}

for (const [place, where] of PLACES) {
  test(`${place}: two tasks change the same file: the first lands after its test passed, the second stops at the conflict naming the file, its branch untouched`, async (t) => {
    const { root, api, kitchen, shell } = await setup(t, { where })
    await cooked(kitchen, ['@fake: commit=shared.txt done', '@fake: commit=shared.txt done'])
    const main0 = rev(api, 'main')
    const tip1 = rev(api, 'issue/api-1')
    const tip2 = rev(api, 'issue/api-2')

    const r = await kitchen.merge(['api-1', 'api-2'])
    const lines = r.text.split('\n')
    assert.equal(lines[0], 'Merge queue: 1 of 2 tasks landed, one at a time.', r.text)
    assert.match(r.text, /^- api-1 landed on main: issue\/api-1 rebased onto main at [0-9a-f]{10} passed the project's test, and main was fast-forwarded to [0-9a-f]{10}\. Closed api-1: clone removed, branch issue\/api-1 deleted\.$/m)
    assert.match(r.text, /^ {2}Test: `make test` \(Makefile:2 on main\) on issue\/api-1 brought onto main, in a work clone of the kitchen's, confined to it, passed in \d+\.\d s\.$/m)
    assert.match(r.text, /^- api-2 stopped at a conflict: issue\/api-2 does not rebase onto main \([0-9a-f]{10}\) cleanly: shared\.txt\. Nothing of it landed and issue\/api-2 is as it was\./m)

    // main moved forward to api-1's work and nothing else; the checkout followed, clean
    assert.equal(rev(api, 'main'), tip1, 'api-1 was already on main\'s tip: its own commit is fast-forwarded')
    assert.equal(git(api, 'rev-list', '--count', `${main0}..main`).trim(), '1')
    assert.equal(readFileSync(join(api, 'shared.txt'), 'utf8'), git(api, 'show', `${tip1}:shared.txt`))
    assert.equal(git(api, 'status', '--porcelain').trim(), '')
    // api-1 is closed with its branch gone; api-2 is open, its branch exactly as before, no rebase left anywhere
    assert.equal((await kitchen.view('api-1')).state.kind, 'closed')
    assert.equal(git(api, 'branch', '--list', 'issue/api-1').trim(), '')
    assert.equal(rev(api, 'issue/api-2'), tip2)
    assert.equal((await kitchen.view('api-2')).state.kind, 'idle')
    assert.ok(existsSync(join(root, 'worktrees', 'api-2')))
    assert.ok(!existsSync(join(api, '.git', 'rebase-merge')) && !existsSync(join(api, '.git', 'rebase-apply')))
    // the test ran once, in a work clone of the kitchen's, confined to it
    assert.equal(shell.ran.length, 1)
    assert.equal(shell.ran[0].command, 'make test')
    assert.ok(shell.ran[0].workdir.startsWith(join(root, 'scratch')), shell.ran[0].workdir)
    assert.deepEqual(shell.ran[0].sandboxPolicy, { mode: 'workspace-write', workspaceRoot: shell.ran[0].workdir })
    // both entries were reported and set aside; the work clones are gone
    assert.deepEqual(openEntries(root), [])
    assert.equal(readdirSync(join(root, 'merge', 'ended')).length, 2)
    assert.deepEqual(existsSync(join(root, 'scratch')) ? readdirSync(join(root, 'scratch')) : [], [])
  })
}

test('a failing test lands nothing and reports its output; the rest of the queue is not tried', async (t) => {
  const { api, kitchen, shell } = await setup(t, { check: "echo 'FAIL: expected no a.txt' && test ! -f a.txt" })
  await cooked(kitchen, ['@fake: commit=a.txt done', '@fake: commit=b.txt done'])
  const main0 = rev(api, 'main')
  const tips = [rev(api, 'issue/api-1'), rev(api, 'issue/api-2')]
  const r = await kitchen.merge(['api-1', 'api-2'])
  assert.match(r.text, /^Merge queue: 0 of 2 tasks landed/)
  assert.match(r.text, /^- api-1 not landed: the project's test failed on issue\/api-1 brought onto main\. Nothing of it landed and issue\/api-1 is as it was\./m)
  assert.match(r.text, /^ {2}Test: `make test` .* failed \(exit 2\) in \d+\.\d s\.$/m)
  assert.match(r.text, /^ {2}FAIL: expected no a\.txt$/m)
  assert.match(r.text, /^- api-2 not tried: the queue stopped at api-1\.$/m)
  assert.equal(rev(api, 'main'), main0)
  assert.deepEqual([rev(api, 'issue/api-1'), rev(api, 'issue/api-2')], tips)
  assert.equal(shell.ran.length, 1)
  for (const id of ['api-1', 'api-2']) assert.equal((await kitchen.view(id)).state.kind, 'idle')
})

test('a base checked out with local changes is never moved: refused before any test, with what to do', async (t) => {
  const { api, kitchen, shell } = await setup(t)
  await cooked(kitchen, ['@fake: commit=shared.txt done'])
  writeFileSync(join(api, 'README'), 'edited by the person\n')
  const main0 = rev(api, 'main')
  const r = await kitchen.merge(['api-1'])
  assert.match(r.text, /^- api-1 not landed: main is checked out in .*api with local changes \(M README\); the kitchen never moves a checked-out branch under uncommitted work\. Commit or stash them there, then chef_close \{tasks: \["api-1"\], merge: true\}\.$/m)
  assert.equal(rev(api, 'main'), main0)
  assert.equal(readFileSync(join(api, 'README'), 'utf8'), 'edited by the person\n')
  assert.equal(shell.ran.length, 0)
  // once the change is committed the same call lands it, on top of the person's commit
  git(api, 'commit', '-q', '-am', 'the person\'s edit')
  const again = await kitchen.merge(['api-1'])
  assert.match(again.text, /^- api-1 landed on main: issue\/api-1 rebased onto main/m)
  assert.equal(git(api, 'log', '-2', '--format=%s', 'main').trim(), "add shared.txt\nthe person's edit")
})

test('a kill right after a recorded step: the next owner goes on with the queue from there and reports it in a wake', async (t) => {
  const reg = owners()
  const ctl = reg.faults()
  const idA = reg.identity()
  const { root, api, kitchen: a, shell } = await setup(t, { extra: { identity: idA, holderAlive: reg.holderAlive, fault: ctl.fault } })
  await cooked(a, ['@fake: commit=shared.txt done'])
  const main0 = rev(api, 'main')
  ctl.at = 'merge:tested'
  await assert.rejects(a.merge(['api-1']), /simulated crash at merge:tested/)
  reg.alive.delete(idA.pid)
  assert.equal(rev(api, 'main'), main0, 'killed before it landed')
  const entry = readFileSync(join(root, 'merge', 'api-1.jsonl'), 'utf8')
  assert.match(entry, /"type":"tested".*"ok":true/)
  assert.doesNotMatch(entry, /"step":"land"/)

  // the next owner, with the same runner: it lands without testing again, closes, and says so
  const b = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive, mergeTest: shell.test })
  t.after(() => b.kitchen.shutdown())
  const wake = await until(() => b.wakes.find((w) => w.text.startsWith('Kitchen update (merge queue)')), 'the merge queue\'s wake')
  assert.match(wake.text, /^- api-1 landed on main: issue\/api-1 rebased onto main at [0-9a-f]{10} passed the project's test, and main was fast-forwarded to [0-9a-f]{10}\. Closed api-1/m)
  assert.deepEqual(wake.runs, [])
  assert.notEqual(rev(api, 'main'), main0)
  assert.equal(git(api, 'show', 'main:shared.txt').includes('from run of'), true)
  assert.equal(shell.ran.length, 1, 'the test ran once, before the kill')
  assert.equal((await b.kitchen.view('api-1')).state.kind, 'closed')
  await until(() => openEntries(root).length === 0, 'the reported entry set aside')
})

test('a kill before the test, and an owner that cannot test: it says where the queue waits; an owner that can goes on', async (t) => {
  const reg = owners()
  const ctl = reg.faults()
  const idA = reg.identity()
  const { root, api, kitchen: a, shell } = await setup(t, { extra: { identity: idA, holderAlive: reg.holderAlive, fault: ctl.fault } })
  await cooked(a, ['@fake: commit=shared.txt done'])
  const main0 = rev(api, 'main')
  ctl.at = 'merge:brought'
  await assert.rejects(a.merge(['api-1']), /simulated crash at merge:brought/)
  reg.alive.delete(idA.pid)

  const idB = reg.identity()
  const b = await ownerKitchen(root, { identity: idB, holderAlive: reg.holderAlive })
  const waits = await until(() => b.wakes.find((w) => w.text.startsWith('Kitchen update (merge queue)')), 'the wake saying where it waits')
  assert.match(waits.text, /^- api-1 waits in the merge queue: nothing of it landed yet; chef_close \{tasks: \["api-1"\], merge: true\} goes on from there\.$/m)
  await assert.rejects(b.kitchen.merge(['api-1']), /no test runner/)
  assert.equal(rev(api, 'main'), main0)
  assert.deepEqual(openEntries(root), ['api-1.jsonl'], 'the entry waits on disk')
  await b.kitchen.shutdown()
  reg.alive.delete(idB.pid)

  const c = await ownerKitchen(root, { identity: reg.identity(), holderAlive: reg.holderAlive, mergeTest: shell.test })
  t.after(() => c.kitchen.shutdown())
  const done = await until(() => c.wakes.find((w) => w.text.startsWith('Kitchen update (merge queue)')), 'the wake after it landed')
  assert.match(done.text, /^- api-1 landed on main/m)
  assert.equal(shell.ran.length, 1, 'tested by the owner that could')
  assert.notEqual(rev(api, 'main'), main0)
})

test('a project that prefers merging gets a merge commit; the task branch is in main and is deleted by the close', async (t) => {
  const { api, kitchen } = await setup(t, { check: 'test -f one.txt -o -f two.txt' })
  git(api, 'config', 'pull.rebase', 'false')
  await cooked(kitchen, ['@fake: commit=one.txt done', '@fake: commit=two.txt done'])
  const tip2 = rev(api, 'issue/api-2')
  const r = await kitchen.merge(['api-1', 'api-2'])
  assert.match(r.text, /^Merge queue: 2 of 2 tasks landed/)
  assert.match(r.text, /^- api-2 landed on main: issue\/api-2 merged with main at [0-9a-f]{10} passed/m)
  assert.equal(git(api, 'log', '-1', '--format=%s', 'main').trim(), 'Merge issue/api-2 (api-2)')
  assert.equal(git(api, 'merge-base', '--is-ancestor', tip2, 'main').trim(), '')
  assert.equal(git(api, 'branch', '--list', 'issue/*').trim(), '')
})

test('unknown tasks refuse the whole call before anything is queued', async (t) => {
  const { root, kitchen } = await setup(t)
  await cooked(kitchen, ['@fake: commit=shared.txt done'])
  await assert.rejects(kitchen.merge(['api-1', 'api-9']), /there is no task api-9/)
  assert.deepEqual(openEntries(root), [])
})
