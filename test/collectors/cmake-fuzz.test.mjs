// Fuzzes the cmake collector (CMakePresets.json, CMakeUserPresets.json, includes) with random and
// mutated files (seeded; FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 1500
const TOKENS = ['{', '}', '[', ']', ',', ':', '"', '"version": 6', '"include": ["b.json"]', '"include": ["CMakePresets.json"]', '"configurePresets"', '"buildPresets"', '"workflowPresets"', '"name": "a"', '"inherits": "a"', '"inherits": ["a", "b"]',
  '"hidden": true', '"configurePreset": "a"', '"condition": {"type": "not", "condition": {"type": "const", "value": false}}', '"condition": {"type": "matches", "string": "x", "regex": "("}', '"$env{X}"', '"${presetName}"', '"steps": [{"type": "configure", "name": "a"}]', 'null', '\n']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `"condition": ${'{"type": "not", "condition": '.repeat(pick(400))}true${'}'.repeat(pick(400))}`,
    (pick) => `"configurePresets": [${Array.from({ length: pick(300) }, (_, i) => `{"name": "p${i}", "inherits": "p${i + 1}"}`).join(',')}]`,
    (pick) => `"regex": "${'(a+)+'.repeat(pick(20))}$"`,
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'cmake collector (CMake presets)', cases: CASES })
else {
  const { cmakeCollector } = await import('../../dist/src/collectors/cmake/collect.js')
  await fuzzWorker({
    collector: cmakeCollector, fixtures: new URL('../fixtures/cmake/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS,
    files: (text, pick, another) => ({ 'CMakePresets.json': text, ...(pick(3) === 0 ? { 'CMakeUserPresets.json': another() } : {}), ...(pick(3) === 0 ? { 'b.json': another() } : {}) }),
  })
}
