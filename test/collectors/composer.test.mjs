// Each folder under test/fixtures/composer is one rule of the composer collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { composerCollector } from '../../dist/src/collectors/composer/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(composerCollector, new URL('../fixtures/composer/', import.meta.url).pathname)

test('composer collector: composer.json only, its own config key', () => {
  assert.deepEqual([...composerCollector.manifestNames], ['composer.json'])
})
