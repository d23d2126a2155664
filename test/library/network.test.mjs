// The network recipes, run for real against servers this test starts on 127.0.0.1 (HTTP, TLS with a
// self-signed certificate made by openssl, a tiny DNS responder, a listener in a child process).
// Nothing here touches any other address.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createSocket } from 'node:dgram'
import { once } from 'node:events'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { render, runRecipe, sh, tempDir, assertBashSyntax, needs } from './harness.mjs'

/** A listener in its own process (as a dev server would be); resolves with {port, pid, exited}. */
async function listenerProcess(t) {
  const child = spawn(process.execPath, ['-e', `
    const s = require('node:net').createServer(() => {}).listen(0, '127.0.0.1', () => console.log(s.address().port))
    process.on('SIGTERM', () => { s.close(); process.exit(0) })`], { stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => child.kill('SIGKILL'))
  const exited = once(child, 'exit')
  const [line] = await once(child.stdout, 'data')
  return { port: String(Number(line.toString())), pid: child.pid, exited }
}

async function listen(t, server) {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => new Promise((r) => { server.closeAllConnections?.(); server.close(r) }))
  return server.address().port
}

/** A port nothing listens on: bind one, note it, release it. */
async function freePort() {
  const s = createHttpServer().listen(0, '127.0.0.1')
  await once(s, 'listening')
  const port = s.address().port
  await new Promise((r) => s.close(r))
  return String(port)
}

/** Serves `body` at /file with byte-range support; records the Range headers it was sent. */
function rangeServer(body, ranges) {
  return createHttpServer((req, res) => {
    if (req.url === '/slow') return setTimeout(() => res.end('ok'), 150)
    if (req.url === '/moved') return res.writeHead(301, { location: '/file' }).end()
    if (req.url !== '/file') return res.writeHead(404).end()
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    if (req.method === 'GET') ranges.push(req.headers.range ?? null)
    const start = range ? Number(range[1]) : 0
    res.writeHead(range ? 206 : 200, {
      'accept-ranges': 'bytes', 'content-type': 'application/octet-stream', 'x-scout-test': 'yes',
      'content-length': body.length - start,
      ...(range ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    })
    res.end(req.method === 'HEAD' ? undefined : body.subarray(start))
  })
}

/** Answers every A query with 127.0.0.42 and everything else with no records. */
async function dnsServer(t) {
  const socket = createSocket('udp4')
  socket.on('message', (q, from) => {
    let end = 12
    while (q[end] !== 0) end += q[end] + 1
    const question = q.subarray(12, end + 5)
    const isA = q.readUInt16BE(end + 1) === 1
    const header = Buffer.alloc(12)
    q.copy(header, 0, 0, 2)
    header.writeUInt16BE(0x8180, 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(isA ? 1 : 0, 6)
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 42])
    socket.send(Buffer.concat([header, question, ...(isA ? [answer] : [])]), from.port, from.address)
  })
  socket.bind(0, '127.0.0.1')
  await once(socket, 'listening')
  t.after(() => socket.close())
  return String(socket.address().port)
}

describe('network recipes', { concurrency: true }, () => {
  test('network.find_process_on_port names the listening process', { skip: needs('lsof', 'ss') }, async (t) => {
    const { port, pid } = await listenerProcess(t)
    const r = render('network.find_process_on_port', { port })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    assert.match(steps[0].stdout, new RegExp(`127\\.0\\.0\\.1:${port}\\b.*pid=${pid}\\b`))
    assert.match(steps[1].stdout, new RegExp(`^node\\s+${pid}\\s`, 'm'))
    assert.match(steps[2].stdout, new RegExp(`^\\s*${pid}\\s.*node -e`, 'm'))
    assert.equal(verified.trim(), String(pid))
    // The macOS steps (lsof and ps, no ss) run here as well.
    const mac = await runRecipe(render('network.find_process_on_port', { port }, 'macos'))
    assert.match(mac.steps[1].stdout, new RegExp(`^\\s*${pid}\\s.*node -e`, 'm'))
  })

  test('network.kill_process_on_port stops the listener and frees the port', { skip: needs('lsof') }, async (t) => {
    const { port, pid, exited } = await listenerProcess(t)
    const r = render('network.kill_process_on_port', { port })
    assert.equal(r.undo.possible, false)
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    assert.match(steps[0].stdout, new RegExp(`\\b${pid}\\b`))
    assert.equal(verified.trim(), `port ${port} is free`)
    const [code, signal] = await exited
    assert.equal(code, 0, `the listener exited by its TERM handler (signal ${signal})`)
    // The port really is free: we can bind it.
    const s = createHttpServer().listen(Number(port), '127.0.0.1')
    await once(s, 'listening')
    s.close()
  })

  test('network.check_port_open tells an open port from a closed one', { skip: needs('nc') }, async (t) => {
    const open = String(await listen(t, createHttpServer()))
    const r = render('network.check_port_open', { host: '127.0.0.1', port: open })
    assertBashSyntax(r)
    const { verified } = await runRecipe(r)
    assert.equal(verified.trim(), 'open')
    const closed = render('network.check_port_open', { host: '127.0.0.1', port: await freePort() })
    const v = await sh(closed.verification[0].command)
    assert.notEqual(v.code, 0)
    assert.equal(v.stdout, '')
    assert.notEqual((await sh(closed.commands[0].command)).code, 0)
  })

  test('network.show_listening_sockets lists a socket we opened', { skip: needs('lsof', 'ss') }, async (t) => {
    const port = await listen(t, createHttpServer())
    const r = render('network.show_listening_sockets')
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    assert.match(steps[0].stdout, new RegExp(`127\\.0\\.0\\.1:${port}\\b.*pid=${process.pid}\\b`))
    assert.match(verified, new RegExp(`\\s${process.pid}\\s.*127\\.0\\.0\\.1:${port} \\(LISTEN\\)`))
  })

  test('network.test_dns_resolution asks the given server and the system resolver', { skip: needs('dig', 'getent') }, async (t) => {
    const dnsPort = await dnsServer(t)
    // localhost comes from the hosts file, so the system resolver sends nothing to the network.
    const r = render('network.test_dns_resolution', { name: 'localhost', server: '127.0.0.1', dns_port: dnsPort })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    assert.match(steps[0].stdout, /^(127\.0\.0\.1|::1)\s+STREAM\s+localhost$/m)
    assert.equal(steps[1].stdout.trim(), '127.0.0.42')
    assert.match(verified, /^localhost\.\s+60\s+IN\s+A\s+127\.0\.0\.42$/m)
    const mx = render('network.test_dns_resolution', { name: 'localhost', server: '127.0.0.1', dns_port: dnsPort, record_type: 'MX' })
    assert.equal((await sh(mx.verification[0].command)).stdout.trim(), '', 'no MX answer from the fake server')
  })

  test('network.download_with_resume continues a partial file with a range request', { skip: needs('curl') }, async (t) => {
    const dir = await tempDir(t)
    const body = randomBytes(256 * 1024)
    const ranges = []
    const port = await listen(t, rangeServer(body, ranges))
    await writeFile(join(dir, 'big.bin'), body.subarray(0, 1000))
    const r = render('network.download_with_resume', { url: `http://127.0.0.1:${port}/file`, output: 'big.bin' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd: dir })
    assert.match(steps[0].stdout, /accept-ranges: bytes/i)
    assert.deepEqual(ranges, ['bytes=1000-'], 'curl asked only for the missing bytes')
    assert.equal(verified.trim(), String(body.length))
    assert.ok(body.equals(await readFile(join(dir, 'big.bin'))), 'the resumed file is byte-identical')
    assert.equal(r.undo.possible, false)
  })

  test('network.trace_http_timing prints each phase and the status', { skip: needs('curl') }, async (t) => {
    const port = await listen(t, rangeServer(Buffer.from('x'), []))
    const r = render('network.trace_http_timing', { url: `http://127.0.0.1:${port}/slow` })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r)
    const times = Object.fromEntries([...out.matchAll(/^(dns|connect|tls|first byte|total) ([\d.]+)s$/gm)].map((m) => [m[1], Number(m[2])]))
    assert.deepEqual(Object.keys(times), ['dns', 'connect', 'tls', 'first byte', 'total'])
    assert.ok(times.total >= times['first byte'] && times['first byte'] >= times.connect, JSON.stringify(times))
    assert.match(out, /^status 200$/m)
    assert.equal(verified.trim(), '200')
  })

  test('network.check_tls_certificate_expiry reads a local certificate and its expiry', { skip: needs('openssl') }, async (t) => {
    const dir = await tempDir(t)
    const gen = await sh(`openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 90 -subj /CN=scout.test`, { cwd: dir })
    assert.equal(gen.code, 0, gen.stderr)
    const [key, cert] = await Promise.all([readFile(join(dir, 'key.pem')), readFile(join(dir, 'cert.pem'))])
    const port = String(await listen(t, createHttpsServer({ key, cert }, (_q, s) => s.end('ok'))))
    const r = render('network.check_tls_certificate_expiry', { host: '127.0.0.1', port, days: 30 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r)
    assert.match(steps[0].stdout, /^subject=CN ?= ?scout\.test$/m)
    assert.match(steps[0].stdout, /^notAfter=/m)
    assert.match(verified, /Certificate will not expire/)
    // 90-day certificate, 120-day horizon: the check must fail.
    const soon = render('network.check_tls_certificate_expiry', { host: '127.0.0.1', port, days: 120 })
    const v = await sh(soon.verification[0].command)
    assert.equal(v.code, 1)
    assert.match(v.stdout, /Certificate will expire/)
  })

  test('network.show_http_response_headers shows the redirect and the final headers', { skip: needs('curl') }, async (t) => {
    const port = await listen(t, rangeServer(Buffer.from('hello'), []))
    const r = render('network.show_http_response_headers', { url: `http://127.0.0.1:${port}/moved` })
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r)
    assert.match(out, /^HTTP\/1\.1 301 Moved Permanently\r?$/m)
    assert.match(out, /^HTTP\/1\.1 200 OK\r?$/m)
    assert.match(out, /^x-scout-test: yes\r?$/m)
    assert.equal(verified.trim(), '200 application/octet-stream')
  })
})
