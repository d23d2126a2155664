import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  parseTask, parseProject, parseRunLine, parseLogLine, parseTaskId, taskId, isProjectName, inboxName, INBOX_NAME,
  KitchenError, ChefError,
} from '../../../dist/src/kitchen/domain.js'

const spec = {
  id: 'api-7', project: 'api', title: 'Add rate limiting', brief: 'do it', branch: 'issue/api-7',
  worktree: '/k/worktrees/api-7', baseBranch: 'main', sessionId: 'session-1',
}

test('task ids are the project, a dash and a number; a project with dashes parses from the last dash', () => {
  assert.equal(taskId('api', 7), 'api-7')
  assert.deepEqual(parseTaskId('my-api-12'), { project: 'my-api', n: 12 })
  assert.equal(parseTaskId('api-0'), undefined)
  assert.equal(parseTaskId('../x-1'), undefined)
  assert.equal(isProjectName('constructor'), true)
  assert.equal(isProjectName('a..b'), false)
  assert.equal(isProjectName('x.lock'), false)
})

test('a task.json from before candidates loads its model as a list of one, and none as []', () => {
  const old = parseTask({ ...spec, model: 'openai/gpt-6' })
  assert.ok(old.ok)
  assert.deepEqual(old.value.models, [{ model: 'openai/gpt-6' }])
  const none = parseTask(spec)
  assert.ok(none.ok)
  assert.deepEqual(none.value.models, [])
  const now = parseTask({ ...spec, models: [{ model: 'a/b', thinking: 'high' }], rule: 'fast' })
  assert.ok(now.ok)
  assert.deepEqual(now.value.models, [{ model: 'a/b', thinking: 'high' }])
  assert.equal(now.value.rule, 'fast')
})

test('a broken task.json gives a reason naming the field', () => {
  const r = parseTask({ ...spec, models: [{ model: '' }] })
  assert.equal(r.ok, false)
  assert.match(r.reason, /\$\.models\[0\]\.model/)
  const wrongProject = parseTask({ ...spec, project: 'web' })
  assert.equal(wrongProject.ok, false)
  assert.match(wrongProject.reason, /does not start with the project/)
})

test('a project file without branchPrefix loads with issue/', () => {
  const r = parseProject({ name: 'api', path: '/src/api', baseBranch: 'main' })
  assert.ok(r.ok)
  assert.equal(r.value.branchPrefix, 'issue/')
  const f = parseProject({ name: 'api', path: '/src/api', baseBranch: 'main', branchPrefix: 'feat/' })
  assert.equal(f.value.branchPrefix, 'feat/')
})

test('run-file lines are checked before use; unknown or malformed lines are refused', () => {
  assert.deepEqual(parseRunLine('{"type":"settled","at":5}'), { type: 'settled', at: 5 })
  const end = parseRunLine(JSON.stringify({ type: 'tool_end', at: 1, callId: 'c', tool: 'chef_report', isError: false, report: { status: 'done', summary: 's' } }))
  assert.deepEqual(end.report, { status: 'done', summary: 's' })
  assert.equal(parseRunLine('{"type":"tool_end","at":1,"callId":"c","tool":"chef_report","isError":false,"report":{"status":"maybe","summary":"s"}}'), undefined)
  assert.equal(parseRunLine('{"type":"nope","at":1}'), undefined)
  assert.equal(parseRunLine('{"type":"settled"}'), undefined)
  assert.equal(parseRunLine('not json'), undefined)
  assert.equal(parseRunLine('{"type":"constructor","at":1}'), undefined)
})

test('log lines: each event type with its fields', () => {
  assert.deepEqual(parseLogLine('{"type":"stop","at":1,"run":2}'), { type: 'stop', at: 1, run: 2 })
  assert.deepEqual(parseLogLine('{"type":"closed","at":1,"discarded":false}'), { type: 'closed', at: 1, discarded: false })
  assert.equal(parseLogLine('{"type":"launch_failed","at":1,"run":2}'), undefined)
  assert.equal(parseLogLine('{"type":"stop","at":1,"run":0}'), undefined)
})

test('inbox names sort by time and parse back', () => {
  const n = inboxName(1700000000000, 'ab12')
  assert.equal(n, '1700000000000-ab12.msg')
  assert.equal(INBOX_NAME.exec(n)[1], '1700000000000')
})

test('KitchenError carries a stable code; ChefError is the same class', () => {
  const e = new ChefError('KITCHEN_UNKNOWN_RULE', 'unknown rule')
  assert.ok(e instanceof KitchenError)
  assert.equal(e.code, 'KITCHEN_UNKNOWN_RULE')
})
