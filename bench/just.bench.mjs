// The just collector against just's own listings: a synthetic justfile with N recipes (plus
// modules with N/10 recipes each), timed as medians of several runs of each in the same process
// run. Prints the ratio (just / collector) and how the collector scales from 100 to 500 recipes.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { collectJust } from '../dist/src/collectors/just/collect.js'
import { findJust } from '../test/support/just-binary.mjs'
import { timeMedian } from './support.mjs'

const RUNS = 15
const SIZES = [100, 250, 500]


function recipes(n, prefix) {
  let text = ''
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) text += `# Recipe ${i} of ${prefix}\n`
    if (i % 7 === 0) text += `[group('g${i % 5}')]\n`
    const deps = i > 0 ? ` ${prefix}${i - 1}` : ''
    text += `${prefix}${i} arg${i}='x' *rest:${deps}\n    echo {{arg${i}}} {{version}} {{rest}}\n    echo done\n\n`
    if (i % 10 === 0) text += `alias ${prefix}a${i} := ${prefix}${i}\n\n`
  }
  return text
}

function build(n) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-just-'))
  const modules = 5
  let root = 'set shell := ["bash", "-c"]\nversion := "1.0"\n\n'
  for (let m = 0; m < modules; m++) root += `mod m${m}\n`
  root += "import 'common.just'\n\n" + recipes(n, 'r')
  writeFileSync(join(dir, 'justfile'), root)
  writeFileSync(join(dir, 'common.just'), 'version2 := "2"\n' + recipes(Math.ceil(n / 10), 'c'))
  for (let m = 0; m < modules; m++) {
    if (m % 2) {
      mkdirSync(join(dir, `m${m}`))
      writeFileSync(join(dir, `m${m}`, 'mod.just'), 'version := "1"\n' + recipes(Math.ceil(n / 10), 'x'))
    } else writeFileSync(join(dir, `m${m}.just`), 'version := "1"\n' + recipes(Math.ceil(n / 10), 'x'))
  }
  return dir
}

/** Median wall time of RUNS calls, after two warm-up calls (JIT for ours, page cache for both). */
const median = (fn) => timeMedian(fn, RUNS, 2)

const JUST = findJust()
// Build every size first and warm the collector's code on all of them (a long-lived harness
// process scans with warm code; a CLI run is cold and pays Node's start-up, not counted here).
const dirs = SIZES.map((n) => [n, build(n)])
for (let k = 0; k < 20; k++) for (const [, dir] of dirs) collectJust(dir)
const rows = []
try {
  for (const [n, dir] of dirs) {
    const count = collectJust(dir).recipes.length
    const row = { recipes: n, listed: count, collector: median(() => collectJust(dir)) }
    if (JUST) {
      const run = (args) => {
        const r = spawnSync(JUST, args, { cwd: dir, encoding: 'utf8' })
        if (r.status !== 0) throw new Error(`just ${args.join(' ')} failed: ${r.stderr}`)
      }
      row.dump = median(() => run(['--dump', '--dump-format', 'json']))
      row.list = median(() => run(['--list', '--list-submodules']))
    }
    rows.push(row)
  }
} finally {
  for (const [, dir] of dirs) rmSync(dir, { recursive: true, force: true })
}

const ms = (x) => (x === undefined ? '-' : `${x.toFixed(2)} ms`)
const ratio = (a, b) => (a === undefined ? '-' : `${(a / b).toFixed(1)}x`)
console.log(`just collector vs ${JUST ? `just (${JUST})` : 'just (not installed: baseline skipped)'}, median of ${RUNS} runs`)
console.log(['recipes', 'listed', 'collector', 'just --dump', 'ratio', 'just --list', 'ratio'].join('\t'))
for (const r of rows) {
  console.log([r.recipes, r.listed, ms(r.collector), ms(r.dump), ratio(r.dump, r.collector), ms(r.list), ratio(r.list, r.collector)].join('\t'))
}
const [a, , c] = rows
console.log(`linearity: ${SIZES[2]}/${SIZES[0]} recipes = ${SIZES[2] / SIZES[0]}x input, collector time ${(c.collector / a.collector).toFixed(1)}x (linear is about ${SIZES[2] / SIZES[0]}x)`)
const worst = Math.min(...rows.filter((r) => r.dump).map((r) => r.dump / r.collector))
if (JUST) console.log(`target: at least 5x faster than just --dump: ${worst >= 5 ? 'met' : 'NOT met'} (worst ${worst.toFixed(1)}x)`)
