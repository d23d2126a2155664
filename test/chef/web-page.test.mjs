// `/chef on` typed into a fresh session of the real `dsh web` page, in a real browser (Debian's
// chromium, headless, driven by playwright-core): the page shows the answer at once, before any
// prompt. dsh's page keeps a session with no turn blank, and a command's answer alone does not open
// it; the kitchen's notice does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable } from '../e2e/harness.mjs'
import { chefWorld, waitFor } from './support.mjs'

const CHROMIUM = process.env.COMMAND_SCOUT_CHROMIUM ?? '/usr/bin/chromium'
const noChromium = existsSync(CHROMIUM) ? undefined : `chromium is not installed at ${CHROMIUM}: run npm test (test/setup/40-chromium.sh installs it)`
const skip = dshAvailable() ?? noChromium
const ARTIFACTS = join(REPO_ROOT, 'test/artifacts/chef')
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync']

test('/chef on in a fresh web session is answered on the page at once', { skip, timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t, { chefOn: false })
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS })
  t.after(() => browser.close())
  const page = await browser.newPage()
  // the page loads and answers on a busy machine too: each step waits for its element, up to this
  page.setDefaultTimeout(120_000)
  await page.goto(`http://127.0.0.1:${w.web.port}/`)
  await page.getByRole('button', { name: 'Continue' }).click()
  const shown = async (error) => {
    await mkdir(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'chef-on.png') })
    return new Error(`${error.message}\nthe page shows:\n${await page.innerText('body')}`)
  }
  try {
    // A fresh session: the composer asks for its workspace first (the home directory is fine).
    const composer = page.locator('[contenteditable="true"], textarea').first()
    await composer.click()
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    // the session exists once the sidebar lists it under its workspace (beside the New Session button)
    await page.getByText('New Session', { exact: true }).nth(1).waitFor()
    await composer.click()
    await page.keyboard.type('/chef on')
    const typed = () => page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.value ?? '')
    await waitFor(async () => (await typed()).includes('/chef on'), 'the command in the composer', 60_000)
    await page.keyboard.press('Enter')
    // The command ran when the kitchen has its owner's lease; then the page shows its answer.
    await waitFor(() => existsSync(join(w.kitchen, 'lease')) && readdirSync(join(w.kitchen, 'lease')).length > 0, '/chef on to open the kitchen', 120_000)
    await page.getByText(/Chef mode on: you own the kitchen at /).first().waitFor()
  } catch (error) {
    throw await shown(error)
  }
  // Nothing was prompted: the model was never asked.
  assert.equal(w.chefRoute.requests.length, 0)
  assert.equal(w.model.default.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes('Chef mode on')).length, 0)
})

test('the answer of /chef on in a session with no turn yet is in the session as a kitchen notice the chef reads', { skip: dshAvailable(), timeout: 300_000 }, async (t) => {
  const w = await chefWorld(t)
  const history = await w.web.call('session.history', { sessionId: w.sessionId })
  const events = history.events.map((e) => e.event ?? e)
  const notice = events.find((e) => e.type === 'user/message' && e.data.source?.kind === 'plugin' && e.data.source.plugin === 'command-scout-kitchen')
  assert.ok(notice, `a kitchen notice in ${JSON.stringify(events.map((e) => e.type))}`)
  assert.equal(notice.data.source.form, 'notice')
  assert.match(JSON.stringify(notice.data.content), /Chef mode on: you own the kitchen at /)
  const done = events.find((e) => e.type === 'command/done' && e.data.kind === 'success')
  assert.equal(done.data.sourceEventSeq, notice.seq, 'the command\'s answer points at the notice')
  // The chef's first request reads it as context, and its tools are there.
  const [first] = await w.say([])
  assert.match(JSON.stringify(first.body.messages), /Chef mode on: you own the kitchen/)
  // A second /chef on in the same session (now with a turn) adds no second notice.
  await w.web.command(w.sessionId, '/chef on')
  const again = (await w.web.call('session.history', { sessionId: w.sessionId })).events.map((e) => e.event ?? e)
  assert.equal(again.filter((e) => e.type === 'user/message' && e.data.source?.plugin === 'command-scout-kitchen').length, 1)
})
