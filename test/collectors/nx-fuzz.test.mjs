// Fuzzes the nx collector (nx.json, project.json, package.json "nx", .nxignore and .gitignore) with random and mutated files
// (seeded; FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 1200
const TOKENS = ['{', '}', '[', ']', ',', ':', '"', '//', '/*', '*/', '"targets"', '"name": "p"', '"executor": "nx:run-commands"', '"options": {"command": "x"}', '"command": "y"', '"dependsOn": ["^build"]', '"plugins": ["@nx/x"]',
  '"metadata": {"description": "d"}', '"nx": {"targets": {}}', '"workspaces": ["packages/*"]', 'null', '3', '\n', '\ufeff',
  'apps/', '!apps/a/', '**/a', '[a-', '[z-a]', '\\', '*', '?', '!', '#', '/']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `${'['.repeat(pick(3000))}`,
    (pick) => `"targets": {${Array.from({ length: pick(300) }, (_, i) => `"t${i}": {"command": "echo ${i}"}`).join(',')}}`,
    (pick) => `"options": {"commands": [${Array.from({ length: pick(200) }, (_, i) => (i % 2 ? `"c${i}"` : `{"command": "d${i}"}`)).join(',')}]}`,
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'nx collector (nx.json, project.json)', cases: CASES })
else {
  const { nxCollector } = await import('../../dist/src/collectors/nx/collect.js')
  await fuzzWorker({
    collector: nxCollector, fixtures: new URL('../fixtures/nx/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS,
    files: (text, pick, another) => ({
      'nx.json': pick(3) === 0 ? text : '{}', 'apps/a/project.json': text, 'package.json': '{"workspaces": ["packages/*"]}', 'packages/b/package.json': another(),
      ...(pick(3) === 0 ? { '.nxignore': another() } : {}), ...(pick(3) === 0 ? { 'apps/.gitignore': another() } : {}),
    }),
  })
}
