import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cooksSnapshot } from '../../dist/src/kitchen/derive/index.js'

const spec = (id) => ({ id, project: 'api', title: `T ${id}`, brief: 'b', branch: `issue/${id}`, worktree: `/k/worktrees/${id}`, baseBranch: 'main', sessionId: 's', models: [] })
const view = (id, state, extra = {}) => ({ id, spec: spec(id), state, nextRun: 1, pending: 0, tried: [], ...extra })
const paths = { taskDir: (id) => `/k/tasks/${id}`, runFile: (id, run) => `/k/tasks/${id}/runs/${run}.jsonl` }

test('cooksSnapshot: one entry per open task, by state; closed tasks are absent', () => {
  const views = [
    view('api-1', { kind: 'cooking', run: 2, since: 100, activity: { text: 'bash: npm test', since: 150 } }, { model: 'p/a' }),
    view('api-2', { kind: 'idle', run: 1, since: 200, outcome: { kind: 'done', summary: 'token bucket', reported: true } }),
    view('api-3', { kind: 'idle', run: 1, since: 300, outcome: { kind: 'needs_decision', question: 'cookie or bearer?' } }),
    view('api-4', { kind: 'idle', run: 3, since: 400, outcome: { kind: 'failed', reason: '402', cause: 'provider' } }),
    view('api-5', { kind: 'idle', run: undefined, since: 500, outcome: { kind: 'stopped' } }),
    view('api-6', { kind: 'queued', why: 'new' }),
    view('api-7', { kind: 'closed', at: 700, discarded: false }),
  ]
  const s = cooksSnapshot('sess', 'owner', views, paths)
  assert.equal(s.version, 1)
  assert.equal(s.sessionId, 'sess')
  assert.equal(s.role, 'owner')
  assert.deepEqual(s.tasks.map((t) => t.id), ['api-1', 'api-2', 'api-3', 'api-4', 'api-5', 'api-6'])
  assert.deepEqual(s.tasks[0], {
    id: 'api-1', project: 'api', title: 'T api-1', state: 'cooking', worktree: '/k/worktrees/api-1', branch: 'issue/api-1', taskDir: '/k/tasks/api-1',
    model: 'p/a', run: 2, since: 100, activity: 'bash: npm test', transcript: '/k/tasks/api-1/runs/2.jsonl',
  })
  assert.deepEqual(s.tasks[1].outcome, { kind: 'done', text: 'done: token bucket' })
  assert.deepEqual(s.tasks[2].outcome, { kind: 'needs_decision', text: 'needs decision: cookie or bearer?' })
  assert.equal(s.tasks[3].outcome.kind, 'failed')
  assert.equal(s.tasks[3].transcript, '/k/tasks/api-4/runs/3.jsonl')
  // idle before a first run: no run, no transcript
  assert.equal(s.tasks[4].run, undefined)
  assert.equal(s.tasks[4].transcript, undefined)
  assert.deepEqual(s.tasks[4].outcome, { kind: 'stopped', text: 'stopped' })
  assert.deepEqual(s.tasks[5], { id: 'api-6', project: 'api', title: 'T api-6', state: 'queued', worktree: '/k/worktrees/api-6', branch: 'issue/api-6', taskDir: '/k/tasks/api-6' })
})

test('cooksSnapshot: role off carries no tasks; read-only carries them', () => {
  const views = [view('api-6', { kind: 'queued', why: 'new' })]
  assert.deepEqual(cooksSnapshot('s', 'off', views, paths), { version: 1, sessionId: 's', role: 'off', tasks: [] })
  assert.equal(cooksSnapshot('s', 'read-only', views, paths).tasks.length, 1)
})
