// End to end in the real dsh where users are (home, kitchen and project on a real disk, so the
// harness's sandbox is the real one): two cooks change the same file in one project and report; the
// wake that starts the chef's turn names the overlap; chef_result {diff: true} shows a cook's diff;
// chef_close {tasks: [...], merge: true} runs the merge queue: the first task lands on main after the
// project's test passed on it (run through dsh's shell, confined to the queue's work clone, where it
// writes its build output), and the queue stops at the second task's conflict, naming the file,
// with that branch exactly as it was. And a chef killed by the kitchen's crash hook right after the
// queue recorded a passed test comes back in a new dsh and goes on from that step.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dshAvailable } from '../e2e/harness.mjs'
import { CRASH_FILE_ENV } from './restart.mjs'
import { afterTool, chefResults, chefWorld, cookTask, git, makeRepo, waitFor } from './support.mjs'
import { startWeb } from './web.mjs'

const skip = dshAvailable()

test('the chef lands two tasks that change the same file through the merge queue: the first after its test, the second stops at its conflict', { skip, timeout: 400_000 }, async (t) => {
  // Both cooks report once both have committed, so one wake carries both notices.
  const committed = new Set()
  let release
  const both = new Promise((r) => { release = r })
  const cook = async (body) => {
    const task = cookTask(body)
    if (!afterTool(body)) {
      return { tool: 'bash', args: { description: 'change the shared file', command: `echo "hello from ${task}" > shared.txt && git add shared.txt && git commit -q -m "Write shared.txt for ${task}" && echo committed` } }
    }
    committed.add(task)
    if (committed.size >= 2) release()
    await both
    return { tool: 'chef_report', args: { status: 'done', summary: `wrote shared.txt for ${task}` } }
  }
  const w = await chefWorld(t, { onDisk: true, cook, chef: { onWake: () => [
    { tool: 'chef_result', args: { task: 'alpha-2', diff: true } },
    { tool: 'chef_close', args: { tasks: ['alpha-1', 'alpha-2'], merge: true } },
    { text: 'merged what could be merged' },
  ] } })
  // the test writes build output where it runs (ignored by git), as a real suite would
  const alpha = makeRepo(w.repos, 'alpha', {
    Makefile: '## Check the feature\ntest:\n\tgrep -q "hello from" shared.txt && echo built > build.out\n',
    '.gitignore': 'build.out\n',
  })
  const main0 = git(alpha, 'rev-parse', 'main')

  const turn = await w.say([
    { tool: 'chef_add_project', args: { path: alpha } },
    { tool: 'chef_dispatch', args: { tasks: [
      { project: 'alpha', title: 'Say hello', brief: 'Write shared.txt and commit it.' },
      { project: 'alpha', title: 'Say hello too', brief: 'Write shared.txt and commit it.' },
    ] } },
  ])
  assert.match(chefResults(turn)[1], /alpha-2 is cooking on branch issue\/alpha-2/)
  await waitFor(() => w.script.wakes.length >= 1, 'the wake', 250_000)
  await w.chefRoute.waitForRequests(turn.length + 3, 300_000)
  const wake = w.script.wakes[0]
  assert.match(wake, /^Overlapping changes:\n- Tasks alpha-1 and alpha-2 both change shared\.txt: merge one, then the other will need a rebase\.$/m)
  const [diff, merged] = chefResults(w.chefRoute.requests.slice(turn.length)).slice(0, 2)

  // the diff of alpha-2, brought back by the result, under the kitchen's facts and before the cook's words
  assert.match(diff, /^Diff of issue\/alpha-2 against main \(git diff main\.\.\.issue\/alpha-2\), \d+ lines:$/m)
  assert.match(diff, /^ {2}\+hello from alpha-2$/m)
  assert.ok(diff.indexOf('Diff of') < diff.indexOf("The cook's report"), diff)
  const tip2 = git(alpha, 'rev-parse', 'issue/alpha-2')

  // the queue: alpha-1 landed after its test passed, confined to the work clone; alpha-2 stopped at the conflict
  assert.match(merged, /^Merge queue: 1 of 2 tasks landed, one at a time\.$/m)
  assert.match(merged, /^- alpha-1 landed on main: issue\/alpha-1 rebased onto main at [0-9a-f]{10} passed the project's test, and main was fast-forwarded to [0-9a-f]{10}\. Closed alpha-1: clone removed, branch issue\/alpha-1 deleted\.$/m)
  assert.match(merged, /^ {2}Test: `make test` \(Makefile:2 on main\) on issue\/alpha-1 brought onto main, in a work clone of the kitchen's, confined to it, passed in \d+\.\d s\.$/m)
  assert.match(merged, /^- alpha-2 stopped at a conflict: issue\/alpha-2 does not rebase onto main \([0-9a-f]{10}\) cleanly: shared\.txt\. Nothing of it landed and issue\/alpha-2 is as it was\./m)
  assert.equal(git(alpha, 'show', 'main:shared.txt'), 'hello from alpha-1')
  assert.equal(readFileSync(join(alpha, 'shared.txt'), 'utf8'), 'hello from alpha-1\n', 'the clean checkout of main followed')
  assert.equal(git(alpha, 'rev-list', '--count', `${main0}..main`), '1')
  assert.equal(git(alpha, 'rev-parse', 'issue/alpha-2'), tip2)
  assert.equal(git(alpha, 'branch', '--list', 'issue/alpha-1'), '')
  assert.ok(existsSync(join(w.kitchen, 'worktrees', 'alpha-2')), 'alpha-2 stays open with its clone')
  assert.ok(!existsSync(join(alpha, 'build.out')), 'the test wrote its output in the work clone, not in the project')
  t.diagnostic([wake, diff, merged].join('\n---\n'))
})

test('a chef killed in the middle of the merge queue comes back and goes on with it: the task lands, tested once, and the wake says so', { skip, timeout: 400_000 }, async (t) => {
  const crashFile = join(tmpdir(), `cs-merge-crash-${process.pid}-${Date.now()}`)
  t.after(() => rmSync(crashFile, { force: true }))
  const cook = (body) => afterTool(body)
    ? { tool: 'chef_report', args: { status: 'done', summary: 'wrote shared.txt' } }
    : { tool: 'bash', args: { description: 'change the shared file', command: 'echo "hello from the cook" > shared.txt && git add shared.txt && git commit -q -m "Write shared.txt" && echo committed' } }
  const w = await chefWorld(t, { cook, env: { [CRASH_FILE_ENV]: crashFile }, chef: { onWake: (text) => text.includes('merge queue')
    ? [{ text: 'noted the merge' }]
    : [{ tool: 'chef_close', args: { tasks: ['alpha-1'], merge: true } }, { text: 'merged' }] } })
  const alpha = makeRepo(w.repos, 'alpha', { Makefile: '## Check the feature\ntest:\n\tgrep -q "hello from" shared.txt\n' })
  const main0 = git(alpha, 'rev-parse', 'main')
  // the chef dies right after the queue recorded the passed test, before it moved main
  writeFileSync(crashFile, 'merge:tested\n')
  await w.say([
    { tool: 'chef_add_project', args: { path: alpha } },
    { tool: 'chef_dispatch', args: { project: 'alpha', title: 'Say hello', brief: 'Write shared.txt and commit it.' } },
  ])
  await waitFor(() => !w.web.alive, 'the chef to be killed at merge:tested', 250_000)
  const entry = join(w.kitchen, 'merge', 'alpha-1.jsonl')
  assert.match(readFileSync(entry, 'utf8'), /"type":"tested".*"ok":true/)
  assert.equal(git(alpha, 'rev-parse', 'main'), main0, 'main did not move before the kill')

  // a new chef on the same home: the session comes back in chef mode, the kitchen opens, the queue goes on
  rmSync(crashFile, { force: true })
  const again = await startWeb({ home: w.home, model: w.model, patch: w.patch, cwd: w.repos, env: { [CRASH_FILE_ENV]: crashFile } })
  w.undo.push(() => again.stop())
  w.web = again
  await w.say([])
  const wake = await waitFor(() => w.script.wakes.find((x) => x.startsWith('Kitchen update (merge queue)')), 'the merge queue\'s wake', 120_000)
  assert.match(wake, /^- alpha-1 landed on main: issue\/alpha-1 rebased onto main at [0-9a-f]{10} passed the project's test, and main was fast-forwarded to [0-9a-f]{10}\. Closed alpha-1: clone removed, branch issue\/alpha-1 deleted\.$/m)
  assert.equal(git(alpha, 'show', 'main:shared.txt'), 'hello from the cook')
  // the test ran once: the new chef went on from the recorded step
  const ended = await waitFor(() => { const d = join(w.kitchen, 'merge', 'ended'); return existsSync(d) && readdirSync(d)[0] && join(d, readdirSync(d)[0]) }, 'the entry set aside')
  const steps = readFileSync(ended, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === 'start').map((e) => e.step)
  assert.deepEqual(steps, ['review', 'bring', 'test', 'land', 'close'])
  t.diagnostic(wake)
})
