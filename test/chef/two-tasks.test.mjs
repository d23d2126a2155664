// End to end in the real dsh: a chef in `dsh web` dispatches two tasks to two projects; each cook
// (a real dsh process with the cook runner) runs bash to change a file and commit in its clone, and
// reports done; the chef gets one wake that starts its turn; chef_result brings the commit back and
// shows it with the diffstat, and verify runs the base branch's discovered test command on it in the
// clone; chef_close refuses while the work is unlanded and, after a merge into main, removes the
// clone and deletes the branch.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { afterTool, checkingMakefile, chefResults, chefWorld, cookTask, git, makeRepo } from './support.mjs'

const skip = dshAvailable()

test('two tasks, one wake, result with commit, diffstat and verify, close after the merge', { skip, timeout: 300_000 }, async (t) => {
  // Both cooks report only once both have committed, so their notices share one wake.
  const committed = new Set()
  let release
  const bothCommitted = new Promise((r) => { release = r })
  const cook = async (body) => {
    const task = cookTask(body)
    const file = task.startsWith('alpha') ? 'alpha.txt' : 'beta.txt'
    if (!afterTool(body)) {
      return { tool: 'bash', args: { description: 'write and commit', command: `echo hello-${task} > ${file} && git add ${file} && git commit -q -m "Add ${file} for ${task}" && echo committed` } }
    }
    committed.add(task)
    if (committed.size >= 2) release()
    await bothCommitted
    return { tool: 'chef_report', args: { status: 'done', summary: `wrote ${file} and committed it` } }
  }
  const w = await chefWorld(t, { cook, chef: { onWake: () => [
    { tool: 'chef_result', args: { task: 'alpha-1', verify: true } },
    { tool: 'chef_result', args: { task: 'beta-1', verify: true } },
    { tool: 'chef_close', args: { task: 'alpha-1' } },
    { text: 'reviewed' },
  ] } })
  const alpha = makeRepo(w.repos, 'alpha', { Makefile: checkingMakefile('alpha.txt', 'hello-alpha-1') })
  // beta's test looks for text its cook never writes: its verify fails
  const beta = makeRepo(w.repos, 'beta', { Makefile: checkingMakefile('beta.txt', 'goodbye') })

  const turn = await w.say([
    { tool: 'chef_add_project', args: { path: alpha } },
    { tool: 'chef_add_project', args: { path: beta } },
    { tool: 'chef_dispatch', args: { tasks: [
      { project: 'alpha', title: 'Add alpha.txt', brief: 'Write alpha.txt and commit it.' },
      { project: 'beta', title: 'Add beta.txt', brief: 'Write beta.txt and commit it.' },
    ] } },
  ])
  const [addA, addB, dispatched] = chefResults(turn)
  assert.match(addA, /Registered alpha: .*alpha, tasks fork from main on branches issue\/\./)
  assert.match(addA, /Commands: test: make test \(Makefile:2\), build: make build \(Makefile:6\)\./)
  assert.match(addB, /Registered beta/)
  assert.match(dispatched, /alpha-1 is cooking on branch issue\/alpha-1/)
  assert.match(dispatched, /beta-1 is cooking on branch issue\/beta-1/)

  // The wake: one message naming both tasks in the seed's words, starting a turn of its own.
  await w.chefRoute.waitForRequests(turn.length + 4, 200_000)
  assert.equal(w.script.wakes.length, 1, `wakes: ${JSON.stringify(w.script.wakes)}`)
  const wake = w.script.wakes[0]
  assert.match(wake, /Kitchen update \(2\):/)
  // the cook's claim, beside what the kitchen saw: its commit, and no run of the test command
  assert.match(wake, /alpha-1 "Add alpha.txt" says it is done: wrote alpha\.txt and committed it\. The kitchen saw: new commits on issue\/alpha-1; the test command `make test` not run\. Review with chef_result alpha-1\./)
  assert.match(wake, /beta-1 "Add beta.txt" says it is done: wrote beta\.txt and committed it\. The kitchen saw: new commits on issue\/beta-1;/)

  const review = chefResults(w.chefRoute.requests.slice(turn.length)).slice(0, 3)
  const [resA, resB, closeRefused] = review
  const head = git(alpha, 'log', '-1', '--format=%h %s', 'issue/alpha-1')
  assert.match(resA, /^alpha-1 "Add alpha.txt": done \(run 1\)/)
  assert.match(resA, /^The cook's report \(its claim, not checked\): "wrote alpha\.txt and committed it"$/m)
  assert.match(resA, /^Branch issue\/alpha-1 at [0-9a-f]{10}: 1 commit ahead of main, not landed\.$/m)
  assert.ok(resA.includes(`  ${head}`), `the commit ${head} is listed:\n${resA}`)
  assert.match(resA, /Add alpha\.txt for alpha-1/)
  assert.match(resA, /alpha\.txt \| 1 \+/)
  assert.match(resA, /Clone .*alpha-1: clean, on issue\/alpha-1\./)
  assert.match(resA, /Verify: `make test` \(Makefile:2 on main\) in the clone .*alpha-1, confined to it, passed/)
  assert.match(resB, /^Not ready: the test command `make test` failed \(exit 2\)\.\nbeta-1 "Add beta.txt": done/)
  assert.match(resB, /Verify: `make test` \(Makefile:2 on main\) in the clone .*beta-1, confined to it, failed \(exit 2\)/)
  assert.match(resB, /Output tail:\n[\s\S]*make: \*\*\* \[Makefile:3: test\] Error 1/)
  assert.match(closeRefused, /not landed|unlanded|neither/i)
  assert.ok(existsSync(join(w.kitchen, 'worktrees/alpha-1')), 'a refused close keeps the worktree')

  // A merge into main lands the branch; now the close removes the worktree and deletes the branch.
  git(alpha, 'merge', '-q', '--no-edit', 'issue/alpha-1')
  const closing = await w.say([{ tool: 'chef_close', args: { task: 'alpha-1' } }])
  const [closed] = chefResults(closing)
  assert.match(closed, /Closed alpha-1: clone removed, branch issue\/alpha-1 deleted\./)
  assert.equal(existsSync(join(w.kitchen, 'worktrees/alpha-1')), false)
  assert.equal(git(alpha, 'branch', '--list', 'issue/alpha-1'), '')
  assert.notEqual(git(beta, 'branch', '--list', 'issue/beta-1'), '', 'the other task keeps its branch')
  // The session as the chef saw it (the README's transcript comes from here).
  t.diagnostic([addA, dispatched, wake, resA, closeRefused, closed].join('\n---\n'))
})
