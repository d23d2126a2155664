// The kitchen board's API on a real server over a real kitchen: tasks dispatched by the kitchen's own
// code to the fake cook, which commits in its clone of a real git repository. Every JSON answer is
// checked against the served OpenAPI document; the diff is git's text; the event stream brings a new
// task, its run's entries as its run file grows, and its end; bad ids and parameters are refused
// with what is wrong; and a session of requests leaves the kitchen's files as they were.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { REPO_ROOT, alive, waitUntil } from '../mcp/support.mjs'
import { ownerKitchen, settled, until } from '../kitchen/support.mjs'
import { startServer } from '../../dist/src/serve/server.js'
import { defaultKitchenDir, kitchenRoutes } from '../../dist/src/serve/kitchen/index.js'
import { diskState, kitchenWorld, makeRepo, openEvents } from './kitchen-support.mjs'

const require = createRequire(import.meta.url)
const Ajv2020 = require('ajv/dist/2020.js').default

const PREFIX = `q"<i>'s/`
// a file whose lines hold markup, a bidi override and a terminal escape, committed by the cook
const HOSTILE_FILE = "printf '<script>alert(1)</script>\\n\\342\\200\\256 reversed\\n\\033[31mred\\033[0m\\n' > hostile.html"
  + " && git add hostile.html && git commit -q -m 'hostile <b>file</b>'"
const HOSTILE_BRIEF = 'Add the feature <b>now</b> \x1b[31mred\x1b[0m \u202eevil\n'
  + `@fake: sh=${Buffer.from(HOSTILE_FILE).toString('base64')} tool=npm_test commit=feature.txt done=added_<script>`

let world
let repo
let doc
let ajv
const checked = new Set()
const hooks = []

before(async () => {
  world = await kitchenWorld({ after: (f) => hooks.push(f) }, { prefix: 'serve-kitchen-api-' })
  repo = makeRepo(world.repos, 'api')
  await world.kitchen.addProject({ path: repo, branchPrefix: PREFIX })
  doc = await (await fetch(`${world.url}api/v1/openapi.json`)).json()
  ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema({ $id: 'doc', components: doc.components })
})
after(async () => {
  for (const f of hooks.reverse()) await f()
})

function operation(path) {
  for (const [template, item] of Object.entries(doc.paths)) {
    if (new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path)) return { template, item }
  }
  return undefined
}

/** A request through node:http, which sends the Host header it is given (fetch sets its own). */
function raw(url, { method = 'GET', headers = {} }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const headers = new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)]))
        resolve({ status: res.statusCode, headers, json: async () => JSON.parse(text), text: async () => text })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** A GET of the API, its answer checked against the document (status declared, JSON body valid). */
async function call(path, { base = world.url, headers = {}, method = 'GET' } = {}) {
  const url = new URL(path.slice(1), base)
  const res = headers.host ? await raw(url, { method, headers }) : await fetch(url, { method, headers })
  const pathname = new URL(path, 'http://x').pathname
  const found = operation(pathname)
  assert.ok(found, `${pathname} is in the document`)
  const type = res.headers.get('content-type')
  if (type.startsWith('application/json')) {
    const json = await res.json()
    const declared = res.status === 405
      ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
      : found.item.get.responses[String(res.status)]
    assert.ok(declared, `GET ${found.template} declares ${res.status} (${JSON.stringify(json).slice(0, 300)})`)
    const ref = `doc${declared.content['application/json'].schema.$ref}`
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
    assert.ok(validate(json), `${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(json).slice(0, 500)}`)
    checked.add(`GET ${found.template} ${res.status}`)
    return { status: res.status, json, headers: res.headers }
  }
  assert.ok(found.item.get.responses[String(res.status)].content[type.split(';')[0]], `${path} ${res.status} answers a declared type (${type})`)
  checked.add(`GET ${found.template} ${res.status}`)
  return { status: res.status, text: await res.text(), headers: res.headers }
}

test('list and task: shapes as documented, the cook\'s branch from its clone, every cook and model text escaped', async () => {
  await world.kitchen.dispatch({ project: 'api', title: 'Hostile <script>alert(1)</script> \u202eevil', brief: HOSTILE_BRIEF })
  await settled(world.kitchen, 'api-1', 30_000)
  const list = await call('/api/v1/kitchen/tasks')
  assert.equal(list.status, 200)
  assert.equal(list.json.present, true)
  const row = list.json.tasks.find((r) => r.id === 'api-1')
  assert.equal(row.state, 'done')
  assert.equal(row.detail, 'added <script>')
  assert.equal(row.branch, `${PREFIX}api-1`)
  assert.equal(row.model, 'fake/default')
  assert.equal(row.ahead, 2, 'both commits of the cook, read from its clone before the kitchen brought them back')
  assert.equal(row.tipSource, 'clone')
  assert.match(row.tip, /^[0-9a-f]{40}$/)
  assert.ok(row.lines.some((l) => l.kind === 'report' && l.text === 'report done: added <script>'), JSON.stringify(row.lines))
  assert.equal(row.title, 'Hostile <script>alert(1)</script> \\u202eevil', 'the bidi override is shown escaped')
  assert.equal(list.json.counts.done, 1)

  const one = await call('/api/v1/kitchen/tasks/api-1')
  assert.equal(one.status, 200)
  const raw = JSON.stringify(one.json)
  assert.ok(!/[\u202e\u001b]/.test(raw), 'no control or bidi character leaves the API raw')
  assert.match(one.json.brief, /^Add the feature <b>now<\/b> \\x1b\[31mred\\x1b\[0m \\u202eevil\n@fake:/)
  assert.equal(one.json.runs.length, 1)
  assert.deepEqual(one.json.runs[0].report, { status: 'done', summary: 'added <script>' })
  assert.ok(one.json.runs[0].entries.some((e) => e.kind === 'tool' && e.text === 'bash: npm test'))
  assert.match(one.json.runs[0].prompt.text, /## Brief\n\nAdd the feature/)
  assert.deepEqual(one.json.commands.chef.map((c) => c.command), ['/chef send api-1 <message>', '/chef stop api-1', '/chef close api-1'])
  assert.ok(one.json.commands.shell.some((c) => c.command.endsWith(` diff 'main...q"<i>'\\''s/api-1'`)), JSON.stringify(one.json.commands.shell))
  assert.deepEqual(one.json.diff.files.map((f) => [f.path, f.status, f.added]).sort(), [['feature.txt', 'added', 1], ['hostile.html', 'added', 3]])
  assert.equal(one.json.diff.source, 'clone')
  assert.deepEqual(one.json.log.map((e) => e.type).slice(0, 2), ['prompt', 'launch'])
})

test('the diff as text is git\'s own bytes; once the kitchen brings the branch back its tip is the project\'s', async () => {
  const before = (await call('/api/v1/kitchen/tasks/api-1')).json.task
  const diff = await call('/api/v1/kitchen/tasks/api-1/diff')
  assert.equal(diff.status, 200)
  assert.match(diff.headers.get('content-type'), /^text\/plain/)
  assert.equal(diff.headers.get('x-diff-tip'), before.tip)
  assert.equal(diff.headers.get('x-diff-truncated'), 'no')
  assert.match(diff.text, /^diff --git a\/feature\.txt b\/feature\.txt\nnew file mode 100644\n/m)
  assert.match(diff.text, /^\+feature\.txt from run of [0-9a-f-]+$/m)
  const lines = '+<script>alert(1)</script>\n+\u202e reversed\n+\x1b[31mred\x1b[0m\n'
  assert.ok(diff.text.includes(lines), `the patch is as git wrote it (a patch git apply takes):\n${JSON.stringify(diff.text)}`)

  await world.kitchen.result('api-1')
  await until(async () => (await call('/api/v1/kitchen/tasks/api-1')).json.task.tipSource === 'project', 'the project\'s tip', 10_000)
  const after = (await call('/api/v1/kitchen/tasks/api-1')).json.task
  assert.equal(after.tip, before.tip)
  assert.equal((await call('/api/v1/kitchen/tasks/api-1/diff')).text, diff.text)

  // the page shows the same diff escaped, its control characters marked, the branch's quotes intact
  const page = await (await fetch(`${world.url}kitchen/tasks/api-1`)).text()
  assert.ok(page.includes('<td class="code">&lt;script&gt;alert(1)&lt;/script&gt;</td>'), 'the file\'s markup is text')
  assert.ok(page.includes('<span class="ctl" title="a control character (U+202E) shown escaped">\\u202e</span> reversed'))
  assert.ok(page.includes('<span class="ctl" title="a control character (U+001B) shown escaped">\\x1b</span>[31mred'))
  assert.ok(page.includes('<code class="branch">q&quot;&lt;i&gt;&#39;s/api-1</code>'))
  for (const bad of ['<script>alert', '\u202e', '\x1b']) {
    const at = page.indexOf(bad)
    assert.equal(at, -1, `${JSON.stringify(bad)} reaches the page: ${JSON.stringify(page.slice(Math.max(0, at - 300), at + 40))}`)
  }
})

test('the event stream: a new task, its run\'s entries as the run file grows, a message, its end; a task\'s stream only its own', async () => {
  const all = await openEvents(`${world.url}api/v1/kitchen/events`)
  const mine = await openEvents(`${world.url}api/v1/kitchen/events?task=api-1`)
  assert.equal(all.status, 200)
  assert.match(all.res.headers.get('content-type'), /^text\/event-stream/)
  checked.add('GET /api/v1/kitchen/events 200')
  try {
    await world.kitchen.dispatch({ project: 'api', title: 'Steer me', brief: '@fake: steer=60000 done' })
    const added = await all.next((e) => e.event === 'task' && e.data.id === 'api-2', 'the new task')
    assert.equal(added.data.added, true)
    assert.match(added.data.html, /^<tr class="task state-(waiting|cooking)" id="task-api-2"/)
    // the cook is waiting: its entry came as lines, or with the row when the board first saw the task
    await all.next((e) => (e.event === 'lines' && e.data.id === 'api-2' && e.data.lines.some((l) => l.text === 'bash: waiting for a steer'))
      || (e.event === 'task' && e.data.id === 'api-2' && e.data.row.lines.some((l) => l.text === 'bash: waiting for a steer')), 'the cook waiting')
    await world.kitchen.send('api-2', 'use the <fast> path \x1b[1m')
    const message = (e) => e.event === 'lines' && e.data.id === 'api-2' && e.data.lines.some((l) => l.kind === 'message')
    const steer = await all.next(message, 'the message as the run file grows')
    const entry = steer.data.lines.find((l) => l.kind === 'message')
    assert.equal(entry.text, 'message: use the <fast> path \\x1b[1m')
    assert.ok(steer.data.html.some((h) => h.includes('message: use the &lt;fast&gt; path <span class="ctl"')), steer.data.html.join('\n'))
    const done = await all.next((e) => e.event === 'task' && e.data.id === 'api-2' && e.data.row.state === 'done', 'the task done')
    assert.equal(done.data.previous, 'cooking')
    assert.match(done.data.row.detail, /steered: use the <fast> path/)
    assert.ok(Number(done.id.split('-')[1]) > Number(added.id.split('-')[1]), 'events are numbered in order')
    const others = mine.events.filter((e) => e.data.id !== undefined && e.data.id !== 'api-1')
    assert.deepEqual(others.map((e) => `${e.event} ${e.data.id}`), [], "a task's stream has only its events")

    // a page rendered before these events catches up from its cursor; a cursor the server never gave resets it
    const replay = await openEvents(`${world.url}api/v1/kitchen/events?since=${added.id}&task=api-2`)
    await replay.next((e) => e.event === 'task' && e.data.row.state === 'done', 'the replayed end')
    assert.ok(!replay.events.some((e) => e.id === added.id), 'the cursor\'s own event is not sent again')
    await replay.close()
    const stale = await openEvents(`${world.url}api/v1/kitchen/events`, { headers: { 'last-event-id': '00000000-5' } })
    assert.equal((await stale.next((e) => e.event === 'reset', 'a reset')).event, 'reset')
    await stale.close()
  } finally {
    await all.close()
    await mine.close()
  }
})

test('bad ids, unknown tasks and paths, bad parameters, other methods, foreign hosts and origins are refused, saying why', async () => {
  const bad = await call('/api/v1/kitchen/tasks/..%2F..%2Fetc')
  assert.equal(bad.status, 400)
  assert.equal(bad.json.error.code, 'INVALID_TASK_ID')
  assert.match(bad.json.error.message, /"\.\.\/\.\.\/etc" is not a task id like "api-7"/)
  assert.equal((await call('/api/v1/kitchen/tasks/%E0%A4%A')).json.error.code, 'INVALID_PATH')
  const unknown = await call('/api/v1/kitchen/tasks/api-99')
  assert.equal(unknown.status, 404)
  assert.equal(unknown.json.error.code, 'TASK_UNKNOWN')
  assert.equal((await call('/api/v1/kitchen/tasks/api-99/diff')).status, 404)
  assert.equal((await call('/api/v1/kitchen/tasks/bad%20id/diff')).status, 400)
  for (const [query, parameter] of [['per=500', 'per'], ['page=0', 'page'], ['state=cooked', 'state'], ['pages=2', 'pages'], ['per=1&per=2', 'per']]) {
    const r = await call(`/api/v1/kitchen/tasks?${query}`)
    assert.equal(r.status, 400, query)
    assert.equal(r.json.error.parameter, parameter, query)
  }
  assert.equal((await call('/api/v1/kitchen/events?since=yesterday')).json.error.parameter, 'since')
  assert.equal((await call('/api/v1/kitchen/events?task=..')).json.error.code, 'INVALID_TASK_ID')
  const post = await call('/api/v1/kitchen/tasks', { method: 'POST' })
  assert.equal(post.status, 405)
  assert.equal(post.headers.get('allow'), 'GET')
  const other = await fetch(`${world.url}api/v1/kitchen/nothing`)
  assert.equal(other.status, 404)
  // pages: a bad id is a 400 page, an unknown one the 404 page
  const badPage = await fetch(`${world.url}kitchen/tasks/%3Cscript%3E`)
  assert.equal(badPage.status, 400)
  assert.ok((await badPage.text()).includes('&quot;&lt;script&gt;&quot; is not a task id'))
  assert.equal((await fetch(`${world.url}kitchen/tasks/api-99`)).status, 404)
  assert.equal((await fetch(`${world.url}kitchen?per=0`)).status, 400)
  assert.equal((await fetch(`${world.url}kitchen`, { method: 'DELETE' })).status, 405)
  // the server's own checks hold on every kitchen path: its Host only, its Origin only, a bounded target
  const port = new URL(world.url).port
  for (const path of ['/api/v1/kitchen/tasks', '/api/v1/kitchen/tasks/api-1', '/api/v1/kitchen/tasks/api-1/diff', '/api/v1/kitchen/events']) {
    const foreign = await call(path, { headers: { host: `evil.example:${port}` } })
    assert.equal(foreign.status, 421, path)
    assert.match(foreign.json.error.message, /not to "evil\.example:\d+"/)
    assert.equal((await call(path, { headers: { origin: 'http://evil.example' } })).status, 403, path)
    assert.equal((await call(`${path}?x=${'a'.repeat(5000)}`)).status, 414, path)
  }
  assert.equal((await raw(new URL('kitchen', world.url), { headers: { host: `evil.example:${port}` } })).status, 421, 'the board page too')
  // a server without --kitchen has no board, and its document no kitchen paths
  const bare = await startServer({ version: 'test', noShipped: true })
  try {
    const none = await fetch(`${bare.url}api/v1/kitchen/tasks`)
    assert.equal(none.status, 404)
    assert.equal((await none.json()).error.code, 'NO_KITCHEN')
    assert.equal((await fetch(`${bare.url}kitchen`)).status, 404)
    assert.ok(!Object.keys((await (await fetch(`${bare.url}api/v1/openapi.json`)).json()).paths).some((p) => p.includes('kitchen')))
  } finally {
    await bare.close()
  }
})

test('event streams are bounded: past the limit 503, and a client that goes away is removed', async () => {
  const routes = kitchenRoutes({ dir: world.kdir, maxStreams: 2, pollMs: 100 })
  const small = await startServer({ version: 'test', noShipped: true, kitchen: routes })
  try {
    const a = await openEvents(`${small.url}api/v1/kitchen/events`)
    const b = await openEvents(`${small.url}api/v1/kitchen/events`)
    assert.equal(routes.board.hub.size, 2)
    const c = await call('/api/v1/kitchen/events', { base: small.url })
    assert.equal(c.status, 503)
    assert.equal(c.json.error.code, 'TOO_MANY_STREAMS')
    assert.equal(c.headers.get('retry-after'), '5')
    await a.close()
    await waitUntil(() => routes.board.hub.size === 1, 'the closed stream removed')
    const d = await openEvents(`${small.url}api/v1/kitchen/events`)
    assert.equal(d.status, 200)
    await b.close()
    await d.close()
    await waitUntil(() => routes.board.hub.size === 0, 'every stream removed')
  } finally {
    await small.close()
  }
})

test('a kitchen that is not there yet: the board creates nothing, says so, and shows it once the chef opens it', async () => {
  const dir = join(world.root, 'later', 'kitchen')
  const routes = kitchenRoutes({ dir, pollMs: 50 })
  const later = await startServer({ version: 'test', noShipped: true, kitchen: routes })
  try {
    const none = await call('/api/v1/kitchen/tasks', { base: later.url })
    assert.deepEqual([none.json.present, none.json.total], [false, 0])
    const page = await (await fetch(`${later.url}kitchen`)).text()
    assert.match(page, /No kitchen at <code>[^<]*later\/kitchen<\/code> yet/)
    assert.equal(existsSync(join(world.root, 'later')), false, 'nothing was made')
    const stream = await openEvents(`${later.url}api/v1/kitchen/events`)
    const reader = await ownerKitchen(dir)
    try {
      await stream.next((e) => e.event === 'kitchen' && e.data.present === true, 'the kitchen appearing')
      assert.equal((await call('/api/v1/kitchen/tasks', { base: later.url })).json.present, true)
    } finally {
      await stream.close()
      await reader.kitchen.shutdown()
    }
  } finally {
    await later.close()
  }
})

test('the CLI: serve --kitchen DIR prints the board\'s address and serves it; --kitchen alone is the chef\'s kitchen', async (t) => {
  const cli = join(REPO_ROOT, 'bin/command-scout')
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--kitchen', world.kdir], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { if (alive(child.pid)) child.kill('SIGKILL') })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { out += c })
  await waitUntil(() => /is at http:\/\/127\.0\.0\.1:\d+\/kitchen\n/.test(out), 'the board address')
  assert.ok(out.includes(`the board of the kitchen ${world.kdir} is at`), out)
  const url = out.match(/http:\/\/127\.0\.0\.1:\d+\//)[0]
  const list = await (await fetch(`${url}api/v1/kitchen/tasks`)).json()
  assert.deepEqual(list.tasks.map((r) => r.id).sort(), ['api-1', 'api-2'])
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  assert.equal(await exited, 0)

  const { kitchenDir } = await import('../../dist/src/chef/schema.js')
  const dshHome = join(world.home, 'elsewhere', '.dsh')
  assert.equal(defaultKitchenDir({ DSH_HOME: dshHome }), kitchenDir({ dir: '' }, { DSH_HOME: dshHome }), 'the chef\'s default kitchen')
  assert.equal(defaultKitchenDir({}), kitchenDir({ dir: '' }, {}))
  const env = { ...process.env, DSH_HOME: dshHome }
  const alone = spawn(process.execPath, [cli, 'serve', '--kitchen', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env })
  t.after(() => { if (alive(alone.pid)) alone.kill('SIGKILL') })
  let said = ''
  alone.stdout.setEncoding('utf8').on('data', (c) => { said += c })
  await waitUntil(() => /\/kitchen/.test(said), 'the default board address')
  assert.ok(said.includes(`the board of the kitchen ${join(dshHome, 'kitchen')} is at`) && said.includes('(no kitchen there yet'), said)
  const gone = new Promise((resolve) => alone.on('exit', (code) => resolve(code)))
  alone.kill('SIGTERM')
  assert.equal(await gone, 0)

  const file = join(world.root, 'a-file')
  writeFileSync(file, 'x')
  for (const args of [['--kitchen', file], ['--kitchen=']]) {
    const r = spawnSync(process.execPath, [cli, 'serve', '--port', '0', ...args], { encoding: 'utf8', timeout: 30_000 })
    assert.equal(r.status, 2, r.stderr)
    assert.match(r.stderr, /^command-scout serve: --kitchen/)
  }
})

test('read-only: a session of pages, API calls and streams leaves every file of the kitchen and the project as it was', async () => {
  await settled(world.kitchen, 'api-2', 30_000)
  await world.owner.kitchen.shutdown() // from here nothing writes: only the board reads
  const kitchenBefore = diskState(world.kdir)
  const repoBefore = diskState(repo)
  const board = world.routes.board
  const stream = await openEvents(`${world.url}api/v1/kitchen/events`)
  const reads = board.reads
  const session = ['kitchen', 'kitchen?state=done', 'kitchen/tasks/api-1', 'kitchen/tasks/api-2', 'kitchen/tasks/api-1/diff', 'api/v1/kitchen/tasks',
    'api/v1/kitchen/tasks/api-1', 'api/v1/kitchen/tasks/api-2', 'api/v1/kitchen/tasks/api-1/diff', 'api/v1/kitchen/tasks/api-2/diff',
    'api/v1/kitchen/tasks/api-9']
  for (const path of session) {
    assert.ok([200, 404].includes((await fetch(`${world.url}${path}`)).status), path)
  }
  await waitUntil(() => board.reads >= reads + 5, 'the board to read the kitchen a few times')
  await stream.close()
  assert.deepEqual(diskState(world.kdir), kitchenBefore, 'the kitchen directory is unchanged')
  assert.deepEqual(diskState(repo), repoBefore, 'the project repository is unchanged')
})

test('every kitchen operation and declared status was exercised', () => {
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!template.includes('/kitchen')) continue
    for (const status of Object.keys(item.get.responses)) {
      if (status === '405') continue
      assert.ok(checked.has(`GET ${template} ${status}`), `GET ${template} ${status} was not exercised (have ${[...checked].join('; ')})`)
    }
  }
})
