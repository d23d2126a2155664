// The task collector on synthetic Taskfiles: a root Taskfile including 20 Taskfiles (two of
// them nested one level further), 1,000 / 2,500 / 5,000 tasks, against two baselines in the same
// run: the real go-task's listing (`task --list-all --json`, the pinned go-task-bin wheel from
// test/setup/40-tools.sh), and the floor any static reader pays: parsing the same files with the
// YAML library the collector reads them with (js-yaml's event stream) and nothing else. Medians of
// several runs; "overhead" is collector time over parse-only time.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEvents } from 'js-yaml'
import { taskCollector } from '../dist/src/collectors/task/collect.js'
import { findBin } from './scripts.bench.mjs'

const TASK = findBin('task')

const SIZES = [1000, 2500, 5000]
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const INCLUDES = 20

function taskfile(from, to, extra = '') {
  const lines = ["version: '3'", 'vars:', '  PART: part', extra, 'tasks:']
  for (let t = from; t < to; t++) {
    if (t % 3 === 0) lines.push(`  t${t}: echo short {{.ARG_${t % 5}}}`)
    else if (t % 3 === 1) lines.push(`  t${t}:`, `    - echo one`, `    - echo two {{.CLI_ARGS}}`)
    else {
      lines.push(`  t${t}:`, `    desc: Task number ${t}`, `    aliases: [a${t}]`, `    deps: [t${t - 1}, t${t - 2}]`,
        '    requires:', '      vars: [TARGET]', '    cmds:', `      - go build -o {{.OUT}}/t${t} ./cmd/t${t}`)
    }
  }
  return lines.join('\n') + '\n'
}

function build(dir, tasks) {
  const per = Math.ceil(tasks / INCLUDES)
  const files = []
  const includes = ['includes:']
  for (let f = 0; f < INCLUDES; f++) {
    const from = f * per
    const to = Math.min(tasks, (f + 1) * per)
    mkdirSync(join(dir, `part${f}`), { recursive: true })
    if (f % 10 === 0) {
      // A nested include: half of this part's tasks one level further down.
      const mid = Math.floor((from + to) / 2)
      writeFileSync(join(dir, `part${f}`, 'nested.yml'), taskfile(mid, to))
      writeFileSync(join(dir, `part${f}`, 'Taskfile.yml'), taskfile(from, mid, 'includes:\n  nested: ./nested.yml'))
      files.push(join(dir, `part${f}`, 'nested.yml'))
    } else writeFileSync(join(dir, `part${f}`, 'Taskfile.yml'), taskfile(from, to))
    files.push(join(dir, `part${f}`, 'Taskfile.yml'))
    includes.push(`  p${f}: ./part${f}`)
  }
  writeFileSync(join(dir, 'Taskfile.yml'), `version: '3'\n${includes.join('\n')}\ntasks:\n  default: echo root\n`)
  files.push(join(dir, 'Taskfile.yml'))
  return files
}

function median(values) {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** Wall-clock and CPU medians; CPU time is the figure that holds when the machine is busy. */
function time(fn) {
  const wall = []
  const cpu = []
  let result
  for (let i = 0; i < RUNS; i++) {
    const c = process.cpuUsage()
    const t = process.hrtime.bigint()
    result = fn()
    wall.push(Number(process.hrtime.bigint() - t) / 1e6)
    const d = process.cpuUsage(c)
    cpu.push((d.user + d.system) / 1000)
  }
  return { ms: median(wall), cpu: median(cpu), result }
}

{
  const dir = mkdtempSync(join(tmpdir(), 'task-bench-warm-'))
  build(dir, 1000)
  const t = process.hrtime.bigint()
  taskCollector.collect({ root: dir, options: { enabled: true } })
  console.log(`first (cold) scan of 1,000 tasks: ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(1)} ms`)
  // Then enough scans for the compiler to settle, so that the table shows the steady state.
  for (let i = 0; i < 30; i++) taskCollector.collect({ root: dir, options: { enabled: true } })
  rmSync(dir, { recursive: true, force: true })
}

const rows = []
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'task-bench-'))
  try {
    const files = build(dir, size)
    const ours = time(() => taskCollector.collect({ root: dir, options: { enabled: true } }))
    const parseOnly = time(() => files.map((f) => parseEvents(readFileSync(f, 'utf8'), {})))
    const goTask = TASK ? time(() => execFileSync(TASK, ['--list-all', '--json'], { cwd: dir, stdio: 'ignore' })) : undefined
    rows.push({ size, files: ours.result.files.length, recipes: ours.result.recipes.length, ours, parse: parseOnly, goTask })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

console.log(`task collector vs task --list-all --json and a parse-only baseline (js-yaml parseEvents of the same files), median of ${RUNS} runs; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`)
if (!TASK) console.log('(go-task is not on PATH: source test/setup/40-tools.sh, or npm run bench)')
console.log('tasks  files  listed | wall ms: collector  parse-only  overhead  go-task  ratio | cpu ms: collector  parse-only  overhead | collector cpu us/task')
for (const r of rows) {
  console.log([
    String(r.size).padStart(5), String(r.files).padStart(6), String(r.recipes).padStart(7), '|',
    r.ours.ms.toFixed(1).padStart(18), r.parse.ms.toFixed(1).padStart(11), `${(r.ours.ms / r.parse.ms).toFixed(2)}x`.padStart(9),
    (r.goTask ? r.goTask.ms.toFixed(1) : 'n/a').padStart(8), (r.goTask ? `${(r.goTask.ms / r.ours.ms).toFixed(1)}x` : '').padStart(6), '|',
    r.ours.cpu.toFixed(1).padStart(17), r.parse.cpu.toFixed(1).padStart(11), `${(r.ours.cpu / r.parse.cpu).toFixed(2)}x`.padStart(9), '|',
    ((r.ours.cpu * 1000) / r.size).toFixed(1).padStart(22),
  ].join(' '))
}
