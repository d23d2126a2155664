// The cook runner in the real dsh, against the scripted fake model: time from spawn to the first
// run-file line and to exit for a one-step run (one chef_report), and the resident memory of a cook
// that waits inside a tool call. Baseline, measured in the same run: the stock one-shot
// `dsh --profile headless "<task>"` on the same fake model, spawn to exit.
// Run after `npm run build` with the pinned dsh installed (npm test sets it up): node bench/cook.bench.mjs
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cpus, loadavg } from 'node:os'
import { dshAvailable, makeHome, startDsh } from '../test/e2e/harness.mjs'
import { startFakeModel, offersTool } from '../test/support/fake-model.mjs'
import { makeTask, startCook, tempDir, until } from '../test/cook/support.mjs'
import { median, FLASH } from './support.mjs'

const RUNS = 5

const why = dshAvailable()
if (why) {
  console.log(`cook bench skipped: ${why}`)
  process.exit(0)
}

const home = await makeHome('cs-bench-cook-')
const scratch = await tempDir('cs-bench-cook-')
const model = await startFakeModel()
const cookRoute = model.route('cook', (b) => offersTool(b, 'chef_report'))
try {
  // Baseline: the stock headless driver, one text answer.
  const bare = []
  for (let i = 0; i <= RUNS; i++) {
    model.default.push({ text: 'hi' })
    const t = performance.now()
    const r = await startDsh({ args: ['--profile', 'headless', '--patch', home.deterministicPatch, 'say hi'], cwd: scratch, home, model }).done
    if (r.code !== 0) throw new Error(`headless baseline failed: ${r.stderr}`)
    if (i > 0) bare.push(performance.now() - t)
  }

  // The cook: one task, one run per measurement (each run is a new task, so each creates its session).
  const first = []
  const total = []
  for (let i = 0; i <= RUNS; i++) {
    const task = await makeTask(join(scratch, `t${i}`), { id: `bench-${i + 1}` })
    cookRoute.push({ tool: 'chef_report', args: { status: 'done', summary: 'ok' } })
    const t = performance.now()
    const cook = startCook({ task, run: 1, prompt: 'Report done.\n', model, home, modelName: FLASH })
    await until(() => cook.lines().length > 0, 'the first run line', 60_000)
    const tFirst = performance.now() - t
    const r = await cook.done
    if (r.code !== 0) throw new Error(`cook run failed: ${r.err}`)
    if (i > 0) {
      first.push(tFirst)
      total.push(performance.now() - t)
    }
  }

  // Memory of a cook waiting in a tool call.
  const task = await makeTask(join(scratch, 'idle'), { id: 'idle-1' })
  cookRoute.push({ tool: 'bash', args: { command: 'while [ ! -e go ]; do sleep 0.1; done', description: 'wait' } }, { tool: 'chef_report', args: { status: 'done', summary: 'ok' } })
  const cook = startCook({ task, run: 1, prompt: 'Wait.\n', model, home, modelName: FLASH })
  await until(() => cook.lines().some((l) => l.type === 'tool_start'), 'the cook to wait in bash', 60_000)
  const status = readFileSync(`/proc/${cook.child.pid}/status`, 'utf8')
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
  writeFileSync(join(task.worktree, 'go'), '')
  await cook.done

  const ms = (x) => `${x.toFixed(0)} ms`
  console.log(`machine: ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}; medians of ${RUNS}`)
  console.log('| measure | cook runner | baseline: stock headless run, spawn to exit | ratio |')
  console.log('|---|---|---|---|')
  console.log(`| spawn to first run line | ${ms(median(first))} | ${ms(median(bare))} | ${(median(first) / median(bare)).toFixed(2)}x |`)
  console.log(`| spawn to exit, one chef_report step | ${ms(median(total))} | ${ms(median(bare))} | ${(median(total) / median(bare)).toFixed(2)}x |`)
  console.log(`| resident memory of a cook waiting in bash | ${(rssKb / 1024).toFixed(0)} MiB | | |`)
} finally {
  await model.close()
  await home.cleanup()
  if (existsSync(scratch)) rmSync(scratch, { recursive: true, force: true })
}
