// `command-scout mcp` speaks JSON-RPC when its input is bad, and goes on: a line that is not JSON
// gets the parse error (-32700), a message that is not JSON-RPC an invalid request (-32600), one over
// the size bound is answered and skipped, and a call whose arguments don't fit the tool's schema is
// refused naming the argument and the type it takes. Driven over stdio as a client would.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT, waitUntil } from './support.mjs'

function startServer(t) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'mcp', '--root', join(REPO_ROOT, 'test/fixtures/mixed'), '--no-watch'], { stdio: ['pipe', 'pipe', 'pipe'] })
  t.after(() => child.kill('SIGKILL'))
  const replies = []
  let buffer = ''
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      replies.push(JSON.parse(buffer.slice(0, nl)))
      buffer = buffer.slice(nl + 1)
    }
  })
  const send = (text) => new Promise((resolve) => child.stdin.write(text, resolve))
  const reply = async (match, what) => {
    await waitUntil(() => replies.some(match), what)
    return replies.find(match)
  }
  return { child, send, reply, replies }
}

const initialize = (id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'protocol-test', version: '1' } } })}\n`

test('a line that is not JSON gets -32700, a message that is not JSON-RPC -32600, and the server goes on', async (t) => {
  const { send, reply, child } = startServer(t)
  await send('{"jsonrpc": "2.0", "id": 1, "method": \n')
  const parse = await reply((r) => r.error?.code === -32700, 'the parse error')
  assert.equal(parse.id, null)
  await send('{"hello": "world", "id": 7}\n')
  const invalid = await reply((r) => r.error?.code === -32600, 'the invalid request')
  assert.equal(invalid.id, 7)
  await send(initialize(2))
  const init = await reply((r) => r.id === 2, 'the initialize answer')
  assert.ok(init.result?.serverInfo, 'the server still answers')
  assert.equal(child.exitCode, null)
})

test('a message over the size bound is answered and skipped; the next one is read', async (t) => {
  const { send, reply, child } = startServer(t)
  const big = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`
  await send(big)
  const tooBig = await reply((r) => r.error?.code === -32600 && /too large/.test(r.error.message), 'the too-large answer')
  assert.match(tooBig.error.message, /at most \d+ bytes/)
  await send(initialize(4))
  assert.ok((await reply((r) => r.id === 4, 'the initialize answer')).result)
  assert.equal(child.exitCode, null)
})

test('arguments are checked against the tool\'s input schema, naming the argument and its type', async (t) => {
  const { send, reply } = startServer(t)
  await send(initialize(1))
  await reply((r) => r.id === 1, 'initialize')
  await send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
  await send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'curated_recipe_search', arguments: { tags: 'x' } } })}\n`)
  const bad = await reply((r) => r.id === 2, 'the search answer')
  assert.equal(bad.result?.isError, true)
  assert.match(bad.result.content[0].text, /`tags` must be array/)
  await send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'curated_recipe_search', arguments: { tags: ['git'] } } })}\n`)
  const good = await reply((r) => r.id === 3, 'the good search answer')
  assert.notEqual(good.result?.isError, true)
})
