// Each folder under test/fixtures/cmake is one rule of the cmake collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cmakeCollector } from '../../dist/src/collectors/cmake/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(cmakeCollector, new URL('../fixtures/cmake/', import.meta.url).pathname)

test('cmake collector: both presets files, its own config key', () => {
  assert.deepEqual([...cmakeCollector.manifestNames], ['CMakePresets.json', 'CMakeUserPresets.json'])
})
