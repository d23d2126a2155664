import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeConfig, DEFAULT_CONFIG, ConfigError } from '../../dist/src/index.js'

test('defaults fill every field', () => {
  const c = normalizeConfig({})
  assert.deepEqual(c, JSON.parse(JSON.stringify(DEFAULT_CONFIG)))
  assert.equal(c.collectors.scripts.runner, 'auto')
  assert.deepEqual(c.collectors.scripts.lockfilePriority, ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock', 'package-lock.json'])
})

test('partial sections keep the other defaults', () => {
  const c = normalizeConfig({ collectors: { scripts: { runner: 'pnpm' }, justfile: { enabled: false } }, naming: { style: 'flat' } })
  assert.equal(c.collectors.scripts.runner, 'pnpm')
  assert.equal(c.collectors.scripts.enabled, true)
  assert.equal(c.collectors.justfile.enabled, false)
  assert.equal(c.naming.style, 'flat')
})

test('bad values name the field and the choices', () => {
  assert.throws(() => normalizeConfig({ naming: { style: 'kebab' } }), (e) => e instanceof ConfigError && /naming\.style/.test(e.message) && /scoped \| flat/.test(e.message))
  assert.throws(() => normalizeConfig({ collectors: { makefile: { enabled: 'yes' } } }), /collectors\.makefile\.enabled/)
  assert.throws(() => normalizeConfig({ collectors: { gradle: {} } }), /collectors\.gradle: unknown option/)
  assert.throws(() => normalizeConfig({ execution: { timeoutMs: -5 } }), /execution\.timeoutMs/)
})
