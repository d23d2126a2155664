// The fuzz loop the newer collectors share: each case writes random or mutated manifests (from the
// collector's fixtures) into a temp directory and runs the collector on it. Every case must return
// without throwing, with well-formed recipes and diagnostics (createRecipe checks the fields); the
// watched worker (fuzz-worker.mjs) turns a case with no progress for HANG_MS into a failure naming
// the seed. Usage, in a fuzz test file:
//   if (isMainThread) fuzzTest({ url: import.meta.url, label, cases }) else await fuzzWorker({ ... })
import { parentPort, workerData } from 'node:worker_threads'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { rng } from './random.mjs'
import { runWatchedWorker } from './fuzz-worker.mjs'
import { mutate, randomText } from './mutate.mjs'

const HANG_MS = 10_000

/** Every fixture file under `dir` except expected.json (these manifests are often JSON themselves). */
function corpus(dir) {
  const texts = []
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else if (name !== 'expected.json') texts.push(readFileSync(p, 'utf8'))
    }
  }
  walk(dir)
  return texts
}

export async function fuzzTest({ url, label, cases, seed = 20261201 }) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`${label} survives ${cases} random and mutated inputs without throwing or hanging`, async () => {
    const outcome = await runWatchedWorker(new URL(url), Number(process.env.FUZZ_SEED ?? seed), HANG_MS)
    assert.equal(outcome.cases, cases)
    assert.ok(outcome.recipes > 0, 'the corpus yields recipes, so the fuzz reaches the readers')
  })
}

/**
 * `collector`: the collector; `fixtures`: its fixture folder (the corpus); `files(text, pick)`: the
 * relative paths → texts of one case; `mutations`: { tokens, maxSteps, stressors } for mutate().
 */
export async function fuzzWorker({ collector, fixtures, cases, files, mutations }) {
  const r = rng(workerData.seed)
  const pick = (n) => Math.floor(r() * n)
  const texts = corpus(fixtures)
  let recipes = 0
  const base = mkdtempSync(join(tmpdir(), 'scout-fuzz-'))
  try {
    for (let index = 0; index < cases; index++) {
      const text = r() < 0.25 ? randomText(r, mutations.tokens) : mutate(texts[pick(texts.length)], r, mutations)
      parentPort.postMessage({ type: 'case', index, preview: text.slice(0, 300) })
      const dir = join(base, String(index))
      try {
        for (const [rel, body] of Object.entries(files(text, pick, () => mutate(texts[pick(texts.length)], r, mutations)))) {
          mkdirSync(dirname(join(dir, rel)), { recursive: true })
          writeFileSync(join(dir, rel), body)
        }
        const result = collector.collect({ root: dir, options: { enabled: true } })
        for (const d of result.diagnostics) if (typeof d.message !== 'string' || d.message === '' || !['error', 'warning'].includes(d.severity)) throw new Error(`bad diagnostic ${JSON.stringify(d)}`)
        for (const rec of result.recipes) if (typeof rec.command !== 'string' || rec.command === '') throw new Error(`bad recipe ${JSON.stringify(rec)}`)
        recipes += result.recipes.length
      } catch (error) {
        throw new Error(`case ${index}: ${error.stack}\ninput: ${JSON.stringify(text.slice(0, 2000))}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
  parentPort.postMessage({ type: 'done', cases, recipes })
}
