// The recipe HTTP API on a real server (127.0.0.1, a free port): every answer, success or error, is
// checked against the served OpenAPI document with ajv, and the render answer is exactly the
// library's (the Specification's JSON).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { request } from 'node:http'
import { REPO_ROOT, waitUntil, alive } from '../mcp/support.mjs'
import { startServer } from '../../dist/src/serve/server.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

const require = createRequire(import.meta.url)
const Ajv2020 = require('ajv/dist/2020.js').default
const addFormats = require('ajv-formats')

const FIXTURE = join(REPO_ROOT, 'test/fixtures/mixed')
let server
let bare
let doc
let ajv
const checked = new Set()

before(async () => {
  server = await startServer({ version: 'test', root: FIXTURE })
  bare = await startServer({ version: 'test' })
  doc = await (await fetch(`${server.url}api/v1/openapi.json`)).json()
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'doc', components: doc.components })
})
after(async () => {
  await server?.close()
  await bare?.close()
})

/** The OpenAPI operation a path and method fall under, or undefined. */
function operation(path, method) {
  for (const [template, item] of Object.entries(doc.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    if (re.test(path)) return { template, op: item[method.toLowerCase()], item }
  }
  return undefined
}

/** Calls the API and checks the answer against the document: status declared, body valid, JSON type. */
async function call(method, path, { body, type = 'application/json', base = server.url, raw } = {}) {
  const init = { method, headers: {} }
  if (body !== undefined || raw !== undefined) {
    init.body = raw ?? JSON.stringify(body)
    if (type) init.headers['content-type'] = type
  }
  const res = await fetch(new URL(path.slice(1), base), init)
  const json = await res.json()
  assert.match(res.headers.get('content-type'), /^application\/json/)
  const pathname = new URL(path, 'http://x').pathname
  const found = operation(pathname, method)
  assert.ok(found, `${pathname} is in the document`)
  let schemaRef
  if (res.status === 405) {
    assert.ok(!found.op, `${method} ${found.template} is not an operation, so 405 is right`)
    assert.ok(res.headers.get('allow'), '405 names the allowed method')
    schemaRef = 'doc#/components/schemas/Error'
  } else {
    const answer = found.op.responses[String(res.status)]
    assert.ok(answer, `${method} ${found.template} declares status ${res.status} (body ${JSON.stringify(json).slice(0, 200)})`)
    schemaRef = `doc${answer.content['application/json'].schema.$ref}`
  }
  const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef })
  assert.ok(validate(json), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(json).slice(0, 400)}`)
  checked.add(`${method} ${found.template} ${res.status}`)
  return { status: res.status, json, headers: res.headers }
}

test('search: words, category, tags and risk filter; limit caps; bad filters name the parameter', async () => {
  const all = await call('GET', '/api/v1/recipes')
  assert.equal(all.status, 200)
  const library = loadLibrary([SHIPPED_RECIPES_DIR])
  assert.equal(all.json.total, library.recipes.length)
  const undo = await call('GET', '/api/v1/recipes?q=undo+commit')
  assert.ok(undo.json.recipes.some((r) => r.id === 'git.undo_last_commit'))
  const docker = await call('GET', '/api/v1/recipes?category=docker&risk=destructive')
  assert.ok(docker.json.recipes.length > 0)
  for (const r of docker.json.recipes) assert.ok(r.category === 'docker' && r.risk === 'destructive' && r.requires_confirmation)
  const either = await call('GET', '/api/v1/recipes?risk=read_only&risk=low')
  assert.ok(either.json.recipes.every((r) => r.risk === 'read_only' || r.risk === 'low'))
  assert.ok(new Set(either.json.recipes.map((r) => r.risk)).size === 2)
  const tagged = await call('GET', '/api/v1/recipes?tag=git&tag=undo')
  assert.ok(tagged.json.recipes.every((r) => r.tags.includes('git') && r.tags.includes('undo')))
  const two = await call('GET', '/api/v1/recipes?limit=2')
  assert.equal(two.json.recipes.length, 2)
  assert.equal(two.json.total, library.recipes.length)
  for (const [query, parameter] of [['category=cooking', 'category'], ['risk=scary', 'risk'], ['limit=0', 'limit'], ['colour=red', 'colour']]) {
    const bad = await call('GET', `/api/v1/recipes?${query}`)
    assert.equal(bad.status, 400, query)
    assert.equal(bad.json.error.parameter, parameter)
  }
})

test('one recipe: the definition without server paths; an unknown id is a 404 with a suggestion', async () => {
  const one = await call('GET', '/api/v1/recipes/git.undo_last_commit')
  assert.equal(one.status, 200)
  assert.equal(one.json.id, 'git.undo_last_commit')
  assert.equal(one.json.file, undefined)
  assert.ok(one.json.supported_platforms.includes('linux'))
  const typo = await call('GET', '/api/v1/recipes/git.undo_last_comit')
  assert.equal(typo.status, 404)
  assert.match(typo.json.error.message, /did you mean `git\.undo_last_commit`/)
})

test('render answers exactly the library render; every error has its status and names what is wrong', async () => {
  const library = loadLibrary([SHIPPED_RECIPES_DIR])
  const ok = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'macos', params: { port: '5432' } } })
  assert.equal(ok.status, 200)
  assert.deepEqual(ok.json, renderRecipe(library, 'network.find_process_on_port', { platform: 'macos', params: { port: '5432' } }))
  assert.deepEqual(Object.keys(ok.json), ['id', 'version', 'risk', 'requires_confirmation', 'commands', 'verification', 'undo'])
  const cases = [
    [{ platform: 'linux', params: { port: 'abc' } }, 400, 'RECIPE_INVALID_PARAM', 'params.port'],
    [{ platform: 'linux', params: { colour: 'red' } }, 400, 'RECIPE_UNKNOWN_PARAM', 'params.colour'],
    [{ platform: 'linux', params: { port: { nested: 1 } } }, 400, 'RECIPE_INVALID_PARAM', 'params.port'],
    [{ platform: 'beos' }, 400, 'INVALID_PLATFORM', 'platform'],
    [{ params: {} }, 400, 'INVALID_PLATFORM', 'platform'],
    [{ platform: 'linux', params: [] }, 400, 'INVALID_PARAMS', 'params'],
    [{ platform: 'linux', extra: 1 }, 400, 'INVALID_BODY', 'extra'],
    [[1, 2], 400, 'INVALID_BODY', undefined],
  ]
  for (const [body, status, code, parameter] of cases) {
    const r = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body })
    assert.equal(r.status, status, JSON.stringify(body))
    assert.equal(r.json.error.code, code, JSON.stringify(body))
    assert.equal(r.json.error.parameter, parameter, JSON.stringify(body))
  }
  const missing = library.recipes.find((r) => r.parameters.some((p) => p.default === undefined))
  const needs = await call('POST', `/api/v1/recipes/${missing.id}/render`, { body: { platform: 'linux' } })
  assert.equal(needs.status, 400)
  assert.equal(needs.json.error.code, 'RECIPE_MISSING_PARAM')
  assert.match(needs.json.error.parameter, /^params\./)
  assert.equal((await call('POST', '/api/v1/recipes/no.such/render', { body: { platform: 'linux' } })).status, 404)
  const badJson = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { raw: '{"platform": ' })
  assert.equal(badJson.status, 400)
  assert.equal(badJson.json.error.code, 'INVALID_JSON')
  const text = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { raw: 'platform=linux', type: 'text/plain' })
  assert.equal(text.status, 415)
  const huge = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'linux', params: { port: 'x'.repeat(20_000) } } })
  assert.equal(huge.status, 413)
  // A chunked body (no Content-Length) is counted as it arrives and refused past the limit.
  const { request } = await import('node:http')
  const chunked = await new Promise((resolve, reject) => {
    const req = request(new URL('api/v1/recipes/network.find_process_on_port/render', server.url), { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c) => { text += c }).on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }))
    })
    req.on('error', (e) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)))
    req.write('{"platform": "linux", "params": {"port": "')
    for (let i = 0; i < 10; i++) req.write('9'.repeat(4096))
    req.end('"}}')
  })
  assert.equal(chunked.status, 413)
  assert.equal(chunked.json.error.code, 'BODY_TOO_LARGE')
  // The server still answers on a new connection after refusing a body it did not read.
  assert.equal((await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'linux' } })).status, 200)
})

test('wrong methods are 405 with Allow; unknown API paths are JSON 404s', async () => {
  const get = await call('GET', '/api/v1/recipes/git.undo_last_commit/render')
  assert.equal(get.status, 405)
  assert.equal(get.headers.get('allow'), 'POST')
  assert.equal((await call('POST', '/api/v1/recipes', { body: {} })).status, 405)
  assert.equal((await call('DELETE', '/api/v1/recipes/git.undo_last_commit')).status, 405)
  const nowhere = await fetch(`${server.url}api/v2/everything`)
  assert.equal(nowhere.status, 404)
  assert.equal((await nowhere.json()).error.code, 'NOT_FOUND')
})

test('with --root the commands are the scan JSON; without it the endpoint says how to get them', async () => {
  const commands = await call('GET', '/api/v1/commands')
  assert.equal(commands.status, 200)
  const scan = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'scan', '--root', FIXTURE, '--format', 'json'], { encoding: 'utf8' })
  assert.deepEqual(commands.json, JSON.parse(scan.stdout))
  const none = await call('GET', '/api/v1/commands', { base: bare.url })
  assert.equal(none.status, 404)
  assert.match(none.json.error.message, /--root/)
})

/** A request through node:http, which sends the Host and Origin headers it is given (fetch sets its own Host). */
function raw(method, path, headers = {}, body) {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** `raw`, its JSON answer checked against the document as `call` checks it. */
async function rawCall(method, path, headers, body) {
  const res = await raw(method, path, headers, body)
  assert.match(res.headers['content-type'], /^application\/json/, `${method} ${path.slice(0, 80)}: ${res.text.slice(0, 200)}`)
  const json = JSON.parse(res.text)
  const pathname = new URL(path, 'http://x').pathname
  const found = operation(pathname, method)
  assert.ok(found, `${pathname.slice(0, 80)} is in the document`)
  const answer = found.op.responses[String(res.status)]
  assert.ok(answer, `${method} ${found.template} declares status ${res.status} (body ${res.text.slice(0, 200)})`)
  const validate = ajv.getSchema(`doc${answer.content['application/json'].schema.$ref}`) ?? ajv.compile({ $ref: `doc${answer.content['application/json'].schema.$ref}` })
  assert.ok(validate(json), ajv.errorsText(validate.errors))
  checked.add(`${method} ${found.template} ${res.status}`)
  return { status: res.status, json }
}

test('only the server\'s own Host is answered (421), an API call from another origin is refused (403), an over-long target is 414', async () => {
  const { port } = new URL(server.url)
  const operations = [['GET', '/api/v1/recipes?q=git'], ['GET', '/api/v1/recipes/git.undo_last_commit'], ['POST', '/api/v1/recipes/git.undo_last_commit/render', JSON.stringify({ platform: 'linux' })], ['GET', '/api/v1/commands']]
  for (const [method, path, body] of operations) {
    // A web page whose DNS name was rebound to 127.0.0.1 sends its own name as Host.
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost:${Number(port) + 1}`]) {
      const r = await rawCall(method, path, { host }, body)
      assert.equal(r.status, 421, `${method} ${path} Host ${host}`)
      assert.equal(r.json.error.code, 'MISDIRECTED_REQUEST')
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const r = await raw(method, path, { host, ...(body ? {} : {}) }, body)
      assert.ok(r.status === 200, `${method} ${path} Host ${host}: ${r.status} ${r.text.slice(0, 200)}`)
    }
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`]) {
      const r = await rawCall(method, path, { host: `127.0.0.1:${port}`, origin }, body)
      assert.equal(r.status, 403, `${method} ${path} Origin ${origin}`)
      assert.equal(r.json.error.code, 'CROSS_ORIGIN')
    }
    const same = await raw(method, path, { host: `localhost:${port}`, origin: `http://localhost:${port}` }, body)
    assert.equal(same.status, 200, 'a page of the server itself may call the API')
    const long = await rawCall(method, `${path}${path.includes('?') ? '&' : '?'}${'x'.repeat(5000)}=1`, { host: `127.0.0.1:${port}` }, body)
    assert.equal(long.status, 414)
  }
  // The pages too: a rebound name gets no page.
  const page = await raw('GET', '/', { host: 'evil.example' })
  assert.equal(page.status, 421)
  assert.doesNotMatch(page.text, /<html/)
  assert.equal((await raw('GET', '/', { host: `127.0.0.1:${port}` })).status, 200)
})

test('a search is bounded: an over-long or many-word query is a 400 at once, not seconds of work', async () => {
  const words = Array.from({ length: 2000 }, (_, i) => `word${i}x`).join(' ')
  const started = performance.now()
  const long = await call('GET', `/api/v1/recipes?q=${encodeURIComponent(words.slice(0, 1000))}`)
  assert.equal(long.status, 400)
  assert.equal(long.json.error.code, 'QUERY_TOO_LONG')
  assert.equal(long.json.error.parameter, 'q')
  const many = await call('GET', `/api/v1/recipes?q=${encodeURIComponent(Array.from({ length: 17 }, () => 'a').join(' '))}`)
  assert.equal(many.status, 400)
  const tags = await call('GET', `/api/v1/recipes?${Array.from({ length: 17 }, (_, i) => `tag=t${i}`).join('&')}`)
  assert.equal(tags.status, 400)
  assert.equal(tags.json.error.parameter, 'tag')
  // The 14 KB query of the report: refused by its length (414 for the target) before any search.
  const huge = await raw('GET', `/api/v1/recipes?${new URLSearchParams({ q: `${words} `.repeat(2).slice(0, 14_000) })}`)
  assert.equal(huge.status, 414)
  assert.ok(performance.now() - started < 30_000)
  // The longest query allowed is answered.
  const most = await call('GET', `/api/v1/recipes?q=${encodeURIComponent(Array.from({ length: 16 }, (_, i) => `portx${i}abcdefghij`).join(' ').slice(0, 256))}`)
  assert.equal(most.status, 200)
  // The index page says it in a page.
  const pageRes = await raw('GET', `/?q=${encodeURIComponent(words.slice(0, 1000))}`)
  assert.equal(pageRes.status, 400)
  assert.match(pageRes.text, /<h1>Bad request<\/h1>/)
})

test('a malformed %-escape is a 400 on the API and the 404 page on a page, never a 500', async () => {
  for (const path of ['/api/v1/recipes/%E0%A4%A', '/api/v1/recipes/%ZZ']) {
    const r = await call('GET', path)
    assert.equal(r.status, 400, path)
    assert.equal(r.json.error.code, 'INVALID_PATH')
  }
  const render = await call('POST', '/api/v1/recipes/%E0%A4%A/render', { body: { platform: 'linux' } })
  assert.equal(render.status, 400)
  const page = await fetch(`${server.url}recipes/%E0%A4%A`)
  assert.equal(page.status, 404)
  assert.match(await page.text(), /Not found/)
})

test('limit takes decimal digits only; JSON numbers and booleans are taken for parameters that hold them', async () => {
  for (const limit of ['0x10', '1e2', ' 5', '5.0', '+5', '']) {
    const r = await call('GET', `/api/v1/recipes?limit=${encodeURIComponent(limit)}`)
    assert.equal(r.status, 400, `limit=${limit}`)
    assert.equal(r.json.error.parameter, 'limit')
  }
  assert.equal((await call('GET', '/api/v1/recipes?limit=16')).json.recipes.length, 16)
  const library = loadLibrary([SHIPPED_RECIPES_DIR])
  const asNumber = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'linux', params: { port: 8080 } } })
  assert.equal(asNumber.status, 200, JSON.stringify(asNumber.json))
  assert.deepEqual(asNumber.json, renderRecipe(library, 'network.find_process_on_port', { platform: 'linux', params: { port: '8080' } }))
  // The parameter's own check still decides: a port is digits.
  const fraction = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'linux', params: { port: 80.5 } } })
  assert.equal(fraction.status, 400)
  assert.equal(fraction.json.error.parameter, 'params.port')
  const object = await call('POST', '/api/v1/recipes/network.find_process_on_port/render', { body: { platform: 'linux', params: { port: { n: 1 } } } })
  assert.equal(object.status, 400)
})

test('every operation and declared status was exercised', () => {
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const status of Object.keys(op.responses)) {
        if (status === '405') continue // 405 answers paths for the methods they lack (checked above)
        assert.ok(checked.has(`${method.toUpperCase()} ${template} ${status}`), `${method.toUpperCase()} ${template} ${status} was not exercised (have ${[...checked].join('; ')})`)
      }
    }
  }
})

test('--host 0.0.0.0 says it listens on every interface and warns that other machines can reach it', async (t) => {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', '0', '--host', '0.0.0.0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { if (alive(child.pid)) child.kill('SIGKILL') })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { out += c })
  child.stderr.setEncoding('utf8').on('data', (c) => { err += c })
  await waitUntil(() => /listening on/.test(out) && /warning/.test(err), 'the address and the warning')
  assert.match(out, /^command-scout serve: listening on http:\/\/0\.0\.0\.0:(\d+)\/ \(every interface; on this machine http:\/\/127\.0\.0\.1:\1\/\)\n$/)
  assert.match(err, /warning: http:\/\/0\.0\.0\.0:\d+\/ is reachable from other machines/)
  const url = out.match(/http:\/\/127\.0\.0\.1:\d+\//)[0]
  assert.equal((await fetch(`${url}api/v1/recipes?limit=1`)).status, 200)
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  assert.equal(await exited, 0)
})

test('the CLI prints the URL for --port 0, serves, and stops on SIGTERM; bad options are usage errors', async (t) => {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { if (alive(child.pid)) child.kill('SIGKILL') })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { out += c })
  await waitUntil(() => /listening on http:\/\/127\.0\.0\.1:\d+\//.test(out), 'the URL')
  const url = out.match(/http:\/\/127\.0\.0\.1:\d+\//)[0]
  assert.equal((await fetch(`${url}api/v1/recipes?limit=1`)).status, 200)
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  assert.equal(await exited, 0)
  // --root on a file is refused as scan refuses it.
  const file = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', '0', '--root', join(REPO_ROOT, 'package.json')], { encoding: 'utf8', timeout: 30_000 })
  assert.equal(file.status, 2, file.stderr)
  assert.match(file.stderr, /^command-scout serve: --root .*package\.json is not a directory\n$/)
  const bad = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', 'eighty'], { encoding: 'utf8' })
  assert.equal(bad.status, 2)
  assert.match(bad.stderr, /--port must be 0 to 65535/)
  // A port in use is a clear failure, and the process ends (nothing is left holding it open).
  const taken = new URL(server.url).port
  const busy = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', taken], { encoding: 'utf8', timeout: 30_000 })
  assert.equal(busy.status, 1, busy.stderr)
  assert.match(busy.stderr, new RegExp(`port ${taken} is in use; pick another with --port, or --port 0 for a free one`))
})
