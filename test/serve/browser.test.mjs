// The recipe pages in a real browser: Debian's chromium (test/setup/40-chromium.sh) driven headless by
// playwright-core, with every request off this server refused and recorded. Index, search, filter, a
// recipe, a parameter that re-renders, an invalid value, the platform switch, copy, keyboard use, and
// a phone-width layout. Screenshots go to test/artifacts/ (ignored by git).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../mcp/support.mjs'
import { startServer } from '../../dist/src/serve/server.js'

const CHROMIUM = process.env.COMMAND_SCOUT_CHROMIUM ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? undefined : `chromium is not installed at ${CHROMIUM}: run npm test (test/setup/40-chromium.sh installs it)`
const ARTIFACTS = join(REPO_ROOT, 'test/artifacts/serve')
const RECIPE = 'network.find_process_on_port'

let server
let browser
const offsite = []

before(async () => {
  if (skip) return
  await mkdir(ARTIFACTS, { recursive: true })
  server = await startServer({ version: 'test', root: join(REPO_ROOT, 'test/fixtures/mixed') })
  const { chromium } = await import('playwright-core')
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
})
after(async () => {
  await browser?.close()
  await server?.close()
})

/** A page whose requests may go only to the server; anything else is aborted and recorded. */
async function open(options = {}) {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' })
  const origin = new URL(server.url).origin
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue()
    offsite.push(url)
    return route.abort()
  })
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) errors.push(m.text()) })
  return { context, page, errors }
}

const stepsText = (page) => page.locator('#steps').innerText()

test('desktop: search, filter, open a recipe, render live, refuse an invalid value, switch platform, copy', { skip }, async (t) => {
  const { context, page, errors } = await open({ viewport: { width: 1280, height: 900 } })
  t.after(() => context.close())
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin })

  await page.goto(server.url)
  await assert.doesNotReject(page.locator('#results li.result').first().waitFor())
  const total = await page.locator('#results li.result').count()
  assert.ok(total > 20, `the index lists the library (${total})`)
  await page.screenshot({ path: join(ARTIFACTS, 'index-desktop.png'), fullPage: true })

  // Search by keyboard: the search box is reachable with Tab and submits with Enter.
  await page.keyboard.press('Tab')
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip', 'the first Tab reaches the skip link')
  for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement.id)) !== 'q'; i++) await page.keyboard.press('Tab')
  assert.equal(await page.evaluate(() => document.activeElement.id), 'q', 'the search box is reachable by Tab')
  await page.keyboard.type('port')
  await Promise.all([page.waitForURL(/\?q=port/), page.keyboard.press('Enter')])
  const found = await page.locator('#results li.result a').allInnerTexts()
  assert.ok(found.length > 0 && found.length < total, `search narrows the list (${found.length})`)
  assert.ok(await page.locator(`#results a[href="/recipes/${RECIPE}"]`).count(), 'the port recipe is found')

  // A filter applies as soon as it changes.
  await Promise.all([page.waitForURL(/risk=read_only/), page.selectOption('#risk', 'read_only')])
  const badges = await page.locator('#results li.result .badge').allInnerTexts()
  assert.ok(badges.length > 0 && badges.every((b) => b === 'Read-only'), `only read-only recipes (${badges.join(', ')})`)
  assert.equal(await page.inputValue('#q'), 'port', 'the words stay while filtering')
  await Promise.all([page.waitForURL(/category=network/), page.selectOption('#category', 'network')])
  await Promise.all([page.waitForURL(/risk=&|risk=$/), page.selectOption('#risk', '')])
  const network = await page.locator('#results li.result .meta').allInnerTexts()
  assert.ok(network.length > 0 && network.every((m) => / · network/.test(m)), 'only network recipes')

  // Open the recipe: badge, description, parameter form, steps for this platform.
  await Promise.all([page.waitForURL(new RegExp(`/recipes/${RECIPE.replace('.', '\\.')}`)), page.click(`#results a[href="/recipes/${RECIPE}"]`)])
  assert.equal(await page.locator('article .meta .badge').innerText(), 'Read-only')
  assert.equal(await page.locator('button.platform[aria-pressed="true"]').innerText(), 'Linux', 'the visitor platform (Linux) is chosen')
  assert.match(await stepsText(page), /3000/)

  await page.fill('#param-port', '5432')
  await page.waitForFunction(() => document.querySelector('#steps').innerText.includes('5432'))
  assert.doesNotMatch(await stepsText(page), /3000/)

  await page.fill('#param-port', 'abc')
  await page.locator('#render-error').waitFor({ state: 'visible' })
  assert.match(await page.locator('#render-error').innerText(), /check the parameter "port"/)
  assert.equal(await page.getAttribute('#param-port', 'aria-invalid'), 'true')
  assert.match(await page.locator('#param-port-error').innerText(), /parameter `port` .* must be a port number, 1 to 5 digits \(got "abc"/)
  assert.match(await stepsText(page), /5432/, 'the last valid render stays, marked stale')
  await page.screenshot({ path: join(ARTIFACTS, 'recipe-invalid-desktop.png'), fullPage: true })

  await page.fill('#param-port', '8080')
  await page.locator('#render-error').waitFor({ state: 'hidden' })
  assert.equal(await page.getAttribute('#param-port', 'aria-invalid'), null)
  const linux = await stepsText(page)
  assert.match(linux, /8080/)

  await page.click('button.platform[data-platform="macos"]')
  await page.waitForFunction((before) => document.querySelector('#steps').innerText !== before, linux)
  assert.equal(await page.getAttribute('button.platform[data-platform="macos"]', 'aria-pressed'), 'true')
  assert.match(page.url(), /platform=macos/)
  assert.match(await stepsText(page), /8080/, 'the parameter carries over to the other platform')

  const first = page.locator('#steps .cmd').first()
  const command = await first.locator('code').innerText()
  await first.locator('button.copy').click()
  await page.waitForFunction(() => document.querySelector('#steps .cmd button.copy').textContent === 'Copied')
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command)
  await page.screenshot({ path: join(ARTIFACTS, 'recipe-desktop.png'), fullPage: true })

  // Reloading keeps the chosen platform (it is in the URL).
  await page.reload()
  assert.equal(await page.getAttribute('button.platform[data-platform="macos"]', 'aria-pressed'), 'true')
  assert.deepEqual(errors, [])
})

test('a destructive recipe shows its badge and the confirmation notice; related recipes are links', { skip }, async (t) => {
  const { context, page, errors } = await open({ viewport: { width: 1280, height: 900 } })
  t.after(() => context.close())
  await page.goto(`${server.url}?risk=destructive`)
  const href = await page.locator('#results li.result a').first().getAttribute('href')
  await page.goto(new URL(href, server.url).href)
  assert.equal(await page.locator('article .meta .badge').innerText(), 'Destructive')
  assert.match(await page.locator('.notice').innerText(), /Asks for confirmation\..*deletes or overwrites data/s)
  for (const link of await page.locator('[aria-labelledby="h-related"] a').all()) {
    assert.equal((await context.request.get(new URL(await link.getAttribute('href'), server.url).href)).status(), 200)
  }
  assert.deepEqual(errors, [])
})

test('phone width: the recipe page fits the screen and the controls stay usable', { skip }, async (t) => {
  const { context, page, errors } = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  t.after(() => context.close())
  await page.goto(server.url)
  await page.screenshot({ path: join(ARTIFACTS, 'index-phone.png'), fullPage: true })
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on the index')
  await page.goto(`${server.url}recipes/${RECIPE}`)
  await page.fill('#param-port', '9000')
  await page.waitForFunction(() => document.querySelector('#steps').innerText.includes('9000'))
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on the recipe page')
  const box = await page.locator('button.platform[data-platform="macos"]').boundingBox()
  assert.ok(box.height >= 36, `platform buttons are big enough to tap (${box.height}px)`)
  await page.screenshot({ path: join(ARTIFACTS, 'recipe-phone.png'), fullPage: true })
  await page.goto(`${server.url}commands`)
  assert.ok(await page.locator('#commands tbody tr').count() > 0, 'the commands page lists the repository commands')
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on the commands page')
  assert.deepEqual(errors, [])
})

test('no page asked for anything outside the server', { skip }, () => {
  assert.deepEqual(offsite, [])
})
