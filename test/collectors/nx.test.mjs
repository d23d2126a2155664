// Each folder under test/fixtures/nx is one rule of the nx collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { nxCollector } from '../../dist/src/collectors/nx/collect.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'
import { tempDir } from '../support/temp.mjs'

fixtureTests(nxCollector, new URL('../fixtures/nx/', import.meta.url).pathname)

test('nx collector: nx.json, project.json and the ignore files Nx reads, its own config key', () => {
  assert.deepEqual([...nxCollector.manifestNames], ['nx.json', 'project.json', '.nxignore', '.gitignore'])
})

// A fixture can't hold what a .gitignore ignores (git would not keep those files), so this one is written here.
test('nx collector: a project a .gitignore ignores is no project, unless a .nxignore rule brings it back', (t) => {
  const root = tempDir(t, 'scout-nx-gitignore-')
  const project = (dir) => {
    mkdirSync(join(root, dir), { recursive: true })
    writeFileSync(join(root, dir, 'project.json'), JSON.stringify({ name: dir.replace(/\//g, '-'), targets: { build: { command: 'echo' } } }))
  }
  for (const dir of ['apps/web', 'dist/apps/web', 'dist/keep', 'tmp/scratch', 'libs/ui/build/copy', 'libs/ui']) project(dir)
  writeFileSync(join(root, 'nx.json'), '{}')
  writeFileSync(join(root, '.gitignore'), '/dist/*\ntmp\n')
  writeFileSync(join(root, '.nxignore'), '!dist/keep/\n')
  writeFileSync(join(root, 'libs', 'ui', '.gitignore'), 'build/\n')
  const result = nxCollector.collect({ root, options: { enabled: true } })
  assert.deepEqual(result.recipes.map((r) => r.scope), ['apps-web', 'dist-keep', 'libs-ui'])
  assert.deepEqual(result.diagnostics, [])
  assert.ok(result.files.includes('.gitignore') && result.files.includes('.nxignore') && result.files.includes('libs/ui/.gitignore'), 'the ignore files read are among the files')
})
