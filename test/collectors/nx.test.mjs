// Each folder under test/fixtures/nx is one rule of the nx collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { nxCollector } from '../../dist/collectors/nx.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(nxCollector, new URL('../fixtures/nx/', import.meta.url).pathname)

test('nx collector: nx.json and project.json, its own config key', () => {
  assert.deepEqual([...nxCollector.manifestNames], ['nx.json', 'project.json'])
  assert.equal(nxCollector.configKey, 'nx')
})
