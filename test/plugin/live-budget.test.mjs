// A slow scan never delays the session's start: a collector's first run shares a startup budget,
// lists what it found when the budget runs out, and its full scan finishes in a worker thread.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LiveBook } from '../../dist/src/book/live-book.js'
import { bookCollector } from '../../dist/src/dsh/book-service.js'
import { scriptsCollector } from '../../dist/src/collectors/scripts/collect.js'
import { normalizeConfig } from '../../dist/src/book/config.js'

const PACKAGES = 3000

function bigWorkspace(t) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-live-budget-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'root', workspaces: ['packages/*'], scripts: { root: 'true' } }))
  for (let i = 0; i < PACKAGES; i++) {
    mkdirSync(join(dir, 'packages', `p${i}`), { recursive: true })
    writeFileSync(join(dir, 'packages', `p${i}`, 'package.json'), JSON.stringify({ name: `p${i}`, scripts: { build: 'true' } }))
  }
  return dir
}

test('a first run over the startup budget lists what it found and finishes in the background', async (t) => {
  const dir = bigWorkspace(t)
  const book = new LiveBook(dir, { watch: false, startupBudgetMs: 1 })
  t.after(() => book.close())
  const collector = bookCollector(scriptsCollector, normalizeConfig({}).collectors.scripts)
  book.addCollector(collector)
  // addCollector returned with the partial book: the start was not held for the whole scan.
  const early = book.book().entries().length
  assert.ok(early < PACKAGES + 1, `the first run stopped early (${early} recipes)`)
  assert.match(book.diagnostics().map((d) => d.message).join('\n'), /ran past the scan's time budget of \d+ ms; .* the rest is read in the background/)
  await book.settled()
  assert.equal(book.book().entries().length, PACKAGES + 1, 'the background scan listed every package')
  assert.doesNotMatch(book.diagnostics().map((d) => d.message).join('\n'), /time budget/)
})

test('a first run within the budget is complete at once, with no background scan', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-live-budget-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { a: 'b' } }))
  const book = new LiveBook(dir, { watch: false })
  t.after(() => book.close())
  book.addCollector(bookCollector(scriptsCollector, normalizeConfig({}).collectors.scripts))
  assert.deepEqual(book.book().entries().map((r) => r.name), ['a'])
  assert.deepEqual(book.diagnostics(), [])
})
