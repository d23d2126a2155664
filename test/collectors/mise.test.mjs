// Each folder under test/fixtures/mise is one rule of the mise collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { miseCollector, MISE_CONFIG_FILES, MISE_TASK_DIRS } from '../../dist/collectors/mise.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(miseCollector, new URL('../fixtures/mise/', import.meta.url).pathname)

test('mise collector: mise.toml, .mise.toml and mise/config.toml among its files, its own config key', () => {
  for (const f of ['mise.toml', '.mise.toml', 'mise/config.toml']) assert.ok(MISE_CONFIG_FILES.includes(f))
  for (const d of ['mise-tasks', '.mise/tasks']) assert.ok(MISE_TASK_DIRS.includes(d))
  assert.equal(miseCollector.configKey, 'mise')
})
