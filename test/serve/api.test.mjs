// The recipe HTTP API on a real server (127.0.0.1, a free port): every answer, success or error, is
// checked against the served OpenAPI document with ajv, and the render answer is exactly the
// library's (the Specification's JSON).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createRequire } from 'node:module'
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
  const bad = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', 'eighty'], { encoding: 'utf8' })
  assert.equal(bad.status, 2)
  assert.match(bad.stderr, /--port must be 0 to 65535/)
  // A port in use is a clear failure, and the process ends (nothing is left holding it open).
  const taken = new URL(server.url).port
  const busy = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'serve', '--port', taken], { encoding: 'utf8', timeout: 30_000 })
  assert.equal(busy.status, 1, busy.stderr)
  assert.match(busy.stderr, new RegExp(`port ${taken} is in use; pick another with --port, or --port 0 for a free one`))
})
