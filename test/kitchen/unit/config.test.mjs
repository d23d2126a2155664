import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeKitchenConfig, DEFAULT_KITCHEN_CONFIG } from '../../../dist/src/kitchen/store/index.js'

// The config as the kitchen's host gives it (the harness row): the only source of cookArgs.
const norm = (raw) => normalizeKitchenConfig(raw, 'config.json', true)

test('no config gives the defaults and no error line', () => {
  const { config, errors } = norm(undefined)
  assert.deepEqual(errors, [])
  assert.equal(config.maxCooks, 3)
  assert.deepEqual(config.models, { rules: [], default: [] })
  assert.equal(config.exitWaitMs, 5000)
  assert.equal(config.reclaimAfterMs, 30000)
  assert.equal(config.exitGraceMs, 10000)
  assert.equal(config.rulebook.default, undefined)
})

test('models: rules and a default list normalize; a single profile is a list of one', () => {
  const { config, errors } = norm({
    maxCooks: 5,
    cookArgs: ['--profile', 'cook'],
    models: {
      rules: [
        { name: 'fast', when: 'small fixes', use: { model: 'openai/gpt-mini' }, why: 'cheap' },
        { name: 'deep', when: 'large refactors', use: [{ model: 'anthropic/opus', thinking: 'high' }, 'openai/gpt-6'] },
      ],
      default: { model: 'openrouter/z-ai/glm-5.2' },
    },
  })
  assert.deepEqual(errors, [])
  assert.equal(config.maxCooks, 5)
  assert.deepEqual(config.cookArgs, ['--profile', 'cook'])
  assert.deepEqual(config.models.rules, [
    { name: 'fast', when: 'small fixes', use: [{ model: 'openai/gpt-mini' }], why: 'cheap' },
    { name: 'deep', when: 'large refactors', use: [{ model: 'anthropic/opus', thinking: 'high' }, { model: 'openai/gpt-6' }] },
  ])
  assert.deepEqual(config.models.default, [{ model: 'openrouter/z-ai/glm-5.2' }])
})

test('the old model and thinking shorthand loads as models.default', () => {
  const { config, errors } = norm({ model: 'openai/gpt-6', thinking: 'low' })
  assert.deepEqual(errors, [])
  assert.deepEqual(config.models.default, [{ model: 'openai/gpt-6', thinking: 'low' }])
})

test('duplicate rule names are an error line and the kitchen uses the defaults', () => {
  const { config, errors } = norm({ maxCooks: 9, models: { rules: [{ name: 'fast', when: 'a', use: 'x/y' }, { name: 'fast', when: 'b', use: 'x/z' }] } })
  assert.match(errors[0], /models\.rules\[1\]\.name "fast" is used twice; rule names must be unique/)
  assert.match(errors.at(-1), /uses the default config/)
  assert.equal(config.maxCooks, 3)
  assert.deepEqual(config.models.rules, [])
})

test('a bad thinking level is an error line naming the levels', () => {
  const { errors, config } = norm({ models: { default: [{ model: 'a/b', thinking: 'extreme' }] } })
  assert.match(errors[0], /models\.default\[0\]\.thinking must be one of off, minimal, low, medium, high, xhigh, max, not "extreme"/)
  assert.deepEqual(config.models.default, [])
})

test('old and new model fields together, or thinking without model, are error lines', () => {
  assert.match(norm({ model: 'a/b', models: { default: 'c/d' } }).errors[0], /"models" and the older "model"/)
  assert.match(norm({ thinking: 'low' }).errors[0], /has "thinking" but no "model"/)
})

test('rulebook: the string form, the object form, and none', () => {
  const s = norm({ rulebook: 'pstack' })
  assert.deepEqual(s.errors, [])
  assert.equal(s.config.rulebook.default, 'pstack')
  assert.equal(s.config.rulebook.projects.size, 0)
  const o = norm({ rulebook: { default: 'pstack', projects: { api: 'none', web: 'superpowers' } } })
  assert.deepEqual(o.errors, [])
  assert.ok(o.config.rulebook.projects instanceof Map)
  assert.equal(o.config.rulebook.projects.get('api'), 'none')
  assert.equal(norm({ rulebook: 'none' }).config.rulebook.default, 'none')
})

test('rulebook: a bad name, another type, or an unknown key is an error line and no selection', () => {
  for (const [raw, re] of [
    [{ rulebook: 'Bad Name' }, /rulebook must be a rulebook name matching \[a-z0-9-\]\+ or "none", not "Bad Name"/],
    [{ rulebook: 7 }, /rulebook must be a rulebook name or \{default\?, projects\?\}, not 7/],
    [{ rulebook: { default: 'pstack', extra: 1 } }, /rulebook has the unknown key "extra"; the keys are default, projects/],
    [{ rulebook: { projects: { api: 'UP' } } }, /rulebook\.projects\.api must be a rulebook name/],
  ]) {
    const { config, errors } = norm(raw)
    assert.match(errors[0], re)
    assert.equal(config.rulebook.default, undefined)
    assert.equal(config.rulebook.projects.size, 0)
  }
})

test('the older field name recipe loads with one line asking for the rename; both names is an error', () => {
  const r = norm({ recipe: 'pstack' })
  assert.equal(r.config.rulebook.default, 'pstack')
  assert.equal(r.errors.length, 1)
  assert.match(r.errors[0], /"recipe" is now "rulebook"; rename it/)
  const both = norm({ recipe: 'pstack', rulebook: 'pstack' })
  assert.match(both.errors[0], /both "rulebook" and its older name "recipe"/)
  assert.equal(both.config.rulebook.default, undefined)
})

test('grace periods, cookArgs, maxCooks and unknown fields are checked; never a throw', () => {
  const { config } = norm({ exitWaitMs: 100, reclaimAfterMs: 0, killGraceMs: 1, exitGraceMs: 2 })
  assert.deepEqual([config.exitWaitMs, config.reclaimAfterMs, config.killGraceMs, config.exitGraceMs], [100, 0, 1, 2])
  assert.match(norm({ exitWaitMs: -1 }).errors[0], /exitWaitMs must be a whole number of milliseconds >= 0, not -1/)
  assert.match(norm({ maxCooks: 0 }).errors[0], /maxCooks must be a whole number >= 1/)
  assert.match(norm({ cookArgs: 'x' }).errors[0], /cookArgs must be a list of strings/)
  assert.match(norm({ maxcooks: 2 }).errors[0], /unknown field "maxcooks"/)
  assert.match(norm([1]).errors[0], /must hold a JSON object, not a list/)
  assert.equal(DEFAULT_KITCHEN_CONFIG.maxCooks, 3)
})

test('from a file, what a cook is launched with is ignored with a note, never used: cookArgs and cookCommand', () => {
  const { config, errors } = normalizeKitchenConfig({ maxCooks: 2, cookArgs: ['--patch', '/evil.yml'], cookCommand: ['/bin/sh', '-c', 'rm -rf ~'] })
  assert.equal(config.maxCooks, 2, 'the rest of the file applies')
  assert.deepEqual(config.cookArgs, [])
  assert.equal(config.cookCommand, undefined)
  assert.equal(errors.length, 2)
  assert.match(errors.join('\n'), /cookArgs is ignored here; what a cook is launched with comes only from the kitchen's host/)
  assert.match(errors.join('\n'), /cookCommand is ignored here; the cook command comes only from the kitchen's host/)
  // from the host, cookArgs is taken; a cookCommand is still not (the host hands it over on its own)
  const host = normalizeKitchenConfig({ cookArgs: ['--x'], cookCommand: ['a'] }, 'the kitchen config', true)
  assert.deepEqual(host.config.cookArgs, ['--x'])
  assert.equal(host.config.cookCommand, undefined)
})
