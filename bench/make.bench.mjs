// The make collector against GNU make's own database listing (`make -pRrq :`) on the same
// synthetic makefiles: a root Makefile including 20 files, 1,000 / 2,500 / 5,000 targets.
// Medians of several runs; the ratio says how many times faster the collector is.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCollector } from '../dist/src/collectors/make/collect.js'

const SIZES = [1000, 2500, 5000]
const RUNS = Number(process.env.BENCH_RUNS ?? 9)
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

/** One run of make's listing; its CPU time comes from the shell's `times` (its children's user and system time). */
function runMake(dir) {
  const t = process.hrtime.bigint()
  const run = spawnSync('bash', ['-c', 'make -pRrq : >/dev/null 2>&1; times'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C' } })
  const wall = Number(process.hrtime.bigint() - t) / 1e6
  const [user, sys] = run.stdout.trim().split('\n')[1].split(/\s+/).map((x) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(x)
    return m ? Number(m[1]) * 60_000 + Number(m[2]) * 1000 : NaN
  })
  return { wall, cpu: user + sys }
}

/** Runs of the collector and of make alternate, so that both see the same machine load. */
function compare(dir) {
  const ours = { wall: [], cpu: [] }
  const make = { wall: [], cpu: [] }
  let result
  for (let i = 0; i < RUNS; i++) {
    const c = process.cpuUsage()
    const t = process.hrtime.bigint()
    result = makeCollector.collect({ root: dir, options: { enabled: true } })
    ours.wall.push(Number(process.hrtime.bigint() - t) / 1e6)
    const d = process.cpuUsage(c)
    ours.cpu.push((d.user + d.system) / 1000)
    if (hasMake) {
      const m = runMake(dir)
      make.wall.push(m.wall)
      make.cpu.push(m.cpu)
    }
  }
  return {
    result,
    ours: { ms: median(ours.wall), cpu: median(ours.cpu) },
    make: hasMake ? { ms: median(make.wall), cpu: median(make.cpu) } : undefined,
  }
}

const hasMake = spawnSync('make', ['--version']).status === 0
const rows = []
// One scan before measuring: the first call also pays for loading and compiling the collector.
{
  const dir = mkdtempSync(join(tmpdir(), 'make-bench-warm-'))
  build(dir, 1000)
  const t = process.hrtime.bigint()
  makeCollector.collect({ root: dir, options: { enabled: true } })
  console.log(`first (cold) scan of 1,000 targets: ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(1)} ms`)
  // Then enough scans for the compiler to settle, so that the table shows the steady state.
  for (let i = 0; i < 30; i++) makeCollector.collect({ root: dir, options: { enabled: true } })
  rmSync(dir, { recursive: true, force: true })
}
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'make-bench-'))
  try {
    build(dir, size)
    const { result, ours, make } = compare(dir)
    rows.push({ size, files: result.files.length, recipes: result.recipes.length, ours, make })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

console.log(`make collector vs GNU make database listing (make -pRrq :), median of ${RUNS} runs; load average ${(await import('node:os')).loadavg()[0].toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores`)
console.log('targets  files  listed | wall ms: collector    make  ratio | cpu ms: collector    make  ratio | collector cpu us/target')
const fmt = (n) => (n === undefined ? 'n/a' : n.toFixed(1))
for (const r of rows) {
  console.log([
    String(r.size).padStart(7), String(r.files).padStart(6), String(r.recipes).padStart(7), '|',
    fmt(r.ours.ms).padStart(18), fmt(r.make?.ms).padStart(7), (r.make ? `${(r.make.ms / r.ours.ms).toFixed(1)}x` : 'n/a').padStart(6), '|',
    fmt(r.ours.cpu).padStart(17), fmt(r.make?.cpu).padStart(7), (r.make ? `${(r.make.cpu / r.ours.cpu).toFixed(1)}x` : 'n/a').padStart(6), '|',
    ((r.ours.cpu * 1000) / r.size).toFixed(1).padStart(24),
  ].join(' '))
}
if (!hasMake) console.log('make is not on PATH: no baseline')
