// Fuzzes the go collector's readers (go.mod, go.work, .go file headers, build expressions) with
// random and mutated inputs (seeded; FUZZ_SEED replays). Every case must return without throwing;
// a watched worker catches a hang (no progress for HANG_MS).
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rng } from '../support/random.mjs'
import { runWatchedWorker } from '../support/fuzz-worker.mjs'
import { corpus, mutate, randomText } from '../support/mutate.mjs'

const CASES = 3000
const HANG_MS = 10_000
const fixtures = new URL('../fixtures/go/', import.meta.url).pathname
const TOKENS = ['module', 'use', 'go 1.22', '(', ')', '"', '`', '//', '/*', '*/', '\\', 'package', 'main', '//go:build', '// +build', '//go:generate', '&&', '||', '!', 'linux',
  'amd64', 'ignore', './a', '../b', '\n', '\t', ' ', '\r', '\ufeff', '\u00e9', '\0', 'replace x => ./y', 'toolchain go1.22']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `//go:build ${'('.repeat(pick(3000))}linux${')'.repeat(pick(3000))}`,
    (pick) => `${'/*'.repeat(pick(500))}package main`,
    (pick) => `use (\n${Array.from({ length: pick(2000) }, (_, i) => `\t./m${i}`).join('\n')}`,
  ],
}

if (isMainThread) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`go readers survive ${CASES} random and mutated go.mod, go.work and .go files without throwing or hanging`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261201)
    const outcome = await runWatchedWorker(new URL(import.meta.url), seed, HANG_MS)
    assert.equal(outcome.cases, CASES)
    assert.ok(outcome.modules > 0 && outcome.packages > 0, 'the corpus yields modules and packages, so the fuzz reaches the readers')
  })
} else {
  const { parseGoMod, parseGoWork } = await import('../../dist/src/collectors/go/mod.js')
  const { fileHeader, evalBuildExpr } = await import('../../dist/src/collectors/go/packages.js')
  const { goCollector } = await import('../../dist/src/collectors/go/collect.js')
  const r = rng(workerData.seed)
  const texts = corpus(fixtures)
  let modules = 0
  let packages = 0
  const disk = mkdtempSync(join(tmpdir(), 'go-fuzz-'))
  for (let index = 0; index < CASES; index++) {
    const text = r() < 0.3 ? randomText(r, TOKENS) : mutate(texts[Math.floor(r() * texts.length)], r, MUTATIONS)
    parentPort.postMessage({ type: 'case', index, preview: text.slice(0, 300) })
    try {
      const mod = parseGoMod(text)
      if (mod.module !== undefined) {
        modules++
        if (typeof mod.module !== 'string') throw new Error('module path is not a string')
      }
      for (const u of parseGoWork(text).uses) if (typeof u.path !== 'string' || !(u.line >= 1)) throw new Error('bad use')
      const h = fileHeader(text)
      if (h.pkg !== undefined) packages++
      if (!(h.line >= 1) || typeof h.buildable !== 'boolean') throw new Error('bad header')
      evalBuildExpr(text.split('\n')[0])
      if (index % 60 === 0) {
        // Through the collector and the real file system now and then: createRecipe checks every field.
        rmSync(disk, { recursive: true, force: true })
        mkdirSync(join(disk, 'cmd', 'x'), { recursive: true })
        writeFileSync(join(disk, index % 120 === 0 ? 'go.work' : 'go.mod'), text)
        writeFileSync(join(disk, 'go.mod'), `module example.com/f\n${index % 120 === 0 ? '' : text}`)
        writeFileSync(join(disk, 'cmd', 'x', 'main.go'), text)
        goCollector.collect({ root: disk, options: { enabled: true } })
      }
    } catch (error) {
      throw new Error(`case ${index}: ${error.stack}\ninput: ${JSON.stringify(text.slice(0, 2000))}`)
    }
  }
  rmSync(disk, { recursive: true, force: true })
  parentPort.postMessage({ type: 'done', cases: CASES, modules, packages })
}
