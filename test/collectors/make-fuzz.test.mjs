// Fuzzes the make reader with thousands of random and mutated makefiles (seeded; set
// FUZZ_SEED to replay). Every case must return without throwing, and a worker thread runs the
// cases so that a hang is caught: no progress for HANG_MS fails with the seed and the case.
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rng } from '../support/random.mjs'
import { runWatchedWorker } from '../support/fuzz-worker.mjs'
import { corpus, mutate, randomText } from '../support/mutate.mjs'

const CASES = 3000
const HANG_MS = 10_000
const fixtures = new URL('../fixtures/make/', import.meta.url).pathname



const TOKENS = ['$(', '${', ')', '}', '\\', '\\\n', '\n\t', '\t', ':', '::', '&:', '=', ':=', '::=', '?=', '+=', '!=', '#', '##', ';', '|', '%',
  'define X\n', 'endef\n', 'ifeq (a,b)\n', 'ifdef X\n', 'else\n', 'endif\n', 'include a.mk\n', '-include b.mk\n', 'sinclude Makefile\n',
  '.PHONY: ', '.RECIPEPREFIX = >\n', '.RECIPEPREFIX =\n', '$(shell echo x)', '$(eval $(x))', '$$', '$@', '$(@D)', 'export ', 'override ', '\r\n', '\0', '\u00e9', '\ufeff']

const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 8,
  stressors: [
    (pick) => (pick(2) ? 'ifdef X\n' : '$(').repeat(1 + pick(3000)),
    (pick) => `t${pick(9)}: ${'x'.repeat(pick(200_000))}`,
    (pick) => 'x \\'.repeat(1 + pick(500)),
  ],
}


if (isMainThread) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`make reader survives ${CASES} random and mutated makefiles without throwing or hanging`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261130)
    const outcome = await runWatchedWorker(new URL(import.meta.url), seed, HANG_MS)
    assert.equal(outcome.cases, CASES)
    assert.ok(outcome.targets > 0, 'the corpus yields targets, so the fuzz reaches the rule parser')
  })
} else {
  const { parseMakefile } = await import('../../dist/src/collectors/make/parse.js')
  const { makeCollector } = await import('../../dist/src/collectors/make/collect.js')
  const { seed } = workerData
  const r = rng(seed)
  const texts = corpus(fixtures)
  const root = '/virtual'
  const names = ['Makefile', 'a.mk', 'b.mk', 'sub/c.mk']
  let targets = 0
  const disk = mkdtempSync(join(tmpdir(), 'make-fuzz-'))
  for (let index = 0; index < CASES; index++) {
    const files = new Map(names.map((n) => [`${root}/${n}`, r() < 0.3 ? randomText(r, TOKENS) : mutate(texts[Math.floor(r() * texts.length)], r, MUTATIONS)]))
    const text = files.get(`${root}/Makefile`)
    parentPort.postMessage({ type: 'case', index, preview: text.slice(0, 300) })
    try {
      const parsed = parseMakefile(`${root}/Makefile`, { cwd: root, read: (p) => files.get(p) })
      for (const t of parsed.targets) {
        if (t.name === '' || /[ \t\n\r\v\f]/.test(t.name) || t.name.startsWith('.') || t.name.includes('%')) throw new Error(`bad target name ${JSON.stringify(t.name)}`)
        if (!Number.isInteger(t.line) || t.line < 1) throw new Error(`bad line ${t.line} for ${t.name}`)
      }
      for (const p of parsed.problems) if (typeof p.message !== 'string' || p.message === '') throw new Error('empty problem message')
      targets += parsed.targets.length
      if (index % 50 === 0) {
        // Through the collector and the real file system now and then: createRecipe checks every field.
        writeFileSync(join(disk, 'Makefile'), text)
        makeCollector.collect({ root: disk, options: { enabled: true } })
      }
    } catch (error) {
      throw new Error(`case ${index}: ${error.stack}\ninput: ${JSON.stringify(text.slice(0, 2000))}`)
    }
  }
  rmSync(disk, { recursive: true, force: true })
  parentPort.postMessage({ type: 'done', cases: CASES, targets })
}
