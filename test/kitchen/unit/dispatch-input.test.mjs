import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeDispatch } from '../../../dist/src/kitchen/derive/index.js'

const codes = (r) => r.issues.map((i) => `${i.code}@${i.path}`)

test('a single dispatch normalizes its fields', () => {
  assert.deepEqual(normalizeDispatch({ project: 'api', title: ' Add limits ', brief: 'Token bucket.', rule: 'fast', model: null }), {
    ok: true, batch: false, items: [{ project: 'api', title: 'Add limits', brief: 'Token bucket.', rule: 'fast' }],
  })
})

test('batch items inherit project and routing from the top level', () => {
  const r = normalizeDispatch({
    project: 'api', rule: 'fast',
    tasks: [
      { title: 'a', brief: 'A' },
      { title: 'b', brief: 'B', project: 'web' },
      { title: 'c', brief: 'C', model: 'openai/gpt-6' },
    ],
  })
  assert.deepEqual(r, {
    ok: true, batch: true, items: [
      { project: 'api', title: 'a', brief: 'A', rule: 'fast' },
      { project: 'web', title: 'b', brief: 'B', rule: 'fast' },
      { project: 'api', title: 'c', brief: 'C', model: 'openai/gpt-6' },
    ],
  })
})

test('a batch has no size cap', () => {
  const tasks = Array.from({ length: 500 }, (_, i) => ({ title: `t${i}`, brief: 'b' }))
  const r = normalizeDispatch({ project: 'api', tasks })
  assert.equal(r.items.length, 500)
})

test('a rule with a model is refused, single or in an effective batch item, with the fix', () => {
  const single = normalizeDispatch({ project: 'api', title: 't', brief: 'b', rule: 'fast', model: 'a/b' })
  assert.equal(single.ok, false)
  assert.deepEqual(codes(single), ['rule_with_model@model'])
  assert.equal(single.error.code, 'KITCHEN_RULE_WITH_MODEL')
  assert.match(single.error.message, /pass either model or rule, not both/)
  const item = normalizeDispatch({ project: 'api', tasks: [{ title: 't', brief: 'b', rule: 'fast', model: 'a/b' }] })
  assert.deepEqual(codes(item), ['rule_with_model@tasks[0]'])
  const top = normalizeDispatch({ project: 'api', rule: 'fast', model: 'a/b', tasks: [{ title: 't', brief: 'b' }] })
  assert.deepEqual(codes(top), ['rule_with_model@tasks[0]'])
})

test('hard failures name the field: no target, both forms, unknown fields, blanks, empty batch', () => {
  assert.deepEqual(codes(normalizeDispatch({ title: 't', brief: 'b' })), ['no_target@project'])
  assert.deepEqual(codes(normalizeDispatch({ tasks: [{ title: 't', brief: 'b' }] })), ['no_target@tasks[0].project'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', title: 't', tasks: [{ title: 't', brief: 'b' }] })), ['both_forms@title'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', title: 't', brief: 'b', priority: 'high' })), ['unknown_field@priority'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', tasks: [{ title: 't', brief: 'b', cwd: '/x' }] })), ['unknown_field@tasks[0].cwd'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', title: 't', brief: 'b', model: '  ' })), ['bad_field@model'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', title: '', brief: 'b' })), ['bad_field@title'])
  assert.deepEqual(codes(normalizeDispatch({ project: 'api', tasks: [] })), ['empty_batch@tasks'])
  assert.deepEqual(codes(normalizeDispatch({ project: '../etc', title: 't', brief: 'b' })), ['bad_field@project'])
  assert.deepEqual(codes(normalizeDispatch('dispatch it')), ['not_object@$'])
  const r = normalizeDispatch({ project: 'api', tasks: [{ title: 't', brief: 'b', cwd: '/x' }] })
  assert.equal(r.error.code, 'KITCHEN_BAD_INPUT')
  assert.match(r.error.message, /^nothing was dispatched: tasks\[0\]\.cwd is not a dispatch field; the fields are project, title, brief, model, rule$/)
})

test('a top-level field that no item inherits is refused, never ignored', () => {
  const r = normalizeDispatch({ project: 'api', rule: 'fast', tasks: [{ title: 't', brief: 'b', project: 'web', model: 'a/b' }] })
  assert.deepEqual(codes(r), ['unused_field@project', 'unused_field@rule'])
})

test('every issue of a batch is reported at once and nothing is dispatched', () => {
  const r = normalizeDispatch({ tasks: [{ title: 't' }, 'x', { title: 't', brief: 'b', project: 'api' }] })
  assert.equal(r.ok, false)
  assert.deepEqual(codes(r), ['missing_field@tasks[0].brief', 'no_target@tasks[0].project', 'bad_field@tasks[1]'])
})
