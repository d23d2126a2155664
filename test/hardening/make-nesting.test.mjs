// make conditionals nested tens of thousands deep are read in linear time: the scan finishes within
// the collector's budget and lists what follows them, as make would.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { discover } from '../../dist/src/book/discover.js'
import { tempDir } from '../support/temp.mjs'

test('ifeq blocks nested 100,000 deep: the targets after them are listed', (t) => {
  const root = tempDir(t, 'cs-make-nesting-')
  const depth = 100_000
  let text = ''
  for (let i = 0; i < depth; i++) text += `ifeq ($(A${i}),x)\n`
  text += 'hidden:\n\ttrue\n'
  for (let i = 0; i < depth; i++) text += 'endif\n'
  text += '.PHONY: after\nafter:\n\ttrue\n'
  writeFileSync(join(root, 'Makefile'), text)
  const result = discover(root, { collectors: { makefile: { enabled: true } } }, { cache: false })
  const names = result.book.entries().filter((r) => r.source === 'make').map((r) => r.name)
  assert.ok(names.includes('after'), `the target after the nesting is listed (got ${JSON.stringify(names)}; ${result.diagnostics.map((d) => d.message).join('; ')})`)
  assert.ok(!names.includes('hidden'), 'the branch make skips is skipped')
})
