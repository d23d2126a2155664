// Reading a Taskfile never runs anything in it: dynamic `sh:` variables, commands and
// templated include paths are data here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { taskCollector } from '../../dist/src/collectors/task/collect.js'

test('reading a Taskfile never runs anything in it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'task-noexec-'))
  try {
    const marker = join(dir, 'ran')
    writeFileSync(join(dir, 'Taskfile.yml'), [
      "version: '3'",
      'vars:',
      `  DYN: { sh: 'touch ${marker}' }`,
      'includes:',
      "  x: '{{.DYN}}/Taskfile.yml'",
      'tasks:',
      '  build:',
      `    cmds: ['touch ${marker}']`,
      `    status: ['touch ${marker}']`,
      `    preconditions: ['touch ${marker}']`,
      '',
    ].join('\n'))
    const result = taskCollector.collect({ root: dir, options: { enabled: true } })
    assert.deepEqual(result.recipes.map((r) => r.name), ['build'])
    assert.equal(result.diagnostics.length, 1, 'the templated include is reported, not resolved')
    assert.match(result.diagnostics[0].message, /needs values known only when task runs/)
    assert.equal(existsSync(marker), false, 'no command in the Taskfile ran')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
