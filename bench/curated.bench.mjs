// Validating a curated library: the validator batches every POSIX command of the library into one
// `bash -n` run (narrowing down only on failure). Baseline: the same rules with one `bash -n`
// process per command. Synthetic input: the fixture recipes copied under new ids into a temp dir.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadLibrary, validateLibrary } from '../dist/src/curated/index.js'

const COPIES = Number(process.env.COPIES ?? 30)
const RUNS = Number(process.env.RUNS ?? 5)
const source = new URL('../test/fixtures/curated/valid/', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'curated-bench-'))

let files = 0
for (const category of readdirSync(source)) {
  mkdirSync(join(dir, category), { recursive: true })
  for (const name of readdirSync(join(source, category))) {
    const text = readFileSync(join(source, category, name), 'utf8')
    const slug = name.replace(/\.yaml$/, '')
    for (let i = 0; i < COPIES; i++) {
      const id = `${category}.${slug.replace(/-/g, '_')}_${i}`
      // related ids point at the original slugs, which do not exist here: drop them
      writeFileSync(join(dir, category, `${slug}-${i}.yaml`), text.replace(/^id: .*$/m, `id: ${id}`).replace(/^related: .*$/m, ''))
      files++
    }
  }
}

function baseline() {
  const lib = loadLibrary([dir])
  let commands = 0
  for (const r of lib.recipes) {
    const runs = [...Object.values(r.platforms).flatMap((p) => p.steps ?? []), ...r.verification, ...(r.undo.steps ?? [])].map((s) => s.run)
    for (const run of runs) {
      spawnSync('bash', ['-n'], { input: run.replace(/\{\{\s*\w+\s*\}\}/g, "'sample'") })
      commands++
    }
  }
  return commands
}

function median(fn) {
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    fn()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

try {
  loadLibrary([dir]) // warm-up
  const issues = validateLibrary([dir])
  if (issues.length) throw new Error(`synthetic library is not valid: ${JSON.stringify(issues[0])}`)
  const load = median(() => loadLibrary([dir]))
  const ours = median(() => validateLibrary([dir]))
  const base = median(baseline)
  const rows = [
    ['load only (all rules but bash -n)', load],
    ['validateLibrary (one batched bash -n)', ours],
    ['baseline: bash -n per command', base],
  ]
  console.log(`curated library: ${files} recipe files, median of ${RUNS} runs`)
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(40)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / ours).toFixed(2)}x`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
