// The kitchen board in a real browser: Debian's chromium driven headless by playwright-core, every
// request off the server refused and recorded. A kitchen made by the kitchen's own code dispatches a
// task to the fake cook while the board is open: the task appears without a reload, its run's
// entries arrive as the cook writes them (a message sent to it, the commit it makes), the task page
// follows the same run and shows the diff of the cook's commit when it lands, and the commands copy.
// Hostile titles, briefs and messages stay text. Screenshots at 1280 and 390 wide go to
// test/artifacts/serve/kitchen-*.png (ignored by git).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../mcp/support.mjs'
import { until } from '../kitchen/support.mjs'
import { kitchenWorld, makeRepo } from './kitchen-support.mjs'

const CHROMIUM = process.env.COMMAND_SCOUT_CHROMIUM ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? undefined : `chromium is not installed at ${CHROMIUM}: run npm test (test/setup/40-chromium.sh installs it)`
const ARTIFACTS = join(REPO_ROOT, 'test/artifacts/serve')
const TITLE = 'Add the feature <img src=x onerror="window.__pwned=1"> \u202eevil'
const BRIEF = 'Write feature.txt <script>window.__pwned=1</script> \x1b[31mred\x1b[0m\n@fake: tool=read_the_code steer=60000 commit=feature.txt hang'

let world
let browser
const offsite = []
const hooks = []

before(async () => {
  if (skip) return
  await mkdir(ARTIFACTS, { recursive: true })
  world = await kitchenWorld({ after: (f) => hooks.push(f) }, { prefix: 'serve-kitchen-browser-' })
  const repo = makeRepo(world.repos, 'web')
  await world.kitchen.addProject({ path: repo, branchPrefix: `it's"/` })
  const { chromium } = await import('playwright-core')
  const args = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args })
})
after(async () => {
  await browser?.close()
  for (const f of hooks.reverse()) await f()
})

async function open(options = {}) {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' })
  const origin = new URL(world.url).origin
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue()
    offsite.push(url)
    return route.abort()
  })
  const errors = []
  const page = await context.newPage()
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text()) })
  return { context, page, errors }
}

/** Waits until the page is connected to the event stream. */
const live = (page) => page.waitForFunction(() => document.getElementById('live')?.dataset.state === 'live')
const rowText = (page, id) => page.locator(`#task-${id}`).innerText()

const LIVE = 'desktop: a task appears live, its entries and its commit arrive live, the task page shows the diff when it lands; commands copy'
test(LIVE, { skip, timeout: 120_000 }, async (t) => {
  const { context, page, errors } = await open({ viewport: { width: 1280, height: 900 } })
  t.after(() => context.close())
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(world.url).origin })

  await page.goto(`${world.url}kitchen`)
  await live(page)
  assert.equal(await page.locator('#empty').isVisible(), true, 'an empty kitchen says so')
  await page.screenshot({ path: join(ARTIFACTS, 'kitchen-empty-desktop.png'), fullPage: true })
  await page.evaluate(() => { window.__stay = 'the same page' })

  await world.kitchen.dispatch({ project: 'web', title: TITLE, brief: BRIEF })
  await page.locator('#task-web-1').waitFor()
  assert.equal(await page.locator('#empty').isVisible(), false)
  await page.waitForFunction(() => document.querySelector('#task-web-1 .entries')?.innerText.includes('waiting for a steer'))
  assert.equal(await page.locator('#task-web-1 .state-badge').innerText(), 'Cooking')
  assert.equal(await page.locator('[data-count="cooking"]').innerText(), '1', 'the state counts follow')
  const title = /Add the feature <img src=x onerror="window\.__pwned=1"> \\u202eevil/
  assert.match(await rowText(page, 'web-1'), title, 'the title is text, its bidi override shown')

  // the task page, opened while the cook waits: its run and an empty diff, then both change live
  const task = await context.newPage()
  task.on('pageerror', (e) => errors.push(e.message))
  await task.goto(`${world.url}kitchen/tasks/web-1`)
  await live(task)
  await task.evaluate(() => { window.__stay = 'the same page' })
  assert.match(await task.locator('#diff').innerText(), /No changes against the base/)
  assert.match(await task.locator('pre.brief').innerText(), /^Write feature\.txt <script>window\.__pwned=1<\/script> \\x1b\[31mred\\x1b\[0m/)
  assert.equal(await task.locator('pre.brief .ctl').count(), 2, 'both escape characters are marked')

  await world.kitchen.send('web-1', 'use the <b>fast</b> path')
  await page.waitForFunction(() => document.querySelector('#task-web-1 .entries')?.innerText.includes('message: use the <b>fast</b> path'))
  await page.waitForFunction(() => /1 commit ahead of main/.test(document.querySelector('#task-web-1 .ahead')?.textContent ?? ''))
  await task.waitForFunction(() => document.querySelector('.run-entries[data-run="1"]')?.innerText.includes('message: use the <b>fast</b> path'))
  await task.waitForFunction(() => document.querySelector('#diff .diff-file') !== null)
  assert.equal(await task.locator('.messages .message-delivered pre').innerText(), 'use the <b>fast</b> path', 'the message shows as delivered')
  const added = await task.locator('#diff tr.add td.code').allInnerTexts()
  assert.ok(added.some((l) => /^feature\.txt from run of [0-9a-f-]+$/.test(l)), `the cook's line is in the diff: ${added.join(' | ')}`)
  assert.match(await task.locator('#diff .diff-name').first().innerText(), /added\s+feature\.txt\s+\+1 −0/i)
  assert.equal(await task.locator('[data-field="ahead"]').innerText(), '1 commit ahead of main')
  assert.equal(await task.locator('[data-field="tipSource"]').innerText(), "in the cook's clone")
  assert.equal(await page.evaluate(() => window.__stay), 'the same page', 'the board never reloaded')
  assert.equal(await task.evaluate(() => window.__stay), 'the same page', 'the task page never reloaded')
  assert.equal(await page.evaluate(() => window.__pwned), undefined)
  assert.equal(await task.evaluate(() => window.__pwned), undefined)
  await page.screenshot({ path: join(ARTIFACTS, 'kitchen-board-desktop.png'), fullPage: true })
  await task.screenshot({ path: join(ARTIFACTS, 'kitchen-task-desktop.png'), fullPage: true })

  // the chef's commands copy as they are shown
  await task.locator('button.copy[aria-label="Copy: stop"]').click()
  await task.waitForFunction(() => document.querySelector('button.copy[aria-label="Copy: stop"]').textContent === 'Copied')
  assert.equal(await task.evaluate(() => navigator.clipboard.readText()), '/chef stop web-1')
  await page.locator('#task-web-1 details.actions summary').click()
  await page.locator('#task-web-1 button.copy[aria-label="Copy: /chef send web-1"]').click()
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '/chef send web-1 <message>')

  // the chef stops it: the row says so live, and keeps its open command list
  await world.kitchen.stop('web-1')
  await page.waitForFunction(() => document.querySelector('#task-web-1')?.dataset.state === 'waiting')
  assert.match(await page.locator('#task-web-1 .detail').innerText(), /stopped/)
  assert.equal(await page.locator('#task-web-1 details.actions').getAttribute('open'), '')
  await task.waitForFunction(() => document.querySelector('.summary [data-field="state"]').textContent === 'Waiting')
  assert.deepEqual(errors, [])
  assert.deepEqual(offsite, [])
})

test('phone width: the board and the task page fit the screen; the diff scrolls in its box', { skip, timeout: 60_000 }, async (t) => {
  await world.kitchen.stop('web-1') // stopped already when the first test got that far
  await until(async () => (await (await fetch(`${world.url}api/v1/kitchen/tasks/web-1`)).json()).task?.live === false, 'the stopped cook gone', 20_000)
  const { context, page, errors } = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  t.after(() => context.close())
  await page.goto(`${world.url}kitchen`)
  await live(page)
  await page.locator('#task-web-1 details.actions summary').click()
  await page.screenshot({ path: join(ARTIFACTS, 'kitchen-board-phone.png'), fullPage: true })
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on the board')
  await page.goto(`${world.url}kitchen/tasks/web-1`)
  await page.locator('#diff .diff-file').waitFor()
  await page.screenshot({ path: join(ARTIFACTS, 'kitchen-task-phone.png'), fullPage: true })
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on the task page')
  assert.deepEqual(errors, [])
  assert.deepEqual(offsite, [])
})
