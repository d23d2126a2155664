// Each folder under test/fixtures/python is one rule of the python collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pythonCollector } from '../../dist/src/collectors/python/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(pythonCollector, new URL('../fixtures/python/', import.meta.url).pathname)

test('python collector: pyproject.toml and hatch.toml, its own config key', () => {
  assert.deepEqual([...pythonCollector.manifestNames], ['pyproject.toml', 'hatch.toml'])
})
