import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deriveTask, wakeText, restartText, boardText, widgetLines, closeVerdict, noticeLine } from '../../../dist/src/kitchen/derive/index.js'
import {
  FORMATS_TEXT, boardHeadingText, boardRestoringText, chefOnText, commandsText, namedTestProblemText, noTestCommandText, resultFacts, resultHeadline, sawText,
  sendText, serveLineText, stopText,
} from '../../../dist/src/kitchen/derive/index.js'
import { COLLECTOR_TABLE } from '../../../dist/src/base/collector-table.js'
import { rulebookText } from '../../../dist/src/kitchen/derive/index.js'
import { record, run, config, lines } from './helpers.mjs'

const NOW = 1764495600000 + 5 * 60_000
const cfg = config()
const view = (rec, live) => deriveTask(rec, live, NOW, cfg)

test('wake batching: one message with a count and one line per notice', () => {
  const a = view(record({ id: 'api-7', runs: [run(1, 'done-reported.jsonl')] })).notice
  const b = view(record({ id: 'web-2', title: 'Fix login redirect', runs: [run(1, 'needs-decision.jsonl')] })).notice
  assert.equal(wakeText([a, b]), [
    'Kitchen update (2):',
    '- api-7 "Add rate limiting to /login" is done: token bucket in limit.go, make test passes. Review with chef_result api-7.',
    '- web-2 "Fix login redirect" needs a decision: keep the cookie session or move to bearer tokens? Answer with chef_send web-2.',
  ].join('\n'))
})

test('the restart prefix leads the first wake', () => {
  const a = view(record({ runs: [run(1, 'done-reported.jsonl')] })).notice
  assert.equal(restartText(1, 2), 'Chef restarted: 1 cook still cooking, 2 runs finished while you were away.')
  assert.equal(restartText(0, 1), 'Chef restarted: 1 run finished while you were away.')
  assert.match(wakeText([a], restartText(1, 1)), /^Chef restarted: 1 cook still cooking, 1 run finished while you were away\.\n\nKitchen update \(1\):\n- api-7/)
})

test('wake lines for blocked, launch failure, crash, a failed report and an unreported finish', () => {
  const line = (src, extra = {}) => noticeLine(view(record({ runs: [src], ...extra })).notice)
  assert.equal(line(run(1, lines({ report: { status: 'blocked', summary: 'no staging access' } }))),
    '- api-7 "Add rate limiting to /login" is blocked: no staging access. Unblock it with chef_send api-7.')
  assert.equal(line(run(1, undefined, { errTail: 'dsh: unknown model nope/x' })),
    '- api-7 "Add rate limiting to /login" failed to launch: dsh: unknown model nope/x. chef_send api-7 to retry.')
  assert.match(line(run(1, 'crashed.jsonl')), /failed: the cook exited before settling\. chef_send api-7 to retry, or review with chef_result api-7\.$/)
  assert.match(line(run(1, lines({ report: { status: 'failed', summary: 'base does not build' } }))), /failed: base does not build\. Review with chef_result api-7\.$/)
  assert.match(line(run(1, 'settled-no-report.jsonl')), /finished without a report: The redirect now keeps the return path\. I did not run the e2e suite\. Review with/)
})

test('a long summary is cut to one line in the wake', () => {
  const long = 'x'.repeat(1000) + '\n' + 'y'
  const n = view(record({ runs: [run(1, lines({ report: { status: 'done', summary: long } }))] })).notice
  const l = noticeLine(n)
  assert.ok(!l.includes('\n'))
  assert.ok(l.length < 520)
  assert.match(l, /x… Review with/)
})

test('board and widget text: cooks, projects, rulebook, tasks with state, model and age, broken tasks, problems', () => {
  const views = [
    view(record({ id: 'api-7', runs: [run(1, 'crashed.jsonl')] }), { pid: 1, run: 1 }),
    view(record({ id: 'web-2', title: 'Fix login redirect', runs: [run(1, 'needs-decision.jsonl')] })),
    view(record({ id: 'api-9', title: 'Request ids' })),
    view(record({ id: 'api-3', runs: [run(1, 'done-reported.jsonl')], log: [{ type: 'closed', at: 1, discarded: false }] })),
  ]
  const board = {
    now: NOW, views, busy: 1, cap: 3,
    projects: [{ name: 'api', path: '/home/p/dev/api', baseBranch: 'main', branchPrefix: 'issue/', note: 'Go service, run make test' }],
    broken: [{ id: 'api-8', reason: 'task.json: $.title must be a string, not number 3' }],
    errors: ['config.json: maxCooks must be a whole number >= 1, not 0'],
    rulebook: rulebookText(config({ rulebook: { default: 'pstack', projects: { api: 'none' } } })),
  }
  assert.equal(boardText(board), [
    'Cooks: 1/3 busy. 3 open tasks, 1 needs you, 1 queued.',
    'Projects:',
    '- api: /home/p/dev/api, base main, branches issue/<id>. Go service, run make test',
    'Rulebook: pstack. Per project: api none.',
    'Tasks:',
    '● api-7 "Add rate limiting to /login" cooking bash: go build ./... 5m [openai/gpt-6-astra]',
    '! web-2 "Fix login redirect" needs decision: keep the cookie session or move to bearer tokens? 4m [openai/gpt-6-astra]',
    '○ api-9 "Request ids" queued (new)',
    '? api-8 broken: task.json: $.title must be a string, not number 3',
    'Problems:',
    '- config.json: maxCooks must be a whole number >= 1, not 0',
  ].join('\n'))
  assert.deepEqual(widgetLines(board), [
    'chef 1/3 cooks 1 needs you 1 broken',
    '● api-7 cooking bash: go build ./... 5m',
    '! web-2 needs decision: keep the cookie session or move to bearer t… 4m',
    '○ api-9 queued (new)',
  ])
})

test('an empty kitchen says how to start', () => {
  assert.equal(boardText({ now: 0, views: [], busy: 0, cap: 3, projects: [], broken: [], errors: [] }),
    'Cooks: 0/3 busy. 0 open tasks, 0 need you, 0 queued.\nProjects: none yet; register one with chef_add_project.')
})

const facts = { worktreeExists: true, dirty: false, ahead: 2, landed: 'base', onBranch: true }

test('close verdict: landed work closes and deletes the branch; pushed but unmerged keeps it', () => {
  const v = view(record({ runs: [run(1, 'done-reported.jsonl')] }))
  assert.deepEqual(closeVerdict(v, facts, false), { ok: true, deleteBranch: true })
  assert.deepEqual(closeVerdict(v, { ...facts, landed: 'remote' }, false), { ok: true, deleteBranch: false })
})

test('close verdict: refusals name the stored branch and the way out; discard overrides all but cooking', () => {
  const rec = record({ runs: [run(1, 'done-reported.jsonl')] })
  rec.spec.branch = 'chef/api-7' // dispatched under an older prefix
  const v = view(rec)
  const r = closeVerdict(v, { ...facts, dirty: true, landed: false, onBranch: false, head: 'detached at 1a2b3c4' }, false)
  assert.equal(r.ok, false)
  assert.equal(r.code, 'KITCHEN_CLOSE_REFUSED')
  assert.deepEqual(r.reasons, [
    'the clone of api-7 has uncommitted changes on chef/api-7; commit them there',
    'the clone of api-7 is not on its branch chef/api-7 (HEAD: detached at 1a2b3c4), so commits made there would be lost; check out chef/api-7 there',
    'branch chef/api-7 has 2 commits on neither main nor a remote-tracking branch; merge or push chef/api-7',
  ])
  const rewritten = closeVerdict(v, { ...facts, notBack: 'the clone\'s chef/api-7 no longer contains 1a2b3c4' }, false)
  assert.match(rewritten.message, /no longer contains 1a2b3c4, so the clone holds work the project does not/)
  assert.equal(closeVerdict(v, { ...facts, notBack: 'x' }, true).ok, true, 'discard drops it')
  assert.match(r.message, /Or close it with discard: true to drop the work\.$/)
  assert.deepEqual(closeVerdict(v, { ...facts, dirty: true, landed: false }, true), { ok: true, deleteBranch: true })
  const cooking = view(record({ runs: [run(1, 'crashed.jsonl')] }), { pid: 3, run: 1 })
  const c = closeVerdict(cooking, facts, true)
  assert.equal(c.ok, false)
  assert.match(c.message, /api-7 is cooking; stop it with chef_stop api-7, then close it/)
})

test('close verdict: an undelivered message is refused; a closed task says so; a missing worktree is fine', () => {
  const queued = view(record({ runs: [run(1, 'needs-decision.jsonl')], inbox: [5] }))
  const r = closeVerdict(queued, facts, false)
  assert.deepEqual(r.reasons, ['api-7 has 1 undelivered message; let the cook take it'])
  const closed = view(record({ log: [{ type: 'closed', at: 1, discarded: false }] }))
  assert.equal(closeVerdict(closed, facts, false).code, 'KITCHEN_TASK_CLOSED')
  const gone = view(record({ runs: [run(1, 'done-reported.jsonl')] }))
  assert.deepEqual(closeVerdict(gone, { worktreeExists: false, dirty: false, ahead: 0, landed: 'base', onBranch: false }, false), { ok: true, deleteBranch: true })
})

// ---------------------------------------------------------------- what the kitchen saw, and says

const branchFacts = (extra = {}) => ({
  task: 'api-7', title: 'Add rate limiting to /login', branch: 'issue/api-7', baseBranch: 'main', tip: 'abc1234567', ahead: 0, commits: [],
  landed: 'base', worktree: '/k/worktrees/api-7', worktreeExists: true, dirty: false, diffstat: '', taskDir: '/k/tasks/api-7', ...extra,
})

test('a result on a branch with no commit of its own says there is nothing to land, never that it landed', () => {
  const v = view(record({ runs: [run(1, 'done-reported.jsonl')] }))
  const none = resultFacts(branchFacts(), v)
  assert.match(none, /^Branch issue\/api-7 at abc1234567: no commits: nothing to land on main\.$/m)
  assert.doesNotMatch(none, /landed/)
  assert.match(resultFacts(branchFacts({ tip: undefined }), v), /^Branch issue\/api-7: not in the project: no commits: nothing to land\.$/m)
  // one commit that is on main: landed, as before
  assert.match(resultFacts(branchFacts({ ahead: 1, landed: false }), v), /^Branch issue\/api-7 at abc1234567: 1 commit ahead of main, not landed\.$/m)
  assert.match(resultFacts(branchFacts({ ahead: 2, landed: 'base' }), v), /: 2 commits ahead of main, landed on main\.$/m)
})

test('a result leads with what failed: the test command, and a done claim with no commit', () => {
  const done = view(record({ runs: [run(1, 'done-reported.jsonl')] }))
  const failed = { ok: false, command: 'make test', exitCode: 2, outcome: 'failed' }
  assert.equal(resultHeadline({ ...branchFacts(), state: done.state }, failed), 'Not ready: the test command `make test` failed (exit 2); no commits: nothing to land.')
  assert.equal(resultHeadline({ ...branchFacts(), state: done.state }), 'Not ready: no commits: nothing to land.')
  assert.equal(resultHeadline({ ...branchFacts({ ahead: 1 }), state: done.state }, { ...failed, outcome: 'timed-out' }), 'Not ready: the test command `make test` timed out.')
  assert.equal(resultHeadline({ ...branchFacts({ ahead: 1 }), state: done.state }, { ok: true, command: 'make test', exitCode: 0, outcome: 'passed' }), undefined)
  // a question with no commit is no failure: nothing leads
  const asks = view(record({ runs: [run(1, 'needs-decision.jsonl')] }))
  assert.equal(resultHeadline({ ...branchFacts(), state: asks.state }), undefined)
})

test('a wake gives the kitchen\'s facts beside a done claim, and calls it done only when they agree', () => {
  const n = view(record({ runs: [run(1, 'done-reported.jsonl')] })).notice
  const calls = (list, extra = {}) => ({ ...n, ran: { toolCalls: list.length, failedCalls: list.filter((c) => c.failed).length, calls: list, ...extra } })
  const seen = (extra) => ({ branch: 'issue/api-7', ...extra })
  const claimed = calls([{ text: 'bash: sleep 100', failed: '[timed out after 60000ms]; [killed by signal: SIGTERM]' }])
  assert.equal(noticeLine({ ...claimed, seen: seen({ commits: 'none', test: 'make test' }) }),
    '- api-7 "Add rate limiting to /login" says it is done: token bucket in limit.go, make test passes. The kitchen saw: no commits on issue/api-7; ' +
    'the test command `make test` not run; 1 tool call failed, the last `bash: sleep 100` ([timed out after 60000ms]; [killed by signal: SIGTERM]). Review with chef_result api-7.')
  const good = calls([{ text: 'bash: make test -j4' }])
  assert.match(noticeLine({ ...good, seen: seen({ commits: 'some', test: 'make test' }) }), / is done: .* The kitchen saw: new commits on issue\/api-7; the test command `make test` passed\. Review/)
  const red = calls([{ text: 'bash: make test', failed: 'FAIL limit_test.go' }])
  assert.match(noticeLine({ ...red, seen: seen({ commits: 'some', test: 'make test' }) }), / says it is done: .* the test command `make test` failed \(FAIL limit_test\.go\); 1 tool call failed/)
  // more calls than a fold keeps: "not among its last N", not "not run"
  assert.match(sawText({ ...calls([{ text: 'bash: ls' }], { toolCalls: 40 }), seen: seen({ test: 'make test' }) }).text, /the test command `make test` not among its last 1 tool calls/)
  // no test command known: only a last call that failed casts doubt
  assert.equal(sawText(calls([{ text: 'bash: a', failed: 'x' }, { text: 'bash: b' }])).doubt, false)
  assert.equal(sawText(calls([{ text: 'bash: b' }, { text: 'bash: a', failed: 'x' }])).doubt, true)
  // what a cook ran is its text: escaped in the wake
  assert.doesNotMatch(noticeLine(calls([{ text: 'bash: \x1b]52;c;x\x07', failed: '\x1b[31mred' }])), /\x1b|\x07/)
})

test('the chef\'s answers: send, stop, the board\'s heading and live board, /chef on, and the formats when none is found', () => {
  assert.equal(sendText('api-7', { kind: 'steered', run: 2 }), 'Sent to api-7: the cook of run 2 takes it after its current step.')
  assert.equal(sendText('api-7', { kind: 'failed', reason: 'no\x1b[2J clone' }), 'api-7 failed to launch: no\\x1b[2J clone')
  assert.match(stopText('api-7', { kind: 'stopping', run: 1 }, 5000), /SIGKILL follows after 5 s/)
  assert.equal(stopText('api-7', { kind: 'not-cooking', ended: 2 }), 'api-7 is not cooking; 2 leftover processes of its runs were ended.')
  assert.equal(boardHeadingText('/k', { kind: 'owner' }), 'Kitchen /k (owner).')
  assert.equal(boardHeadingText('/k', { kind: 'read-only', holder: { sessionId: 's-2', pid: 42 } }), 'Kitchen /k (read-only: another session owns it). session s-2 (pid 42) holds the lease; /chef takeover takes it over.')
  assert.equal(boardHeadingText('/k', { kind: 'read-only', reason: 'read-only file system' }), 'Kitchen /k (read-only: read-only file system).')
  assert.equal(serveLineText('/home/p/my kitchen'), "Live board in a browser: command-scout serve --kitchen '/home/p/my kitchen'")
  assert.match(chefOnText('/k', { kind: 'owner' }), /^Chef mode on: you own the kitchen at \/k\. Tools: chef_add_project,/)
  assert.match(chefOnText('/k', { kind: 'read-only', holder: { sessionId: 's-2', pid: 42 } }), /read-only here: session s-2 \(pid 42\) owns it; \/chef takeover takes it over/)
  assert.match(boardRestoringText('/k'), /coming back/)
  // every format discovery reads, not a few of them
  for (const row of COLLECTOR_TABLE) {
    assert.ok(FORMATS_TEXT.includes(row.format), row.format)
    assert.ok(commandsText({ count: 0 }).includes(row.format), row.format)
    assert.ok(noTestCommandText('main').includes(row.format), row.format)
  }
  assert.match(namedTestProblemText('rm -rf ~', []), /^testCommand "rm -rf ~" names none of the project's commands; the project declares none \(none in Makefile targets, .* or Nx targets\)/)
})
