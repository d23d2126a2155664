// The owner's tick and board text at 10, 100 and 1,000 open tasks on disk, and the time from a
// dispatch to a running cook (the fake cook's first run-file line).
// Baselines, measured in the same run: a cold read (a new Store, every file read again, then the plan)
// for the tick, and spawning the fake cook straight from a shell-less spawn for the dispatch.
// Targets: a tick under 5 ms at 100 tasks and under 50 ms at 1,000, growing linearly.
// Run after `npx tsc -p .`: node bench/kitchen.bench.mjs
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, realpathSync, statSync } from 'node:fs'
import { tmpdir, loadavg, cpus } from 'node:os'
import { join } from 'node:path'
import { execFileSync, spawn } from 'node:child_process'
import { openKitchen, Store } from '../dist/src/kitchen/index.js'
import { plan } from '../dist/src/kitchen/derive/index.js'
import { median } from './support.mjs'

const FAKE = new URL('../test/kitchen/fake-cook.mjs', import.meta.url).pathname
const COOK = [process.execPath, FAKE, '--session-dir={sessionDir}', '--session-id={sessionId}', '--model={model}', '{cookArgs}', '--prompt-file={promptFile}']
const SIZES = [10, 100, 1000]
const RUNS = 21
const T0 = Date.now() - 3_600_000

/** Median wall time, and median CPU time of this process (robust on a loaded machine). */
async function measure(fn, runs = RUNS) {
  await fn() // warm
  const wall = []
  const cpu = []
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage()
    const t = performance.now()
    await fn()
    wall.push(performance.now() - t)
    const d = process.cpuUsage(c)
    cpu.push((d.user + d.system) / 1000)
  }
  return { wall: median(wall), cpu: median(cpu) }
}
const time = async (fn, runs) => (await measure(fn, runs)).wall

function runFile(kind, at) {
  const m = { provider: 'openai', model: 'gpt-6-astra' }
  const lines = [
    { type: 'run_start', at, v: 1, sessionId: 's', resumed: false, model: m },
    { type: 'prompted', at: at + 10, source: 'prompt', text: 'Add rate limiting to the login route.' },
  ]
  for (let i = 0; i < 12; i++) {
    lines.push({ type: 'assistant', at: at + 100 * i, model: m, stopReason: 'tool_use', text: i % 3 ? '' : 'Reading the router first.' })
    lines.push({ type: 'tool_start', at: at + 100 * i + 1, callId: `c${i}`, tool: 'bash', activity: 'make test' })
    lines.push({ type: 'tool_end', at: at + 100 * i + 50, callId: `c${i}`, tool: 'bash', isError: false, tail: 'ok' })
  }
  const report = kind === 'done' ? { status: 'done', summary: 'token bucket in limit.go' } : { status: 'needs_decision', summary: 'cookie or bearer?' }
  lines.push({ type: 'tool_end', at: at + 2000, callId: 'r', tool: 'chef_report', isError: false, report })
  lines.push({ type: 'settled', at: at + 2010 })
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
}

/** A kitchen with `n` open, idle, notified tasks: a tick has nothing to do but read and decide. */
function synthetic(n) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `kbench-${n}-`)))
  for (const d of ['projects', 'tasks', 'worktrees']) mkdirSync(join(root, d))
  writeFileSync(join(root, 'projects', 'api.json'), JSON.stringify({ name: 'api', path: '/nonexistent/api', baseBranch: 'main', branchPrefix: 'issue/' }))
  for (let i = 1; i <= n; i++) {
    const id = `api-${i}`
    const dir = join(root, 'tasks', id)
    for (const d of ['runs', 'session', 'inbox', 'inbox/handled']) mkdirSync(join(dir, d), { recursive: true })
    writeFileSync(join(dir, 'task.json'), JSON.stringify({
      id, project: 'api', title: `Task ${i}`, brief: 'Add rate limiting.', branch: `issue/${id}`, worktree: join(root, 'worktrees', id),
      baseBranch: 'main', sessionId: `s-${i}`, models: [{ model: 'openai/gpt-6-astra' }], createdAt: T0 + i,
    }))
    writeFileSync(join(dir, 'runs', '1.prompt.md'), 'brief\n')
    writeFileSync(join(dir, 'runs', '1.jsonl'), runFile(i % 2 ? 'done' : 'needs', T0 + i * 10))
    writeFileSync(join(dir, 'log.jsonl'), JSON.stringify({ type: 'notified', at: T0 + i * 10 + 3000, run: 1 }) + '\n')
  }
  return root
}

const rows = []
for (const n of SIZES) {
  const root = synthetic(n)
  // files younger than the store's racy window (2 s) are read again on purpose: measure the steady state
  await new Promise((r) => setTimeout(r, 2500))
  const o = await openKitchen(root, { cookCommand: COOK, tickMs: 0, emit: () => {}, deliver: async () => true })
  if (o.kind !== 'owner') throw new Error('bench kitchen is not the owner')
  const k = o.kitchen
  const tick = await measure(() => k.tick())
  const board = await measure(() => k.board())
  const cold = await measure(() => {
    const s = Store.open(root).snapshot()
    plan(s.tasks, new Map(), Date.now(), s.config)
  })
  const check = await k.tick()
  if (check.views.some((v) => v.state.kind !== 'idle' || v.notice)) throw new Error('the synthetic kitchen is not settled')
  rows.push({ n, tick, board, cold })
  await k.shutdown()
  rmSync(root, { recursive: true, force: true })
}

// Dispatch to a running cook, against the cook spawned directly.
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kbench-dispatch-')))
const repo = join(dir, 'repo')
execFileSync('git', ['init', '-q', '-b', 'main', repo])
writeFileSync(join(repo, 'README'), 'r\n')
execFileSync('git', ['-C', repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '--allow-empty', '-m', 'init'])
const root = join(dir, 'kitchen')
mkdirSync(root)
writeFileSync(join(root, 'config.json'), JSON.stringify({ maxCooks: 50 }))
const o = await openKitchen(root, { cookCommand: COOK, tickMs: 0, deliver: async () => true })
const k = o.kitchen
await k.addProject({ path: repo })
const firstLine = async (file) => {
  for (;;) {
    try {
      if (statSync(file).size > 0) return
    } catch {}
    await new Promise((r) => setTimeout(r, 2))
  }
}
let i = 0
const dispatch = await time(async () => {
  const d = await k.dispatch({ project: 'repo', title: `b${++i}`, brief: '@fake: done' })
  await firstLine(join(root, 'tasks', d.tasks[0].task, 'runs', '1.jsonl'))
}, 9)
const direct = await time(async () => {
  const d = join(dir, `direct-${++i}`)
  mkdirSync(join(d, 'session'), { recursive: true })
  writeFileSync(join(d, 'p.md'), '@fake: done\n')
  const out = openSync(join(d, 'out.jsonl'), 'wx')
  const c = spawn(process.execPath, [FAKE, `--session-dir=${d}/session`, '--session-id=x', `--prompt-file=${d}/p.md`], { stdio: ['ignore', out, 'ignore'], cwd: d })
  // Listened for at once: the fake cook may be gone by the time its first line is seen.
  const exited = new Promise((r) => c.once('exit', r))
  closeSync(out)
  await firstLine(join(d, 'out.jsonl'))
  await exited
}, 9)
await k.idle()
await k.shutdown()
rmSync(dir, { recursive: true, force: true })

const f = (ms) => `${ms.toFixed(2)} ms`
console.log(`kitchen bench: medians of ${RUNS} runs; node ${process.version}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`)
console.log('| open tasks | tick wall | tick cpu | board wall | board cpu | cold read + plan wall (baseline) | tick / baseline | tick cpu per task |')
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  console.log(`| ${r.n} | ${f(r.tick.wall)} | ${f(r.tick.cpu)} | ${f(r.board.wall)} | ${f(r.board.cpu)} | ${f(r.cold.wall)} | ${(r.tick.wall / r.cold.wall).toFixed(2)} | ${(r.tick.cpu * 1000 / r.n).toFixed(1)} µs |`)
}
console.log('')
console.log('| dispatch to a running cook (first run-file line) | fake cook spawned directly (baseline) | ratio |')
console.log('|---:|---:|---:|')
console.log(`| ${f(dispatch)} | ${f(direct)} | ${(dispatch / direct).toFixed(2)} |`)
