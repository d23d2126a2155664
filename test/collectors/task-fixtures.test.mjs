// Each folder under test/fixtures/task is one rule: the task collector's recipes and
// diagnostics must match its expected.json (fields named there are compared exactly).
// The expected lists were written from go-task's documented semantics and its source
// (taskfile/ast/tasks.go Merge, taskfile/reader.go); task-runner.test.mjs checks them against the
// real go-task.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { taskCollector, TASKFILE_NAMES } from '../../dist/src/collectors/task/collect.js'

const fixtures = new URL('../fixtures/task/', import.meta.url).pathname

for (const name of readdirSync(fixtures).sort()) {
  const dir = join(fixtures, name)
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
  test(`task fixture ${name}: recipes and diagnostics match expected.json`, () => {
    const result = taskCollector.collect({ root: dir, options: { enabled: true } })
    assert.deepEqual(result.recipes.map((r) => r.name), expected.recipes.map((r) => r.name), 'listed tasks, root first, then includes in order')
    let lastFile
    expected.recipes.forEach((want, i) => {
      const got = result.recipes[i]
      for (const [key, value] of Object.entries(want)) assert.deepEqual(got[key], value, `${want.name}.${key}`)
      assert.equal(got.source, 'task')
      assert.equal(got.runner, 'task')
      assert.equal(got.cwd, '.')
      if (!('command' in want)) assert.equal(got.command, `task ${got.name}`)
      // Fixtures name the file when it changes; otherwise it is the previous recipe's.
      if (!('file' in want)) assert.equal(got.file, lastFile ?? result.files[0], `${want.name}.file`)
      lastFile = got.file
      if (!('scope' in want) && !got.name.includes(':')) assert.equal(got.scope, undefined)
    })
    assert.equal(result.diagnostics.length, expected.diagnostics.length, `diagnostics: ${JSON.stringify(result.diagnostics, null, 1)}`)
    expected.diagnostics.forEach((want, i) => {
      const got = result.diagnostics[i]
      assert.equal(got.source, 'task')
      assert.equal(got.file, want.file)
      assert.equal(got.line, want.line)
      assert.equal(got.severity, want.severity)
      assert.match(got.message, new RegExp(want.match))
    })
    if (expected.files) assert.deepEqual(result.files, expected.files)
  })
}

test('task collector looks for the eight Taskfile names in go-task order', () => {
  assert.deepEqual([...TASKFILE_NAMES], [
    'Taskfile.yml', 'taskfile.yml', 'Taskfile.yaml', 'taskfile.yaml',
    'Taskfile.dist.yml', 'taskfile.dist.yml', 'Taskfile.dist.yaml', 'taskfile.dist.yaml',
  ])
  assert.deepEqual([...taskCollector.manifestNames], [...TASKFILE_NAMES])
})
