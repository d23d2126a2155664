import { test } from 'node:test'
import assert from 'node:assert/strict'
import { plan, deriveTask, wakeText } from '../../../dist/src/kitchen/derive/index.js'
import { record, run, config, lines } from './helpers.mjs'

const NOW = 1_800_000_000_000
const cfg = config()
const models = [{ model: 'openrouter/z-ai/glm-5.2' }, { model: 'openai/gpt-6-astra', thinking: 'high' }]
const fail402 = (at = 1000) => lines({ at, model: 'openrouter/z-ai/glm-5.2', providerError: '402: Payment Required' })
const done2 = (at = 2000) => lines({ at, model: 'openai/gpt-6-astra', report: { status: 'done', summary: 'token bucket in limit.go' } })

test('a provider failure on candidate 1 plans run 2 on candidate 2 with the fallback prompt and no notice', () => {
  const p = plan([record({ models, runs: [run(1, fail402())] })], new Map(), NOW, cfg)
  assert.deepEqual(p.views[0].state, { kind: 'queued', why: 'fallback' })
  assert.equal(p.views[0].model, 'openai/gpt-6-astra')
  assert.deepEqual(p.actions, [{
    kind: 'launch', task: 'api-7', run: 2, prompt: 'fallback', why: 'fallback',
    candidate: { model: 'openai/gpt-6-astra', thinking: 'high' },
    fallback: { failed: { run: 1, model: 'openrouter/z-ai/glm-5.2', error: '402: Payment Required' }, next: { model: 'openai/gpt-6-astra', thinking: 'high' } },
  }])
})

test('the notice after a fallback names the model that failed, why, and the model that took over', () => {
  const v = deriveTask(record({ models, runs: [run(1, fail402()), run(2, done2())] }), undefined, NOW, cfg)
  assert.equal(v.notice.run, 2)
  assert.deepEqual(v.notice.tried, [{ run: 1, model: 'openrouter/z-ai/glm-5.2', error: '402: Payment Required' }])
  assert.equal(wakeText([v.notice]), [
    'Kitchen update (1):',
    '- api-7 "Add rate limiting to /login" is done: token bucket in limit.go. It fell back to openai/gpt-6-astra after a provider error on openrouter/z-ai/glm-5.2 (402: Payment Required). Review with chef_result api-7.',
  ].join('\n'))
})

test('later runs stay on the candidate that worked', () => {
  const rec = record({ models, runs: [run(1, fail402()), run(2, done2())], log: [{ type: 'notified', at: 1, run: 2 }], inbox: [NOW] })
  const p = plan([rec], new Map(), NOW, cfg)
  assert.deepEqual(p.actions.map((a) => [a.kind, a.run, a.prompt, a.candidate?.model]), [['launch', 3, 'messages', 'openai/gpt-6-astra']])
})

test('a crash, a failed report, or a stopped run does not fall back', () => {
  for (const r1 of [
    run(1, 'crashed.jsonl'),
    run(1, lines({ report: { status: 'failed', summary: 'cannot' } })),
  ]) {
    const v = deriveTask(record({ models, runs: [r1] }), undefined, NOW, cfg)
    assert.equal(v.state.kind, 'idle')
    assert.deepEqual(v.candidate, models[0], 'the next run stays on candidate 1')
  }
  const stopped = deriveTask(record({ models, runs: [run(1, fail402().slice(0, 2))], log: [{ type: 'stop', at: 5, run: 1 }] }), undefined, NOW, cfg)
  assert.deepEqual(stopped.state.outcome, { kind: 'stopped' })
  assert.deepEqual(stopped.candidate, models[0])
})

test('the last candidate\'s provider failure notifies with every model tried, and a retry stays on the last', () => {
  const fail429 = lines({ at: 3000, model: 'openai/gpt-6-astra', providerError: '429: rate limited' })
  const rec = record({ models, runs: [run(1, fail402()), run(2, fail429)] })
  const v = deriveTask(rec, undefined, NOW, cfg)
  assert.deepEqual(v.state.outcome, { kind: 'failed', reason: '429: rate limited', cause: 'provider' })
  assert.deepEqual(v.notice.tried.map((t) => t.model), ['openrouter/z-ai/glm-5.2', 'openai/gpt-6-astra'])
  assert.equal(wakeText([v.notice]).split('\n')[1],
    '- api-7 "Add rate limiting to /login" failed with a provider error on every candidate model: openrouter/z-ai/glm-5.2 (402: Payment Required); openai/gpt-6-astra (429: rate limited). chef_send api-7 to retry on openai/gpt-6-astra, or tell the human.')
  const retry = plan([{ ...rec, log: [{ type: 'notified', at: 1, run: 2 }], inbox: [NOW] }], new Map(), NOW, cfg)
  assert.deepEqual(retry.actions.map((a) => [a.run, a.candidate.model]), [[3, 'openai/gpt-6-astra']])
})

test('an interrupted fallback launch relaunches the same run on the same candidate', () => {
  const p = plan([record({ models, runs: [run(1, fail402()), run(2, undefined, { claimed: false })] })], new Map(), NOW, cfg)
  assert.deepEqual(p.actions.map((a) => [a.kind, a.run, a.prompt, a.candidate.model]), [['launch', 2, 'existing', 'openai/gpt-6-astra']])
})

test('a launch failure uses up no candidate', () => {
  const rec = record({ models, runs: [run(1, undefined, { errTail: 'spawn failed' })], inbox: [NOW] })
  const p = plan([rec], new Map(), NOW, cfg)
  assert.deepEqual(p.actions.map((a) => [a.run, a.candidate.model]), [[2, 'openrouter/z-ai/glm-5.2']])
})

test('with a single candidate a provider failure is final at once', () => {
  const v = deriveTask(record({ models: [models[0]], runs: [run(1, fail402())] }), undefined, NOW, cfg)
  assert.equal(v.state.kind, 'idle')
  assert.equal(wakeText([v.notice]).split('\n')[1],
    '- api-7 "Add rate limiting to /login" failed with a provider error on openrouter/z-ai/glm-5.2 (402: Payment Required). chef_send api-7 to retry, or tell the human.')
})
