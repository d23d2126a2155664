// Fuzzes the mise collector (config [tasks], file tasks with #MISE comments) with random and
// mutated files (seeded; FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { chmodSync } from 'node:fs'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 1500
const TOKENS = ['[tasks]', '[tasks.a]', '[tasks."a:b"]', 'run = "x"', 'run = ["x", "y"]', 'depends = ["a"]', 'depends = "a b"', 'alias = "q"', 'alias = ["q"]', 'hide = true', 'description = "d"', 'file = "f.sh"',
  '#MISE description="d"', '# [MISE] alias=["z"]', '#MISE hide=true', '#MISE depends=[', '=', '"', '[', ']', '{', '}', '\n', '#!/bin/sh', '\u00e9']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `a = ${'['.repeat(pick(2000))}`,
    (pick) => Array.from({ length: pick(400) }, (_, i) => `t${i} = "echo ${i}"`).join('\n'),
    (pick) => Array.from({ length: pick(200) }, () => '#MISE description="x"').join('\n'),
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'mise collector (mise.toml and file tasks)', cases: CASES })
else {
  const { miseCollector } = await import('../../dist/src/collectors/mise/collect.js')
  await fuzzWorker({
    collector: { collect: (ctx) => { try { chmodSync(`${ctx.root}/mise-tasks/t`, 0o755) } catch {} return miseCollector.collect(ctx) } },
    fixtures: new URL('../fixtures/mise/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS,
    files: (text, pick, another) => ({ [['mise.toml', '.mise.toml', 'mise/config.toml'][pick(3)]]: text, ...(pick(2) ? { 'mise-tasks/t': another() } : {}) }),
  })
}
