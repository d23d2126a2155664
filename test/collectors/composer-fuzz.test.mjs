// Fuzzes the composer collector (composer.json scripts, descriptions, aliases) with random and
// mutated files (seeded; FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 2000
const TOKENS = ['{', '}', '[', ']', ',', ':', '"', '"scripts"', '"scripts-descriptions"', '"scripts-aliases"', '"@test"', '"@php x"', '"a": "b"', '"a": ["@a"]', 'null', 'true', '1e999', '\\u0000', '\\"', '"__proto__"', '"constructor"', '\ufeff', '\n', ' ']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `${'['.repeat(pick(5000))}`,
    (pick) => `"s": [${Array.from({ length: pick(2000) }, (_, i) => `"@s${i}"`).join(',')}],`,
    (pick) => `"${'\\\\'.repeat(pick(500))}": "x",`,
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'composer collector (composer.json)', cases: CASES })
else {
  const { composerCollector } = await import('../../dist/src/collectors/composer/collect.js')
  await fuzzWorker({ collector: composerCollector, fixtures: new URL('../fixtures/composer/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS, files: (text) => ({ 'composer.json': text }) })
}
