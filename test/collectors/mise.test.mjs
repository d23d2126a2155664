// Each folder under test/fixtures/mise is one rule of the mise collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { miseCollector, MISE_CONFIG_FILES, MISE_TASK_DIRS } from '../../dist/src/collectors/mise/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'
import { tempDir } from '../support/temp.mjs'

fixtureTests(miseCollector, new URL('../fixtures/mise/', import.meta.url).pathname)

test('mise collector: mise.toml, .mise.toml and mise/config.toml among its files, its own config key', () => {
  for (const f of ['mise.toml', '.mise.toml', 'mise/config.toml']) assert.ok(MISE_CONFIG_FILES.includes(f))
  for (const d of ['mise-tasks', '.mise/tasks']) assert.ok(MISE_TASK_DIRS.includes(d))
})

test('mise collector: two files of one task directory that mise names alike give one task and a warning', (t) => {
  const root = tempDir(t, 'scout-mise-default-')
  mkdirSync(join(root, 'mise-tasks', 'docs'), { recursive: true })
  for (const name of ['_default', '_default.sh']) {
    writeFileSync(join(root, 'mise-tasks', 'docs', name), `#!/bin/sh\n#MISE description="${name}"\necho\n`)
    chmodSync(join(root, 'mise-tasks', 'docs', name), 0o755)
  }
  const result = miseCollector.collect({ root, options: { enabled: true } })
  assert.deepEqual(result.recipes.map((r) => [r.name, r.file]), [['docs', 'mise-tasks/docs/_default.sh']])
  assert.equal(result.diagnostics.length, 1)
  assert.equal(result.diagnostics[0].severity, 'warning')
  assert.match(result.diagnostics[0].message, /mise-tasks\/docs\/_default and mise-tasks\/docs\/_default\.sh are both the mise task "docs"/)
})
