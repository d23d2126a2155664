// The kitchen inside dsh (a chef in `dsh web` against the scripted fake model):
// - dispatch to a cook's first run line: from the moment the model's chef_dispatch call leaves the
//   fake model to the first line of runs/1.jsonl, against a bare spawn of the same dsh cook process
//   (the cook runner on a prepared task) to its first line, measured in the same run;
// - the service's tick inside dsh at 100 and 1,000 open tasks (a bench row times ctx.kitchen.tick()),
//   against the core's tick on the same kitchen in this plain Node process;
// - the resident memory of one idle cook (waiting in a tool call), against the chef's dsh.
// Run after `npm run build` with the pinned dsh installed (npm test sets it up): node bench/chef.bench.mjs
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { dshAvailable } from '../test/e2e/harness.mjs'
import { offersTool, startFakeModel } from '../test/support/fake-model.mjs'
import { makeTask, startCook } from '../test/cook/support.mjs'
import { chefScript, cookPid, killCooks, makeRepo, waitFor } from '../test/chef/support.mjs'
import { startWeb, writeOverlay } from '../test/chef/web.mjs'
import { makeHome } from '../test/e2e/harness.mjs'
import { openKitchen } from '../dist/src/kitchen/index.js'
import { median, ms, FLASH } from './support.mjs'

const RUNS = 5

const why = dshAvailable()
if (why) {
  console.log(`chef bench skipped: ${why}`)
  process.exit(0)
}

const BENCH_ROW = join(mkdtempSync(join(tmpdir(), 'cs-bench-row-')), 'tick-timer.mjs')
writeFileSync(BENCH_ROW, `
import { writeFileSync } from 'node:fs'
export const name = 'kitchen-tick-timer'
export const inject = ['kitchen', 'timer']
export function apply(ctx, config) {
  const stop = ctx.setInterval(async () => {
    if (ctx.kitchen.role !== 'owner') return
    stop()
    const out = []
    for (let i = 0; i < 22; i++) {
      const t = performance.now()
      await ctx.kitchen.tick()
      if (i > 0) out.push(performance.now() - t)
    }
    writeFileSync(config.file, JSON.stringify(out))
  }, 200)
}
`)

function runFile(at) {
  const m = { provider: 'deepseek-official', model: 'deepseek-v4-flash' }
  const lines = [{ type: 'run_start', at, v: 1, sessionId: 's', resumed: false, model: m }, { type: 'prompted', at: at + 10, source: 'prompt', text: 'brief' }]
  for (let i = 0; i < 12; i++) {
    lines.push({ type: 'tool_start', at: at + 100 * i, callId: `c${i}`, tool: 'bash', activity: 'make test' })
    lines.push({ type: 'tool_end', at: at + 100 * i + 50, callId: `c${i}`, tool: 'bash', isError: false, tail: 'ok' })
  }
  lines.push({ type: 'tool_end', at: at + 2000, callId: 'r', tool: 'chef_report', isError: false, report: { status: 'done', summary: 'ok' } })
  lines.push({ type: 'settled', at: at + 2010 })
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
}

/** A kitchen with `n` open, idle, notified tasks: a tick has nothing to do but read and decide. */
function synthetic(root, n) {
  const T0 = Date.now() - 3_600_000
  for (const d of ['projects', 'tasks', 'worktrees']) mkdirSync(join(root, d), { recursive: true })
  writeFileSync(join(root, 'projects', 'api.json'), JSON.stringify({ name: 'api', path: '/nonexistent/api', baseBranch: 'main', branchPrefix: 'issue/' }))
  for (let i = 1; i <= n; i++) {
    const id = `api-${i}`
    const dir = join(root, 'tasks', id)
    for (const d of ['runs', 'session', 'inbox/handled']) mkdirSync(join(dir, d), { recursive: true })
    writeFileSync(join(dir, 'task.json'), JSON.stringify({ id, project: 'api', title: `Task ${i}`, brief: 'b', branch: `issue/${id}`, worktree: join(root, 'worktrees', id), baseBranch: 'main', sessionId: `s-${i}`, models: [], createdAt: T0 + i }))
    writeFileSync(join(dir, 'runs', '1.prompt.md'), 'brief\n')
    writeFileSync(join(dir, 'runs', '1.jsonl'), runFile(T0 + i * 10))
    writeFileSync(join(dir, 'log.jsonl'), JSON.stringify({ type: 'notified', at: T0 + i * 10 + 3000, run: 1 }) + '\n')
  }
}

function rssKb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) : NaN
}

const cleanups = []
const t = { after: (f) => cleanups.push(f) }
try {
  // ---------------------------------------------------------------- dispatch to first run line
  const home = await makeHome('cs-bench-chef-')
  cleanups.push(home.cleanup)
  const model = await startFakeModel()
  cleanups.push(() => model.close())
  const gate = join(home.root, 'go')
  const cookRoute = model.route('cook', (b) => offersTool(b, 'chef_report'))
  cookRoute.fallback = (b) => (b.messages.at(-1)?.role === 'tool'
    ? { tool: 'chef_report', args: { status: 'done', summary: 'ok' } }
    : { tool: 'bash', args: { description: 'wait', timeoutMs: 300000, command: `while [ ! -e ${gate} ]; do sleep 0.1; done` } })
  const script = chefScript()
  let dispatchedAt = 0
  const chefRoute = model.route('chef', (b) => offersTool(b, 'chef_dispatch'))
  chefRoute.fallback = (b) => {
    const a = script.answer(b)
    if (a.tool === 'chef_dispatch') dispatchedAt = performance.now()
    return a
  }
  const kitchen = join(home.root, 'kitchen')
  const repos = join(home.root, 'repos')
  mkdirSync(repos, { recursive: true })
  cleanups.push(async () => killCooks(kitchen))
  const patch = await writeOverlay(home, { dir: kitchen, maxCooks: 20 })
  const web = await startWeb({ home, model, patch, cwd: repos })
  cleanups.push(() => web.stop())
  const sid = await web.createSession(repos)
  await web.command(sid, '/chef on')
  const repo = makeRepo(repos, 'api')
  await web.prompt(sid, `SCRIPT ${JSON.stringify([{ tool: 'chef_add_project', args: { path: repo } }, { text: 'ok' }])}`)
  await chefRoute.waitForRequests(2)
  const viaChef = []
  for (let i = 1; i <= RUNS + 1; i++) {
    const before = chefRoute.requests.length
    await web.prompt(sid, `SCRIPT ${JSON.stringify([{ tool: 'chef_dispatch', args: { project: 'api', title: `T${i}`, brief: 'b' } }, { text: 'ok' }])}`)
    const run = join(kitchen, 'tasks', `api-${i}`, 'runs', '1.jsonl')
    await waitFor(() => existsSync(run) && statSync(run).size > 0, `api-${i}'s first run line`, 120_000)
    if (i > 1) viaChef.push(performance.now() - dispatchedAt)
    await chefRoute.waitForRequests(before + 2)
  }
  const cook = cookPid(kitchen, 'api-1')
  await waitFor(() => readFileSync(join(kitchen, 'tasks/api-1/runs/1.jsonl'), 'utf8').includes('tool_start'), 'api-1 waiting in bash')
  const cookRss = rssKb(cook)
  const chefRss = rssKb(web.child.pid)

  // Baseline: the same cook runner spawned bare on a prepared task, to its first run line.
  const bare = []
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'cs-bench-bare-')))
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }))
  for (let i = 0; i <= RUNS; i++) {
    const task = await makeTask(join(scratch, `t${i}`), { id: `bare-${i + 1}` })
    cookRoute.push({ tool: 'chef_report', args: { status: 'done', summary: 'ok' } })
    const t0 = performance.now()
    const c = startCook({ task, run: 1, prompt: 'Report done.\n', model, home, modelName: FLASH })
    await waitFor(() => c.lines().length > 0, 'the bare cook\'s first line', 60_000)
    if (i > 0) bare.push(performance.now() - t0)
    await c.done
  }
  writeFileSync(gate, 'go')
  await web.stop()
  killCooks(kitchen)

  // ---------------------------------------------------------------- the tick inside dsh
  const tickRows = []
  for (const n of [100, 1000]) {
    const root = join(home.root, `kitchen-${n}`)
    synthetic(root, n)
    await new Promise((r) => setTimeout(r, 2500)) // past the store's racy window: the steady state
    const file = join(home.root, `ticks-${n}.json`)
    const p = await writeOverlay(home, { dir: root }, ['    - id: kitchen-tick-timer', `      name: '${BENCH_ROW}'`, `      config: ${JSON.stringify({ file })}`])
    const w = await startWeb({ home, model, patch: p, cwd: repos })
    const s = await w.createSession(repos)
    await w.command(s, '/chef on')
    await waitFor(() => existsSync(file), `the in-dsh ticks at ${n}`, 300_000)
    const inside = median(JSON.parse(readFileSync(file, 'utf8')))
    await w.stop()
    const o = await openKitchen(root, { tickMs: 0, emit: () => {}, deliver: async () => true })
    const k = o.kitchen
    const outside = []
    await k.tick()
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now()
      await k.tick()
      outside.push(performance.now() - t0)
    }
    await k.shutdown()
    tickRows.push([n, inside, median(outside)])
  }

  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  console.log(`dispatch to first run line (in dsh web)   ${ms(median(viaChef))}   bare spawn of the same cook to its first line ${ms(median(bare))}   ratio ${(median(viaChef) / median(bare)).toFixed(2)}`)
  for (const [n, inside, outside] of tickRows) console.log(`tick at ${String(n).padStart(4)} open tasks: in dsh ${ms(inside)}   core alone ${ms(outside)}   ratio ${(inside / outside).toFixed(2)}`)
  console.log(`memory of one idle cook (waiting in bash) ${(cookRss / 1024).toFixed(1)} MiB RSS   the chef's dsh web ${(chefRss / 1024).toFixed(1)} MiB   ratio ${(cookRss / chefRss).toFixed(2)}`)
} finally {
  for (const f of cleanups.reverse()) await Promise.resolve().then(f).catch(() => {})
  rmSync(join(BENCH_ROW, '..'), { recursive: true, force: true })
  void t
}
