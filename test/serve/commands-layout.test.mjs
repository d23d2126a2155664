// The repository commands page (/commands) in a real browser, on a generated repository that is hard
// to lay out: a Makefile target with a long name, a pnpm workspace of 12 packages, a justfile, a
// deno.json, a description over 300 characters, and script names and bodies written to break the
// page. At desktop, tablet and phone widths: the page never scrolls sideways, no command, tool name,
// path or description is narrower than its longest word (a command longer than its box scrolls in
// it; commands, tool names and paths never break inside a word), every "defined in" is on screen,
// rows are grouped by folder, copy works by mouse and keyboard, and repository text shows as text.
// Chromium and the offsite-request guard are as in browser.test.mjs; screenshots go to test/artifacts/.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { REPO_ROOT } from '../mcp/support.mjs'
import { tempDir } from '../support/temp.mjs'
import { startServer } from '../../dist/src/serve/server.js'
import { commandsPage } from '../../dist/src/serve/pages.js'

const CHROMIUM = process.env.COMMAND_SCOUT_CHROMIUM ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? undefined : `chromium is not installed at ${CHROMIUM}: run npm test (test/setup/40-chromium.sh installs it)`
const ARTIFACTS = join(REPO_ROOT, 'test/artifacts/serve')
const DESKTOP = { viewport: { width: 1280, height: 900 } }
const TABLET = { viewport: { width: 820, height: 1180 }, isMobile: true, hasTouch: true }
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }

const LONG_TARGET = 'generate-protobuf-bindings-for-all-services-and-clients'
const LONG_DESCRIPTION = 'Regenerates every protobuf binding for all services and their generated clients from the schemas under proto/, then formats '
  + 'the output with the pinned formatter, checks that nothing outside gen/ changed, and refuses to run when the working tree is dirty, because '
  + 'a partial regeneration leaves the clients and the servers speaking different versions of the wire format.'
const EVIL_BODY = '<script>window.pwned = "script"</script><img src="x" onerror="window.pwned = \'img\'"> && echo "<b>bold</b>"'
const ENDLESS_SCRIPT = 'run-the-complete-integration-test-suite-against-every-supported-database-engine-and-version'
const ESC_SCRIPT = 'clear\u001b[2J\u001b]52;c;cm0gLXJmIC8=\u0007'
const BIDI_DOC = 'Deploys the \u202eevil\u202c build'

let browser
const offsite = []

before(async () => {
  if (skip) return
  await mkdir(ARTIFACTS, { recursive: true })
  const { chromium } = await import('playwright-core')
  const args = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args })
})
after(async () => {
  await browser?.close()
})

function write(dir, path, text) {
  mkdirSync(join(dir, path, '..'), { recursive: true })
  writeFileSync(join(dir, path), text)
}

/** The repository the page is tried on; returns its folder. */
function hardRepository(t) {
  const dir = tempDir(t, 'cs-commands-layout-')
  write(dir, 'Makefile', `.PHONY: build ${LONG_TARGET}
## Compile the release bundle
build:
\tcc -o out/app main.c

## ${LONG_DESCRIPTION}
${LONG_TARGET}:
\tprotoc --proto_path=proto --go_out=gen/go --go_opt=paths=source_relative --go-grpc_out=gen/go --go-grpc_opt=paths=source_relative \
--ts_out=gen/ts --ts_opt=long_type_string,output_javascript proto/*.proto && gofmt -w gen/go && prettier --write gen/ts && git diff --exit-code -- . ':!gen'
`)
  write(dir, 'pnpm-workspace.yaml', 'packages:\n  - packages/*\n')
  write(dir, 'package.json', JSON.stringify({
    name: 'root', private: true, packageManager: 'pnpm@9.1.0',
    scripts: { build: 'pnpm -r build', [ENDLESS_SCRIPT]: 'vitest run integration', evil: EVIL_BODY, [ESC_SCRIPT]: 'echo ctl' },
  }))
  for (let i = 1; i <= 12; i++) {
    const n = String(i).padStart(2, '0')
    write(dir, `packages/service-${n}/package.json`, JSON.stringify({
      name: `@acme/service-${n}`,
      scripts: {
        build: 'tsc -p tsconfig.build.json',
        test: 'vitest run --coverage --reporter=verbose',
        lint: 'eslint --max-warnings=0 src test',
        'start:dev': `node --enable-source-maps --watch dist/server.js --port 80${n} --host 0.0.0.0 --log-level=debug --config ./config/development.local.json`,
      },
    }))
  }
  write(dir, 'justfile', `# Lint the sources\nlint:\n    echo lint\n\n# ${LONG_DESCRIPTION}\nrelease-candidate-with-checks version:\n    echo {{version}}\n\n`
    + `# ${BIDI_DOC}\ndeploy:\n    echo deploy\n`)
  const tasks = { serve: 'deno run --allow-net --allow-read=. --allow-env=PORT,HOST main.ts', fmt: { command: 'deno fmt', description: 'Format the code' } }
  write(dir, 'deno.json', JSON.stringify({ tasks }))
  return dir
}

async function serve(t, root) {
  const server = await startServer({ version: 'test', root })
  t.after(() => server.close())
  return server
}

/** A page whose requests may go only to the server; anything else is aborted and recorded. */
async function open(t, server, options) {
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' })
  t.after(() => context.close())
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
  return { context, page, errors, origin }
}

/**
 * In the page: each field measured against its longest word. A word is a run without white space or
 * <wbr>, measured in its own font by a hidden span; the room is the content width of the field's
 * nearest block box. `whole` fields must also show each word on one line (a Range's boxes share a
 * line); a `scrolls` field may hold a wider word if it scrolls sideways to show it.
 */
function measureFields(kinds) {
  const probe = document.createElement('span')
  probe.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;white-space:pre'
  document.body.append(probe)
  const wordsOf = (root) => {
    const words = []
    let word = null
    const end = () => { if (word) words.push(word); word = null }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.ELEMENT_NODE) { if (node.tagName === 'WBR' || node.tagName === 'BR') end(); continue }
      for (let i = 0; i < node.data.length; i++) {
        if (/\s/.test(node.data[i])) { end(); continue }
        if (!word) word = { text: '', font: node.parentElement, startNode: node, start: i }
        word.text += node.data[i]
        word.endNode = node
        word.end = i + 1
      }
    }
    end()
    return words
  }
  const widthOf = (word) => {
    const style = getComputedStyle(word.font)
    probe.style.font = style.font
    probe.style.letterSpacing = style.letterSpacing
    probe.textContent = word.text
    return probe.getBoundingClientRect().width
  }
  const oneLine = (word) => {
    const range = document.createRange()
    range.setStart(word.startNode, word.start)
    range.setEnd(word.endNode, word.end)
    const rects = [...range.getClientRects()].filter((r) => r.width > 0)
    return Math.max(...rects.map((r) => r.top)) < Math.min(...rects.map((r) => r.bottom))
  }
  const roomOf = (el) => {
    let box = el
    while (getComputedStyle(box).display.startsWith('inline')) box = box.parentElement
    const style = getComputedStyle(box)
    return { box, room: box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) }
  }
  const out = []
  for (const [kind, { selector, whole, scrolls }] of Object.entries(kinds)) {
    for (const el of document.querySelectorAll(selector)) {
      const { box, room } = roomOf(el)
      let longest = { text: '', width: 0 }
      const broken = []
      for (const word of wordsOf(el)) {
        const width = widthOf(word)
        if (width > longest.width) longest = { text: word.text, width }
        if (whole && !oneLine(word)) broken.push(word.text)
      }
      const overflowX = getComputedStyle(box).overflowX
      const scrolling = scrolls && (overflowX === 'auto' || overflowX === 'scroll') && box.scrollWidth > box.clientWidth
      const round = (n) => Math.round(n * 10) / 10
      out.push({ kind, text: el.textContent, room: round(room), longest: longest.text, longestWidth: round(longest.width), broken, scrolling })
    }
  }
  probe.remove()
  return out
}

const FIELDS = {
  command: { selector: '#commands .cmd pre', whole: true, scrolls: true },
  tool: { selector: '#commands .tool code', whole: true },
  where: { selector: '#commands .c-where code', whole: true },
  description: { selector: '#commands td.c-desc' },
}

/** The layout rules that hold at every width; returns the measurements for the caller's own checks. */
async function checkLayout(page, label) {
  const page_ = await page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth }))
  assert.ok(page_.scrollWidth <= page_.clientWidth, `${label}: the page does not scroll sideways (${page_.scrollWidth} > ${page_.clientWidth})`)
  const fields = await page.evaluate(measureFields, FIELDS)
  assert.ok(fields.filter((f) => f.kind === 'command').length > 50, `${label}: the commands are measured (${fields.length} fields)`)
  for (const f of fields) {
    assert.deepEqual(f.broken, [], `${label}: the ${f.kind} ${JSON.stringify(f.text)} is not broken inside a word`)
    assert.ok(f.longestWidth <= f.room + 0.5 || f.scrolling,
      `${label}: the ${f.kind} ${JSON.stringify(f.text)} has room for its longest word ${JSON.stringify(f.longest)} (${f.longestWidth}px in ${f.room}px)`)
  }
  const where = await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth
    const wrap = document.querySelector('.table-wrap').getBoundingClientRect()
    return [...document.querySelectorAll('#commands tbody tr:not(.group)')].map((row) => {
      const code = row.querySelector('.c-where code')
      code.scrollIntoView({ block: 'center', inline: 'nearest' })
      const range = document.createRange()
      range.selectNodeContents(code)
      const rects = [...range.getClientRects()].filter((r) => r.width > 0)
      const left = Math.min(...rects.map((r) => r.left))
      const right = Math.max(...rects.map((r) => r.right))
      const last = rects.at(-1)
      const hit = document.elementFromPoint(last.left + last.width / 2, last.top + last.height / 2)
      return { text: code.textContent, left, right, viewport, wrapRight: wrap.right, seen: code.contains(hit) }
    })
  })
  for (const w of where) {
    assert.ok(w.left >= 0 && w.right <= w.viewport && w.right <= w.wrapRight + 0.5,
      `${label}: "${w.text}" is within the screen (${Math.round(w.left)}..${Math.round(w.right)} of ${w.viewport})`)
    assert.ok(w.seen, `${label}: "${w.text}" is what shows at its place`)
  }
  return fields
}

/** Rows grouped by folder as the API lists the commands: every command once, under its folder's heading. */
async function checkGroups(page, server) {
  const report = await (await fetch(new URL('/api/v1/commands', server.url))).json()
  const groups = await page.evaluate(() => [...document.querySelectorAll('#commands tbody')].map((body) => ({
    folder: body.querySelector('tr.group .folder')?.textContent,
    id: body.querySelector('tr.group th')?.id,
    commands: [...body.querySelectorAll('tr:not(.group)')].map((row) => ({
      command: row.querySelector('.cmd code').textContent,
      where: row.querySelector('.c-where').textContent,
    })),
  })))
  const folders = [...new Set(report.recipes.map((r) => r.cwd))]
  assert.equal(folders.length, 13, 'the root and 12 packages')
  assert.deepEqual(groups.map((g) => g.folder), folders.map((f) => (f === '.' ? 'Repository root' : f)))
  for (const [i, folder] of folders.entries()) {
    const wanted = report.recipes.filter((r) => r.cwd === folder)
    assert.equal(groups[i].commands.length, wanted.length, `${folder}: every command once`)
    for (const c of groups[i].commands) assert.ok(folder === '.' || c.where.startsWith(`${folder}/`), `${c.command} in ${folder} is defined there (${c.where})`)
  }
  const links = await page.locator('nav.folders a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
  assert.deepEqual(links, groups.map((g) => `#${g.id}`), 'the folder links lead to the folder headings')
  return { report, groups }
}

/** The page's text as the repository wrote it, with nothing from it run or turned into markup. */
async function checkEscaping(page) {
  const seen = await page.evaluate(() => ({
    scripts: [...document.scripts].map((s) => s.getAttribute('src')),
    markup: document.querySelectorAll('#commands img, #commands b, #commands script').length,
    pwned: window.pwned ?? null,
    descriptions: [...document.querySelectorAll('#commands td.c-desc')].map((d) => d.textContent),
    commands: [...document.querySelectorAll('#commands .cmd code')].map((c) => c.textContent),
    // eslint-disable-next-line no-control-regex
    controls: /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(document.body.textContent),
  }))
  assert.deepEqual(seen.scripts, ['/assets/app.js'], 'the only script is the page\'s own')
  assert.equal(seen.markup, 0, 'no element made from repository text')
  assert.equal(seen.pwned, null, 'nothing from the repository ran')
  assert.ok(seen.descriptions.includes(EVIL_BODY), 'the script body shows as written')
  assert.ok(seen.descriptions.includes('Deploys the \\u202eevil\\u202c build'), 'bidi controls show escaped')
  const clear = seen.commands.filter((c) => c.includes('clear'))
  assert.ok(clear.some((c) => c.includes('clear\\x1b') && c.includes('\\x07')), `control characters in a command show escaped (${clear.join(', ')})`)
  assert.equal(seen.controls, false, 'no control or bidi character reaches the page text')
}

async function copyWorks(page, context, origin, row) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const command = await row.locator('.cmd code').textContent()
  await row.locator('button.copy').click()
  await page.waitForFunction((el) => el.textContent === 'Copied', await row.locator('button.copy').elementHandle())
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command)
  return command
}

test('desktop: one wide table, a row group per folder, every field as wide as its longest word, copy by mouse and keyboard', { skip }, async (t) => {
  const server = await serve(t, hardRepository(t))
  const { context, page, errors, origin } = await open(t, server, DESKTOP)
  await page.goto(`${server.url}commands`)
  const layout = await page.evaluate(() => ({
    main: document.querySelector('main').getBoundingClientRect().width,
    table: document.querySelector('#commands').getBoundingClientRect().width,
    headers: [...document.querySelectorAll('#commands thead th')].map((th) => getComputedStyle(th).display),
  }))
  assert.ok(layout.main > 52 * 16, `the commands page has a wider column than the recipe pages (${layout.main}px)`)
  assert.ok(layout.table <= layout.main, `the table fits its column (${layout.table} in ${layout.main})`)
  assert.ok(layout.headers.every((d) => d === 'table-cell'), 'a real table with visible column headers at desktop width')
  const fields = await checkLayout(page, 'desktop')
  // A command box is at most 32rem wide, so one word longer than that scrolls in it rather than widening the table.
  assert.deepEqual(fields.filter((f) => f.scrolling).map((f) => f.text), [`pnpm run ${ENDLESS_SCRIPT}`], 'at desktop width only the endless word scrolls')
  const long = fields.find((f) => f.kind === 'command' && f.text === `make ${LONG_TARGET}`)
  assert.ok(long && long.room >= long.longestWidth, `the long target's command box holds its name (${long?.room}px)`)
  await checkGroups(page, server)
  await checkEscaping(page)
  await page.screenshot({ path: join(ARTIFACTS, 'commands-desktop.png'), fullPage: true })

  const row = page.locator('#commands tbody tr:not(.group)').filter({ has: page.locator('.cmd code', { hasText: new RegExp(`^make ${LONG_TARGET}$`) }) })
  assert.equal(await copyWorks(page, context, origin, row), `make ${LONG_TARGET}`, 'the copied command is the command, whole')

  // Keyboard: Tab from the last folder link reaches the first copy button; Enter copies.
  await page.locator('nav.folders a').last().focus()
  await page.keyboard.press('Tab')
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Copy command')
  const first = await page.locator('#commands .cmd code').first().textContent()
  await page.keyboard.press('Enter')
  await page.waitForFunction(() => document.activeElement.textContent === 'Copied')
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), first)

  // A folder link scrolls its heading into view.
  await page.locator('nav.folders a', { hasText: 'packages/service-07' }).click()
  await page.waitForFunction(() => location.hash !== '')
  const target = await page.evaluate(() => {
    const th = document.querySelector(location.hash)
    return { text: th.textContent, top: th.getBoundingClientRect().top, height: innerHeight }
  })
  assert.match(target.text, /^packages\/service-07 4 commands$/)
  assert.ok(target.top >= 0 && target.top < target.height, `the heading is on screen (${target.top})`)
  assert.deepEqual(errors, [])
})

test('tablet and phone: each command is a card with labelled fields, nothing wider than the screen, copy by touch', { skip }, async (t) => {
  const server = await serve(t, hardRepository(t))
  for (const [label, options] of [['tablet', TABLET], ['phone', PHONE]]) {
    const { context, page, errors, origin } = await open(t, server, options)
    await page.goto(`${server.url}commands`)
    const cards = await page.evaluate(() => {
      const row = document.querySelector('#commands tbody tr:not(.group)')
      const where = row.querySelector('.c-where')
      const head = document.querySelector('#commands thead').getBoundingClientRect().height
      return { row: getComputedStyle(row).display, label: getComputedStyle(where, '::before').content, head }
    })
    assert.equal(cards.row, 'block', `${label}: a row shows as a card`)
    assert.equal(cards.label, '"Defined in"', `${label}: a card labels its fields`)
    assert.ok(cards.head <= 1, `${label}: the column headers are left to screen readers (${cards.head}px)`)
    const fields = await checkLayout(page, label)
    for (const f of fields.filter((x) => x.scrolling)) assert.equal(f.kind, 'command', `${label}: only a command scrolls in its box (${f.text})`)
    await checkEscaping(page)
    await page.screenshot({ path: join(ARTIFACTS, `commands-${label}.png`), fullPage: true })
    const row = page.locator('#commands tbody tr:not(.group)').nth(3)
    await copyWorks(page, context, origin, row)
    assert.deepEqual(errors, [])
  }
})

test('in-between widths, either side of the switch to cards: no sideways scrolling, every field holds its longest word', { skip }, async (t) => {
  const server = await serve(t, hardRepository(t))
  for (const width of [320, 600, 1024, 1216, 1217, 1440]) {
    const { page } = await open(t, server, { viewport: { width, height: 900 } })
    await page.goto(`${server.url}commands`)
    await checkLayout(page, `${width}px`)
  }
})

test('the table keeps its semantics in the card layout: rows, cells and column headers in the accessibility tree', { skip }, async (t) => {
  const server = await serve(t, hardRepository(t))
  const { context, page } = await open(t, server, PHONE)
  await page.goto(`${server.url}commands`)
  const cdp = await context.newCDPSession(page)
  const { nodes } = await cdp.send('Accessibility.getFullAXTree')
  const count = (role) => nodes.filter((n) => !n.ignored && n.role?.value === role).length
  const rows = await page.locator('#commands tr').count()
  assert.equal(count('table'), 1)
  assert.equal(count('row'), rows, 'every row is a row')
  assert.equal(count('columnheader'), 4)
  assert.equal(count('rowheader'), 13, 'a header per folder')
  assert.ok(count('cell') >= (rows - 14) * 4, `every field is a cell (${count('cell')})`)
})

test('hostile report text shows as text: control characters escaped, markup inert, in every field', { skip }, async (t) => {
  const server = await serve(t, hardRepository(t))
  const { page, origin } = await open(t, server, PHONE)
  const tool = 'make_\u001b[31mred\u202e<img src=x onerror="window.pwned=1">'
  const recipe = { prerequisites: [], variables: [] }
  const html = commandsPage({
    root: '<i>root</i>\u001b[2J',
    recipes: [
      {
        ...recipe, id: 'a', tool, source: '<b>make</b>', name: 'a', command: 'make </code></pre><script>window.pwned=2</script>',
        cwd: '"><script>window.pwned=3</script>', description: '<script>window.pwned=4</script>\u0007', file: 'Make\u0007file', line: 3,
      },
      { ...recipe, id: 'b', tool: 'just_b', source: 'just', name: 'b', command: 'just b', cwd: '.', description: '', file: 'justfile', line: null },
    ],
    diagnostics: [{ source: 'make', file: 'x', line: null, message: '<script>window.pwned=5</script>\u001b[31m', severity: 'warning' }],
    detectedFiles: [],
  })
  // Served as a page of the server's own origin, without the CSP, so escaping is all that stands.
  await page.route(`${origin}/hostile`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }))
  await page.goto(`${origin}/hostile`)
  const seen = await page.evaluate(() => ({
    scripts: document.scripts.length,
    pwned: window.pwned ?? null,
    tool: document.querySelector('#commands .tool code').textContent,
    runner: document.querySelector('#commands .c-runner').textContent,
    command: document.querySelector('#commands .cmd code').textContent,
    folder: document.querySelector('#commands tr.group .folder').textContent,
    description: document.querySelector('#commands .c-desc').textContent,
    where: document.querySelector('#commands .c-where').textContent,
    root: document.querySelector('.root').textContent,
    diagnostic: document.querySelector('.diagnostics li').textContent,
  }))
  assert.equal(seen.scripts, 1)
  assert.equal(seen.pwned, null)
  assert.equal(seen.tool, 'make_\\x1b[31mred\\u202e<img src=x onerror="window.pwned=1">')
  assert.equal(seen.runner, '<b>make</b>')
  assert.equal(seen.command, 'make </code></pre><script>window.pwned=2</script>')
  assert.equal(seen.folder, '"><script>window.pwned=3</script>')
  assert.equal(seen.description, '<script>window.pwned=4</script>\\x07')
  assert.equal(seen.where, 'Make\\x07file:3')
  assert.equal(seen.root, '<i>root</i>\\x1b[2J')
  assert.equal(seen.diagnostic, 'x (warning): <script>window.pwned=5</script>\\x1b[31m')
})

test('no commands page asked for anything outside the server', { skip }, () => {
  assert.deepEqual(offsite, [])
})
