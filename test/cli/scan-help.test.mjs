// `command-scout scan --help` names what scan reads from the collector table: every format, with
// the runners of a format that has several, within 80 columns.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { COLLECTOR_TABLE } from '../../dist/src/base/collector-table.js'

const CLI = fileURLToPath(new URL('../../bin/command-scout', import.meta.url))

test('scan --help names every collector\'s format and a format\'s several runners, within 80 columns', () => {
  const r = spawnSync(process.execPath, [CLI, 'scan', '--help'], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  for (const line of r.stdout.split('\n')) assert.ok(line.length <= 80, `${line.length} columns: ${line}`)
  // The sentence is wrapped: read as one line.
  const reads = /^Reads ([\s\S]*?); never runs them\./m.exec(r.stdout.replace(/(?<!\n)\n(?!\n)/g, ' '))
  assert.ok(reads, r.stdout)
  const sentence = reads[1]
  let at = 0
  for (const row of COLLECTOR_TABLE) {
    const runners = Object.keys(row.runners)
    const named = runners.length > 1 ? `${row.format} (${[...runners].sort().join(', ')})` : row.format
    const found = sentence.indexOf(named, at)
    assert.ok(found >= at, `${named} is named, in the table's order: ${sentence}`)
    at = found + named.length
  }
  assert.match(sentence, new RegExp(` and ${COLLECTOR_TABLE.at(-1).format}, workspaces included$`))
})
