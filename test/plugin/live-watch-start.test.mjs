// The live book's watcher starts after the session's start (WATCH_AFTER_MS), so that its first walk
// of the tree does not run beside it, and misses nothing meanwhile: once ready it has every
// collector run again. settled() starts it at once.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LiveBook } from '../../dist/src/book/live-book.js'
import { bookCollector } from '../../dist/src/dsh/book-service.js'
import { makeCollector } from '../../dist/src/collectors/make/collect.js'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { tempDir, waitUntil } from '../support/temp.mjs'

const makefile = (...targets) => targets.map((t) => `${t}: ## ${t} it\n\t@echo ${t}\n`).join('')

function liveBook(t, dir, options) {
  const book = new LiveBook(dir, options)
  t.after(() => book.close())
  book.addCollector(bookCollector(makeCollector, normalizeConfig({}).collectors.make))
  return book
}

// The targets (not the default goal's own recipe).
const names = (book) => book.book().entries().filter((r) => !r.name.startsWith('.')).map((r) => r.name).sort()

test('a change made before the watcher starts is listed once it is ready; settled() starts it at once', async (t) => {
  const dir = tempDir(t, 'cs-live-watch-')
  writeFileSync(join(dir, 'Makefile'), makefile('build'))
  const book = liveBook(t, dir, { watchAfterMs: 600_000 })
  assert.deepEqual(names(book), ['build'])
  assert.equal(book.watching, false, 'the watcher waits')
  writeFileSync(join(dir, 'Makefile'), makefile('build', 'test'))
  // No watcher yet: nothing has read the file again.
  assert.deepEqual(names(book), ['build'])
  await book.settled()
  assert.equal(book.watching, true)
  assert.deepEqual(names(book), ['build', 'test'], 'the ready watcher had the collector run again')
  // From now on the watcher's events keep the book current.
  writeFileSync(join(dir, 'Makefile'), makefile('build', 'test', 'lint'))
  await waitUntil(() => names(book).includes('lint'), { what: 'the lint target from a watched change' })
})

test('with the default delay the watcher starts by itself and the book follows the file', async (t) => {
  const dir = tempDir(t, 'cs-live-watch-')
  writeFileSync(join(dir, 'Makefile'), makefile('build'))
  const book = liveBook(t, dir, {})
  assert.equal(book.watching, false, 'the watcher waits for the start to pass')
  writeFileSync(join(dir, 'Makefile'), makefile('build', 'test'))
  await waitUntil(() => names(book).includes('test'), { what: 'the test target once the watcher started' })
  writeFileSync(join(dir, 'Makefile'), makefile('build', 'test', 'lint'))
  await waitUntil(() => names(book).includes('lint'), { what: 'the lint target from a watched change' })
})
