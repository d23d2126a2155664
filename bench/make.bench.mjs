// The make collector against GNU make's own database listing (`make -pRrq :`) on the same
// synthetic makefiles: a root Makefile including 20 files, 1,000 / 2,500 / 5,000 targets.
// Medians of several runs; the ratio says how many times faster the collector is.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCollector } from '../dist/collectors/make.js'

const SIZES = [1000, 2500, 5000]
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const INCLUDES = 20

function build(dir, targets) {
  const per = Math.ceil(targets / INCLUDES)
  const root = ['CC ?= gcc', 'CFLAGS := -O2 -Wall', 'OUT = build', '']
  for (let f = 0; f < INCLUDES; f++) {
    const lines = [`# part ${f}`, `PART_${f}_DIR := $(OUT)/part${f}`, '']
    for (let t = f * per; t < Math.min(targets, (f + 1) * per); t++) {
      if (t % 2 === 0) lines.push(`.PHONY: task-${t}`, `## Run task ${t}`, `task-${t}: task-${t + 1} | $(OUT)`)
      else lines.push(`$(PART_${f}_DIR)/file-${t}.o: src/file-${t}.c ## Object ${t}`)
      lines.push(`\t$(CC) $(CFLAGS) -c $< -o $@ $(EXTRA_${t % 7})`, '')
    }
    writeFileSync(join(dir, `part${f}.mk`), lines.join('\n'))
    root.push(`include part${f}.mk`)
  }
  writeFileSync(join(dir, 'Makefile'), root.join('\n') + '\n')
}

function median(values) {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

function time(fn) {
  const samples = []
  let result
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint()
    result = fn()
    samples.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return { ms: median(samples), result }
}

const hasMake = spawnSync('make', ['--version']).status === 0
const rows = []
// One scan before measuring: the first call also pays for loading and compiling the collector.
{
  const dir = mkdtempSync(join(tmpdir(), 'make-bench-warm-'))
  build(dir, 200)
  const t = process.hrtime.bigint()
  makeCollector.collect({ root: dir, options: { enabled: true } })
  console.log(`first (cold) scan of 200 targets: ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(1)} ms`)
  for (let i = 0; i < 5; i++) makeCollector.collect({ root: dir, options: { enabled: true } })
  rmSync(dir, { recursive: true, force: true })
}
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'make-bench-'))
  try {
    build(dir, size)
    const ours = time(() => makeCollector.collect({ root: dir, options: { enabled: true } }))
    const theirs = hasMake
      ? time(() => spawnSync('make', ['-pRrq', ':'], { cwd: dir, env: { PATH: process.env.PATH, LC_ALL: 'C' }, maxBuffer: 256 << 20 }))
      : undefined
    rows.push({ size, files: ours.result.files.length, recipes: ours.result.recipes.length, ours: ours.ms, make: theirs?.ms })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

console.log(`make collector vs GNU make database listing (make -pRrq :), median of ${RUNS} runs; load average ${(await import('node:os')).loadavg()[0].toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores`)
console.log('targets  files  listed  collector ms  make -pRrq ms  ratio  collector us/target')
for (const r of rows) {
  console.log([
    String(r.size).padStart(7), String(r.files).padStart(6), String(r.recipes).padStart(7),
    r.ours.toFixed(2).padStart(13), (r.make?.toFixed(2) ?? 'n/a').padStart(14),
    (r.make ? `${(r.make / r.ours).toFixed(1)}x` : 'n/a').padStart(6),
    ((r.ours * 1000) / r.size).toFixed(2).padStart(20),
  ].join(' '))
}
if (!hasMake) console.log('make is not on PATH: no baseline')
