// Fuzzes the Taskfile reader with thousands of random and mutated Taskfiles (seeded; set
// FUZZ_SEED to replay). Every case must return without throwing, and a worker thread runs the
// cases so that a hang is caught: no progress for HANG_MS fails with the seed and the case.
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rng } from '../support/random.mjs'
import { runWatchedWorker } from '../support/fuzz-worker.mjs'
import { corpus, mutate, randomText } from '../support/mutate.mjs'

const CASES = 1500
const HANG_MS = 10_000
const fixtures = new URL('../fixtures/task/', import.meta.url).pathname



const TOKENS = ['version: 3', "version: '3'", 'tasks:', 'includes:', '  ', '    ', '- ', ': ', ':', '{', '}', '[', ']', '&a', '*a', '<<: *a', '!!binary', '|', '>', '"', "'", '#',
  '{{.X}}', '{{', 'desc: d', 'summary: |', 'deps: [a, b]', 'aliases: [x]', 'internal: true', 'flatten: true', 'optional: true', 'excludes: [a]',
  'taskfile: ./a.yml', 'taskfile: ./sub', 'a: ./a.yml', 'b: ./b.yml', 'c: ./sub', 'requires:', 'vars: [A]', 'cmd: echo', 'cmds:', '---', '...', '%YAML 1.2', '\t', '\0', '\u00e9', '\ufeff', '\r\n']

const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 3,
  stressors: [
    (pick) => pick(2) ? `x: ${'['.repeat(1 + pick(300))}` : Array.from({ length: 1 + pick(100) }, (_, d) => `${' '.repeat(d)}k${d}:`).join('\n'),
    (pick) => `  t${pick(9)}: ${'x'.repeat(pick(20_000))}`,
    () => "a: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: &d [*c, *c, *c, *c]\ntasks:\n  bomb:\n    <<: {deps: [*d, *d, *d]}",
  ],
}


if (isMainThread) {
  const { test } = await import('node:test')
  const assert = (await import('node:assert/strict')).default
  test(`Taskfile reader survives ${CASES} random and mutated Taskfiles without throwing or hanging`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261130)
    const outcome = await runWatchedWorker(new URL(import.meta.url), seed, HANG_MS)
    assert.equal(outcome.cases, CASES)
    assert.ok(outcome.targets > 0, 'the corpus yields tasks, so the fuzz reaches the task reader')
  })
} else {
  const { readTaskfiles } = await import('../../dist/src/collectors/task/parse.js')
  const { taskCollector } = await import('../../dist/src/collectors/task/collect.js')
  const { seed } = workerData
  const r = rng(seed)
  const texts = corpus(fixtures)
  const root = '/virtual'
  const names = ['Taskfile.yml', 'a.yml', 'b.yml', 'sub/Taskfile.yml']
  let targets = 0
  const disk = mkdtempSync(join(tmpdir(), 'task-fuzz-'))
  for (let index = 0; index < CASES; index++) {
    const files = new Map(names.map((n) => [`${root}/${n}`, r() < 0.3 ? randomText(r, TOKENS) : mutate(texts[Math.floor(r() * texts.length)], r, MUTATIONS)]))
    const text = files.get(`${root}/Taskfile.yml`)
    parentPort.postMessage({ type: 'case', index, preview: text.slice(0, 300) })
    try {
      const parsed = readTaskfiles(`${root}/Taskfile.yml`, {
        root, read: (p) => files.get(p), isFile: (p) => files.has(p), isDir: (p) => p === `${root}/sub`,
      })
      for (const t of parsed.tasks) {
        if (typeof t.name !== 'string' || t.name === '') throw new Error(`bad task name ${JSON.stringify(t.name)}`)
        if (t.line !== undefined && (!Number.isInteger(t.line) || t.line < 1)) throw new Error(`bad line ${t.line} for ${t.name}`)
        if (![t.aliases, t.deps, t.variables].every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'))) throw new Error(`bad lists for ${t.name}`)
      }
      for (const p of parsed.problems) if (typeof p.message !== 'string' || p.message === '') throw new Error('empty problem message')
      targets += parsed.tasks.length
      if (index % 50 === 0) {
        // Through the collector and the real file system now and then: createRecipe checks every field.
        writeFileSync(join(disk, 'Taskfile.yml'), text)
        taskCollector.collect({ root: disk, options: { enabled: true } })
      }
    } catch (error) {
      throw new Error(`case ${index}: ${error.stack}\ninput: ${JSON.stringify(text.slice(0, 2000))}`)
    }
  }
  rmSync(disk, { recursive: true, force: true })
  parentPort.postMessage({ type: 'done', cases: CASES, targets })
}
