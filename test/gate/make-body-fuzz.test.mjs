// Fuzzes the make body reader (src/book/risk/bodies/make.ts) with random and mutated makefiles
// on disk (seeded; set FUZZ_SEED to replay): every case must return a well-formed body, without
// throwing and without the reader's last-resort "could not be read" part, and within its bounds.
// A worker thread runs the cases so that a hang is caught: no progress for HANG_MS fails with the
// seed and the case.
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rng } from '../support/random.mjs'
import { runWatchedWorker } from '../support/fuzz-worker.mjs'
import { corpus, mutate, randomText } from '../support/mutate.mjs'

const CASES = 400
const HANG_MS = 20_000
const fixtures = new URL('../fixtures/make/', import.meta.url).pathname

const TOKENS = ['$(', '${', ')', '}', '\\', '\\\n', '\n\t', '\t', ':', '::', '&:', '=', ':=', '+=', '?=', '!=', '#', ';', '|', '%', '%.o', '%.c',
  'define X\n', 'endef\n', 'ifeq ($(MAKECMDGOALS),a)\n', 'else\n', 'endif\n', 'include a.mk\n', '-include b.mk\n', '.ONESHELL:\n', '.DEFAULT:\n',
  '\t$(MAKE) a\n', '\t$(MAKE) -C sub b\n', '\tcd sub && $(MAKE)\n', '\tfor d in sub .; do $(MAKE) -C $$d; done\n', '\t$(MAKE) -C .. x\n',
  '$(shell echo x)', '$(eval $(x))', '$$', '$@', '$<', '$^', '$*', '$(@D)', '$(call X,1)', 'export ', 'override ', 'private ', 'a', 'b', 'a: b', 'b: a',
  '\trm -rf $@\n', '\t@-+echo $(V)\n', 'V = $(V)', 'V := $(V) x']

const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 8,
  stressors: [
    // A wide fan of targets that each call make again.
    (pick) => Array.from({ length: 1 + pick(60) }, (_, k) => `t${k}: t${k + 1} t${k + 2}\n\t$(MAKE) t${k + 3} N=$(N)x`).join('\n'),
    (pick) => `t${pick(9)}: ${'x '.repeat(pick(5000))}`,
    (pick) => `V${pick(3)} = ${'$(V0)$(V1)$(V2)'.repeat(1 + pick(20))}`,
  ],
}

const ARGS = [[], ['V=1'], ['a'], ['b', 'V=2'], ['-C', 'sub'], ['-f', 'a.mk'], ['--eval=x: ; rm -rf /'], ['-C', '..'], ['-k', '-j4', 'a']]

if (isMainThread) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`make body reader survives ${CASES} random and mutated makefiles`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261201)
    const outcome = await runWatchedWorker(new URL(import.meta.url), seed, HANG_MS)
    assert.equal(outcome.cases, CASES)
    assert.ok(outcome.lines > 0, 'some bodies have lines, so the fuzz reaches the recipes')
  })
} else {
  const { readMakeBody } = await import('../../dist/src/book/risk/bodies/make.js')
  const { makeCollector } = await import('../../dist/src/collectors/make/collect.js')
  const { createRecipe } = await import('../../dist/src/book/recipe.js')
  const { readFileSync, statSync } = await import('node:fs')
  const { seed } = workerData
  const r = rng(seed)
  const texts = corpus(fixtures)
  const disk = realpathSync(mkdtempSync(join(tmpdir(), 'make-body-fuzz-')))
  const names = ['Makefile', 'a.mk', 'b.mk', 'sub/Makefile']
  mkdirSync(join(disk, 'sub'))
  const read = (abs) => {
    if (!abs.startsWith(`${disk}/`)) return undefined
    try {
      return statSync(abs).isFile() ? readFileSync(abs, 'utf8') : undefined
    } catch {
      return undefined
    }
  }
  /** One case: random files on disk, one listed recipe with random words; throws on a malformed body. */
  const runCase = (index) => {
    const files = names.map((n) => [n, r() < 0.3 ? randomText(r, TOKENS) : mutate(texts[Math.floor(r() * texts.length)], r, MUTATIONS)])
    for (const [n, text] of files) writeFileSync(join(disk, n), text)
    parentPort.postMessage({ type: 'case', index, preview: files[0][1].slice(0, 300) })
    try {
      const listed = makeCollector.collect({ root: disk, options: { enabled: true } }).recipes
      const recipe = listed[Math.floor(r() * listed.length)] ?? createRecipe({ source: 'make', runner: 'make', name: 'a', command: 'make a', file: 'Makefile' })
      const args = ARGS[Math.floor(r() * ARGS.length)]
      const body = readMakeBody(recipe, { root: disk, read, memo: new Map() }, args)
      for (const l of body.lines) {
        if (typeof l.text !== 'string' || l.text.trim() === '') throw new Error(`empty line ${JSON.stringify(l)}`)
        if (typeof l.cwd !== 'string' || l.cwd.startsWith('..') || l.cwd.startsWith('/')) throw new Error(`cwd outside the root ${JSON.stringify(l)}`)
        if (!Array.isArray(l.via) || l.via.length === 0 || !l.via[0].startsWith(recipe.command)) throw new Error(`bad via ${JSON.stringify(l)}`)
      }
      for (const u of body.unknown) {
        const bad = typeof u.why !== 'string' || u.why === '' || u.why.startsWith('the makefile could not be read (')
        if (bad) throw new Error(`unknown part: ${JSON.stringify(u)}`)
      }
      if (body.lines.length > 2000) throw new Error(`${body.lines.length} lines, more than the bound`)
      return body.lines.length
    } catch (error) {
      throw new Error(`case ${index}: ${error.stack}\ninput: ${JSON.stringify(files.map(([n, t]) => `${n}:\n${t.slice(0, 1500)}`).join('\n'))}`)
    }
  }
  let lines = 0
  try {
    for (let index = 0; index < CASES; index++) lines += runCase(index)
  } finally {
    rmSync(disk, { recursive: true, force: true })
  }
  parentPort.postMessage({ type: 'done', cases: CASES, lines })
}
