import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deriveTask, wakeText, restartText, boardText, widgetLines, closeVerdict, noticeLine } from '../../../dist/src/kitchen/derive/index.js'
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
