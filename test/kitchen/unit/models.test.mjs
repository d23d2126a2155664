import { test } from 'node:test'
import assert from 'node:assert/strict'
import { selectModels, modelsPrompt } from '../../../dist/src/kitchen/derive/index.js'
import { config } from './helpers.mjs'

const models = config({
  models: {
    rules: [
      { name: 'fast', when: 'small fixes and docs.', use: ['openai/gpt-mini', 'deepseek/deepseek-chat'], why: 'cheap and quick.' },
      { name: 'deep', when: 'large refactors.', use: { model: 'anthropic/opus', thinking: 'high' } },
    ],
    default: ['deepseek/deepseek-chat', 'openai/gpt-6'],
  },
}).models

test('a rule\'s models come first, then the default list, each model once at its first place', () => {
  assert.deepEqual(selectModels({ rule: 'fast' }, models), {
    models: [{ model: 'openai/gpt-mini' }, { model: 'deepseek/deepseek-chat' }, { model: 'openai/gpt-6' }], rule: 'fast', skipped: [],
  })
  assert.deepEqual(selectModels({}, models).models, [{ model: 'deepseek/deepseek-chat' }, { model: 'openai/gpt-6' }])
})

test('an explicit model is candidate one, before the default list', () => {
  assert.deepEqual(selectModels({ model: ' openai/gpt-6 ' }, models).models, [{ model: 'openai/gpt-6' }, { model: 'deepseek/deepseek-chat' }])
})

test('a blank model, a model with a rule, and an unknown rule are refused with the fix', () => {
  assert.throws(() => selectModels({ model: '  ' }, models), (e) => e.code === 'KITCHEN_BAD_INPUT' && /model is blank/.test(e.message))
  assert.throws(() => selectModels({ model: 'a/b', rule: 'fast' }, models), (e) => e.code === 'KITCHEN_RULE_WITH_MODEL' && /pass either model or rule, not both/.test(e.message))
  assert.throws(() => selectModels({ rule: 'fastest' }, models), (e) => e.code === 'KITCHEN_UNKNOWN_RULE' && e.message === 'unknown rule "fastest"; the rules are fast, deep (or pass no rule for the default models)')
  assert.throws(() => selectModels({ rule: 'x' }, config().models), (e) => /the config has no model rules/.test(e.message))
})

test('unavailable models are dropped with their reasons; none left is a refusal with every reason', () => {
  const check = (m) => (m.startsWith('openai/') ? { ok: false, reason: 'no credentials for provider openai' } : { ok: true })
  const r = selectModels({ rule: 'fast' }, models, check)
  assert.deepEqual(r.models, [{ model: 'deepseek/deepseek-chat' }])
  assert.deepEqual(r.skipped, [
    { model: 'openai/gpt-mini', reason: 'no credentials for provider openai' },
    { model: 'openai/gpt-6', reason: 'no credentials for provider openai' },
  ])
  const none = () => ({ ok: false, reason: 'unknown model' })
  assert.throws(() => selectModels({ rule: 'deep' }, models, none), (e) => e.code === 'KITCHEN_NO_MODEL' &&
    e.message.startsWith('no candidate model can run: anthropic/opus (unknown model); deepseek/deepseek-chat (unknown model); openai/gpt-6 (unknown model)'))
})

test('with nothing configured the candidates are empty and the harness default applies', () => {
  assert.deepEqual(selectModels({}, config().models, () => ({ ok: false, reason: 'x' })), { models: [], skipped: [] })
})

test('the chef\'s models section lists each rule and the default, and is absent without rules', () => {
  assert.equal(modelsPrompt(models), [
    '## Cook models',
    '',
    'Pick the rule that fits the task best and pass its name as `rule` to chef_dispatch. Pass no rule to use the default models. Pass `model` only when the human asks for a specific model, and then no rule.',
    '',
    '- `fast`: small fixes and docs. Why: cheap and quick. Models: openai/gpt-mini, deepseek/deepseek-chat.',
    '- `deep`: large refactors. Models: anthropic/opus (thinking high).',
    '',
    "Default models (after the rule's, and alone with no rule): deepseek/deepseek-chat, openai/gpt-6.",
  ].join('\n'))
  assert.equal(modelsPrompt(config({ models: { default: 'a/b' } }).models), undefined)
})
