// Each folder under test/fixtures/vscode is one rule of the vscode collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { vscodeCollector } from '../../dist/src/collectors/vscode/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(vscodeCollector, new URL('../fixtures/vscode/', import.meta.url).pathname)

test('vscode collector: .vscode/tasks.json, its own config key', () => {
  assert.deepEqual([...vscodeCollector.manifestNames], ['tasks.json'])
})
