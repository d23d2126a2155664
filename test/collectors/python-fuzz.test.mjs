// Fuzzes the python collector (pyproject.toml: poe and its include files, pdm, hatch, rye, entry points) with random and
// mutated files (seeded; FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 1500
const TOKENS = ['[tool.poe.tasks]', '[tool.pdm.scripts]', '[tool.hatch.envs.default.scripts]', '[tool.hatch.envs.x]', 'template = "x"', '[tool.rye.scripts]', '[project.scripts]',
  '[[tool.hatch.envs.x.matrix]]', 'a = "b"', 'a = ["b", "c"]', 'a = { cmd = "x", help = "y" }', '_ = 1', '"q.k" = 2', '=', '[', ']', '{', '}', '"', "'", '"""', '#', '\n', '.', 'x.y.z = 1', '\u00e9', '\0',
  '[tool.poe]', 'include = "tasks.toml"', 'include = ["tasks.toml", { path = "tasks.toml", recursive = false }]', 'include = "${POE_CONF_DIR}/tasks.toml"', '[tool.poe.groups.g.tasks]', 'tasks.t = "x"']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `a = ${'['.repeat(pick(2000))}`,
    (pick) => `[tool.hatch.envs.e${pick(5)}]\ntemplate = "e${pick(5)}"`,
    (pick) => Array.from({ length: pick(500) }, (_, i) => `t${i} = "echo ${i}"`).join('\n'),
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'python collector (pyproject.toml)', cases: CASES })
else {
  const { pythonCollector } = await import('../../dist/src/collectors/python/collect.js')
  await fuzzWorker({ collector: pythonCollector, fixtures: new URL('../fixtures/python/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS, files: (text, pick, another) => ({ 'pyproject.toml': text, ...(pick(4) === 0 ? { 'hatch.toml': another() } : {}), ...(pick(3) === 0 ? { 'tasks.toml': another() } : {}) }) })
}
