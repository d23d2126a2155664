// The board on a kitchen of 500 tasks, made with the kitchen's own store (task dirs, logs, claimed
// run files holding what a cook writes, real branches with a commit in a real repository): the
// page and the API answer fast, paging and the state filter hold, and the timings are reported.
// With chromium, the first page is looked at at desktop and phone width (kitchen-scale-*.png).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, rmSync, writeSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../mcp/support.mjs'
import { diskDir, git, makeRepo } from '../kitchen/support.mjs'
import { Store } from '../../dist/src/kitchen/store/index.js'
import { startServer } from '../../dist/src/serve/server.js'
import { kitchenRoutes } from '../../dist/src/serve/kitchen/index.js'

const TASKS = 500
const CHROMIUM = process.env.COMMAND_SCOUT_CHROMIUM ?? '/usr/bin/chromium'
const ARTIFACTS = join(REPO_ROOT, 'test/artifacts/serve')
const OUTCOMES = ['waiting', 'done', 'needs_decision', 'failed', 'closed']

let root
let server
let kdir

const summaryOf = (i, status) => (status === 'needs_decision' ? `cookie or bearer for part ${i}?` : `part ${i}: ${status}`)

/** What a cook writes to its run file: a start, the prompt, a tool call, a report, the end. */
function runLines(id, i, outcome, at) {
  const model = { provider: 'deepseek-official', model: i % 7 === 0 ? 'deepseek-v4-pro' : 'deepseek-v4-flash' }
  const status = outcome === 'closed' ? 'done' : outcome
  return [
    { type: 'run_start', at, v: 1, sessionId: randomUUID(), resumed: false, model },
    { type: 'prompted', at, source: 'prompt', text: `# Task ${id}\n\nDo part ${i}.` },
    { type: 'tool_start', at: at + 1, callId: 'c1', tool: 'bash', activity: `npm test -- part-${i}` },
    { type: 'tool_end', at: at + 2, callId: 'c1', tool: 'bash', isError: outcome === 'failed', tail: `${i} tests, ${outcome === 'failed' ? 1 : 0} failing` },
    { type: 'tool_end', at: at + 3, callId: 'c2', tool: 'chef_report', isError: false, report: { status, summary: summaryOf(i, status) } },
    { type: 'settled', at: at + 4, reason: 'completed' },
  ]
}

before(async () => {
  root = diskDir('serve-kitchen-scale-')
  kdir = join(root, 'home', '.dsh', 'kitchen')
  mkdirSync(kdir, { recursive: true })
  const repo = makeRepo(join(root, 'home', 'src'), 'api')
  // one commit off main that every finished task's branch points at: ahead 1
  git(repo, 'checkout', '-q', '-b', 'work')
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'the work')
  const work = git(repo, 'rev-parse', 'work').trim()
  git(repo, 'checkout', '-q', 'main')
  const store = Store.open(kdir)
  store.addProject({ name: 'api', path: repo, baseBranch: 'main', branchPrefix: 'issue/', createdAt: Date.now() })
  const now = Date.now()
  const specs = store.createTasks(Array.from({ length: TASKS }, (_, i) => ({
    project: 'api',
    build: (id) => ({
      id, project: 'api', title: `Part ${i} of the migration`, brief: `Do part ${i}.`, branch: `issue/${id}`, worktree: join(kdir, 'worktrees', id),
      baseBranch: 'main', sessionId: randomUUID(), models: [], createdAt: now - (TASKS - i) * 1000, format: 2,
    }),
  })))
  const refs = []
  for (const [i, spec] of specs.entries()) {
    const outcome = OUTCOMES[i % OUTCOMES.length]
    if (outcome === 'waiting') continue
    const at = spec.createdAt + 100
    store.appendLog(spec.id, { type: 'prompt', at, run: 1 })
    store.writePrompt(spec.id, 1, `# Task ${spec.id}\n`)
    const fd = store.claimRun(spec.id, 1)
    store.appendLog(spec.id, { type: 'launch', at: at + 1, run: 1 })
    for (const line of runLines(spec.id, i, outcome, at + 2)) writeSync(fd, JSON.stringify(line) + '\n')
    closeSync(fd)
    store.appendLog(spec.id, { type: 'notified', at: at + 10, run: 1 })
    if (outcome === 'closed') store.appendLog(spec.id, { type: 'closed', at: at + 20, discarded: false })
    else refs.push(`create refs/heads/${spec.branch} ${work}`)
  }
  execFileSync('git', ['update-ref', '--stdin'], { cwd: repo, input: refs.join('\n') + '\n' })
  server = await startServer({ version: 'test', noShipped: true, kitchen: kitchenRoutes({ dir: kdir }) })
})
after(async () => {
  await server?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

async function timed(path) {
  const t0 = performance.now()
  const res = await fetch(`${server.url}${path}`)
  const body = await res.text()
  return { ms: performance.now() - t0, status: res.status, body }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

test(`the board of ${TASKS} tasks: the first page at once, the next ones fast; paging and the state filter hold`, async (t) => {
  const cold = await timed('kitchen')
  assert.equal(cold.status, 200)
  assert.equal((cold.body.match(/<tr class="task /g) ?? []).length, 50, 'a page of 50')
  assert.match(cold.body, /<span data-count="total">500 tasks<\/span>/)
  const warm = []
  for (let i = 0; i < 10; i++) warm.push((await timed('kitchen')).ms)
  const wide = []
  for (let i = 0; i < 5; i++) wide.push((await timed('kitchen?per=200&page=2')).ms)
  const api = []
  for (let i = 0; i < 5; i++) api.push((await timed('api/v1/kitchen/tasks?per=200')).ms)
  const ms = (x) => `${x.toFixed(1)} ms`
  t.diagnostic(`/kitchen with ${TASKS} tasks: first ${ms(cold.ms)} (reads every task once), then median ${ms(median(warm))} (max ${ms(Math.max(...warm))}); `
    + `per=200 page 2 median ${ms(median(wide))}; API per=200 median ${ms(median(api))}`)
  assert.ok(median(warm) < 500, `a page of the board answers in well under a second (median ${median(warm).toFixed(1)} ms)`)
  assert.ok(median(api) < 500, `the API's 200 tasks too (median ${median(api).toFixed(1)} ms)`)

  const list = await (await fetch(`${server.url}api/v1/kitchen/tasks?per=200&page=3`)).json()
  assert.deepEqual([list.total, list.page, list.pages, list.tasks.length], [500, 3, 3, 100])
  assert.deepEqual(list.counts, { waiting: 100, cooking: 0, needs_decision: 100, done: 100, failed: 100, closed: 100 })
  assert.ok(list.tasks.slice(-100).every((r) => r.state === 'closed'), 'closed tasks come last')
  const first = await (await fetch(`${server.url}api/v1/kitchen/tasks?per=5`)).json()
  assert.deepEqual(first.tasks.map((r) => r.id), ['api-499', 'api-498', 'api-497', 'api-496', 'api-494'], 'open tasks first, newest first')
  const failed = await (await fetch(`${server.url}api/v1/kitchen/tasks?state=failed&per=200`)).json()
  assert.equal(failed.total, 100)
  assert.ok(failed.tasks.every((r) => r.state === 'failed' && r.detail.startsWith('failed (report): part ')))
  const done = (await (await fetch(`${server.url}api/v1/kitchen/tasks?state=done&per=1`)).json()).tasks[0]
  assert.equal(done.ahead, 1, 'its branch, one commit ahead')
  assert.equal(done.tipSource, 'project')
  const beyond = await (await fetch(`${server.url}api/v1/kitchen/tasks?page=99`)).json()
  assert.equal(beyond.page, 10, 'a page past the end is the last one')
})

test('the first page of the large board at desktop and phone width', { skip: existsSync(CHROMIUM) ? undefined : `no chromium at ${CHROMIUM}` }, async (t) => {
  await mkdir(ARTIFACTS, { recursive: true })
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
  t.after(() => browser.close())
  const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true }
  const sizes = [['desktop', { viewport: { width: 1280, height: 900 } }], ['phone', phone]]
  for (const [name, options] of sizes) {
    const page = await browser.newPage(options)
    await page.goto(`${server.url}kitchen?per=10`)
    await page.waitForFunction(() => document.getElementById('live')?.dataset.state === 'live')
    await page.screenshot({ path: join(ARTIFACTS, `kitchen-scale-${name}.png`), fullPage: true })
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling (${name})`)
    assert.equal(await page.locator('tr.task').count(), 10)
    await page.close()
  }
})
