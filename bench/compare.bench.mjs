// command-scout's first scan side by side with the two tools a user would pick instead
// (bench/baselines.mjs: the original command-scout, which reads root files only, and oh-my-pi's
// recipe runners under bun), on the synthetic repositories of bench/shapes.mjs and an empty
// directory, in paired rounds whose order rotates; each first scan has an empty cache directory of
// its own (the code cache shipped in dist/ stays). Goal: the median of first scan / the original at
// most 1.0, and no repository over 1.5. A baseline that is not installed is skipped, saying how to get it.
// Usage (after npm run build): node bench/compare.bench.mjs; COMPARE_RUNS=9.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median, printTable } from './scripts.bench.mjs'
import { SHAPES } from './shapes.mjs'
import { ohMyPiRunners, originalScout } from './baselines.mjs'
import { firstScan } from './first-scan.mjs'
import { ms, wall } from './support.mjs'

// SCOUT_CHECKOUT=<dir> measures another checkout's build the same way (bench/first-scan.mjs reads it).
const RUNS = Number(process.env.COMPARE_RUNS ?? 9)


const baselines = [originalScout(), ohMyPiRunners()]
for (const b of baselines) if (b.skip) console.log(`${b.name}: skipped, ${b.skip}`)
const live = baselines.filter((b) => b.run)
const base = mkdtempSync(join(tmpdir(), 'scout-bench-compare-'))
try {
  const repos = Object.entries(SHAPES).map(([name, make]) => [name, make])
  repos.push(['empty directory', (d) => mkdirSync(d, { recursive: true })])
  const header = ['repository', 'first scan', ...live.flatMap((b) => [b.short, `first / ${b.short}`])]
  const rows = [header]
  const ratios = live.map(() => [])
  for (const [name, make] of repos) {
    const dir = join(base, name.replace(/\W+/g, '-'))
    make(dir)
    const kinds = [() => firstScan(dir), ...live.map((b) => () => wall(() => b.run(dir)))]
    const times = kinds.map(() => [])
    const pairs = live.map(() => [])
    for (let i = 0; i < RUNS; i++) {
      const round = []
      for (let k = 0; k < kinds.length; k++) {
        const j = (i + k) % kinds.length
        round[j] = kinds[j]()
      }
      round.forEach((t, j) => times[j].push(t))
      live.forEach((_, b) => pairs[b].push(round[0] / round[b + 1]))
    }
    const row = [name, ms(median(times[0]))]
    live.forEach((_, b) => {
      const r = median(pairs[b])
      ratios[b].push(r)
      row.push(ms(median(times[b + 1])), `${r.toFixed(2)}x`)
    })
    rows.push(row)
  }
  console.log(`first scan (empty cache directory) against the other tools, whole process, medians of ${RUNS} rotated rounds;`
    + " ratios are the medians of each round's ratio")
  printTable(rows)
  live.forEach((b, i) => {
    const rs = ratios[i]
    const goal = b === baselines[0] ? ' (goal: median at most 1.0, none over 1.5)' : ''
    console.log(`first scan / ${b.name}: median ${median(rs).toFixed(2)}x over ${rs.length} repositories, highest ${Math.max(...rs).toFixed(2)}x${goal}`)
  })
} finally {
  rmSync(base, { recursive: true, force: true })
}
