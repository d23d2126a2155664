import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fold, recorded } from './helpers.mjs'

test('a reported run folds its report, model, prompt and last activity', () => {
  const f = fold(recorded('done-reported.jsonl'))
  assert.deepEqual(f.report, { status: 'done', summary: 'token bucket in limit.go, make test passes' })
  assert.deepEqual(f.model, { provider: 'openai', model: 'gpt-6-astra' })
  assert.equal(f.prompted, true)
  assert.equal(f.settledAt, 1764495644030)
  assert.equal(f.startedAt, 1764495600000)
  assert.equal(f.sessionId, 'session-api-7')
  assert.equal(f.lastText, 'Tests pass; committing and reporting.')
  assert.equal(f.providerError, undefined)
  assert.equal(f.lines, 12)
  assert.equal(f.bad, 0)
})

test('a run that settled without a report keeps the final assistant text', () => {
  const f = fold(recorded('settled-no-report.jsonl'))
  assert.equal(f.report, undefined)
  assert.equal(f.lastText, 'The redirect now keeps the return path. I did not run the e2e suite.')
  assert.ok(f.settledAt)
})

test('an HTTP 402 answer is a provider-error verdict with the error text and the model that failed', () => {
  const f = fold(recorded('provider-402.jsonl'))
  assert.equal(f.providerError, '402: Payment Required: this request requires more credits')
  assert.deepEqual(f.model, { provider: 'openrouter', model: 'z-ai/glm-5.2' })
  assert.ok(f.settledAt)
})

test('a later successful assistant message clears an earlier provider error', () => {
  const m = { provider: 'a', model: 'b' }
  const f = fold([
    { type: 'assistant', at: 1, model: m, stopReason: 'error', text: '', error: '429: slow down' },
    { type: 'assistant', at: 2, model: m, stopReason: 'stop', text: 'ok' },
  ])
  assert.equal(f.providerError, undefined)
  assert.equal(f.lastText, 'ok')
})

test('a crashed run is unsettled and its activity is the tool it was running', () => {
  const f = fold(recorded('crashed.jsonl'))
  assert.equal(f.settledAt, undefined)
  assert.deepEqual(f.activity, { text: 'bash: go build ./...', since: 1764495601010 })
})

test('bad lines are skipped and counted; a steer shows in the activity', () => {
  const f = fold(recorded('steered-with-bad-lines.jsonl'))
  assert.equal(f.bad, 3)
  assert.equal(f.lines, 4)
  assert.equal(f.activity.text, 'steered: Also update the README, please.')
})

test('a failed chef_report call is not a report', () => {
  const f = fold([{ type: 'tool_end', at: 1, callId: 'x', tool: 'chef_report', isError: true, report: { status: 'done', summary: 's' } }])
  assert.equal(f.report, undefined)
})
