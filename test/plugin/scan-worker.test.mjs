// The scan worker runs the one collector a request names (its reader loaded on demand) and answers
// under the request's id; a name that is no built-in collector is answered with why.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { tempDir } from '../support/temp.mjs'

const WORKER = new URL('../../dist/src/book/scan-worker.js', import.meta.url)

/** Sends one request and waits for the answer with its id. */
async function ask(worker, request) {
  worker.postMessage(request)
  for (;;) {
    const [message] = await once(worker, 'message')
    if (message.id === request.id) return message
  }
}

test('a request is answered by the collector it names, and an unknown name with an error', async (t) => {
  const root = tempDir(t, 'cs-scan-worker-')
  writeFileSync(join(root, 'Makefile'), 'build: ## Build\n\techo built\n')
  writeFileSync(join(root, 'justfile'), 'test:\n  echo tested\n')
  const worker = new Worker(WORKER)
  t.after(() => worker.terminate())
  const make = await ask(worker, { id: 1, root, source: 'make', options: {}, budgetMs: 10_000 })
  assert.equal(make.error, undefined)
  assert.ok(make.result.recipes.some((r) => r.name === 'build'), 'the Makefile\'s target is listed')
  assert.deepEqual([...new Set(make.result.recipes.map((r) => r.source))], ['make'], 'only the Makefile is read')
  const just = await ask(worker, { id: 2, root, source: 'just', options: {}, budgetMs: 10_000 })
  assert.deepEqual(just.result.recipes.map((r) => [r.source, r.name]), [['just', 'test']])
  const unknown = await ask(worker, { id: 3, root, source: 'constructor', options: {}, budgetMs: 10_000 })
  assert.equal(unknown.result, undefined)
  assert.match(unknown.error, /no built-in collector named constructor/)
})
