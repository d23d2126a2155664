// A chef in the real dsh: `dsh web` with the kitchen row loaded in place, driven through its HTTP
// API as the web UI drives it (session.create, session.prompt; a "/chef on" prompt runs the
// command). Each web process gets a free port on 127.0.0.1 and the caller's hermetic home.
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { REPO_ROOT, dshEnv, dshInstall } from '../e2e/harness.mjs'

export const KITCHEN_ENTRY = join(REPO_ROOT, 'dist/src/chef/entries/kitchen.js')

/**
 * A port for one dsh web. Ports the kernel hands out (listen on 0, outgoing connections) come from
 * its ephemeral range, which starts at 32768; these come from below it, each claimed by a file in
 * the run's temp folder, so no other test process of the run can be handed the same one.
 */
const claimed = []
process.on('exit', () => {
  for (const f of claimed) rmSync(f, { force: true })
})

export async function freePort() {
  for (let i = 0; i < 500; i++) {
    const port = 20000 + Math.floor(Math.random() * 12000)
    const claim = join(tmpdir(), `cs-port-${port}`)
    try {
      writeFileSync(claim, `${process.pid}\n`, { flag: 'wx' })
    } catch {
      continue
    }
    claimed.push(claim)
    if (await canListen(port)) return port
  }
  throw new Error('no free port in 20000-31999')
}

function canListen(port) {
  return new Promise((resolve) => {
    const s = createServer()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

/**
 * Whether the process `pid` or one of its descendants listens on `port`. A free port is free when
 * asked, not when dsh listens: another test's dsh web may take it in between, and then the API
 * answers from the wrong server. `ss` names the listener's pid; null when ss can't tell.
 */
export function listensOn(pid, port) {
  const r = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' })
  if (r.status !== 0) return null
  const pids = [...r.stdout.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]))
  return pids.some((p) => descendsFrom(p, pid))
}

function descendsFrom(p, ancestor) {
  for (let depth = 0; p > 1 && depth < 32; depth++) {
    if (p === ancestor) return true
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8')
      p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    } catch {
      return false
    }
  }
  return false
}

/** One request to dsh web's API as its UI sends it; the answer's value, or an error with the body. */
export async function apiPost(base, path, method, payload) {
  const res = await fetch(`${base}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'client-request', rpcId: randomUUID(), method, payload }),
  })
  const text = await res.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${method}: HTTP ${res.status}: ${text.slice(0, 500)}`)
  }
  const result = body.result ?? body
  if (!res.ok || result.ok === false) throw new Error(`${method}: HTTP ${res.status}: ${text.slice(0, 1000)}`)
  return result.value ?? result
}

/** A patch layer that inserts the kitchen row with `config` (JSON is YAML). */
export function kitchenRowLayer(config = {}, extraRows = []) {
  const rows = ['- insert:', '    - id: command-scout-kitchen', `      name: '${KITCHEN_ENTRY}'`, `      config: ${JSON.stringify(config)}`, ...extraRows]
  return `${rows.join('\n')}\n`
}

/** The overlay: no title request, and (unless `row` is false) the kitchen row. */
export function kitchenOverlay(config = {}, extraRows = [], { row = true } = {}) {
  const title = '- id: session-title-llm\n  disabled: true\n'
  return row ? title + kitchenRowLayer(config, extraRows) : title
}

export async function writeOverlay(home, config, extraRows, options) {
  const file = join(home.root, `kitchen-${randomUUID().slice(0, 8)}.yml`)
  await writeFile(file, kitchenOverlay(config, extraRows, options))
  return file
}

/**
 * Start `dsh web` and wait until its API answers. Returns { port, child, api, createSession,
 * prompt, stop, kill, output }. `stop()` ends it with SIGTERM (then SIGKILL); always call it.
 */
export async function startWeb(options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWebOnce(options)
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(error.message)) throw error
    }
  }
}

async function startWebOnce({ home, model, patch, cwd, env, profilePatch } = {}) {
  const port = await freePort()
  const args = ['web', '--patch', patch, '--port', String(port), '--no-open']
  const child = spawn(dshInstall().dsh, args, { cwd, env: dshEnv({ home, model, env }), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { output += c })
  child.stderr.setEncoding('utf8').on('data', (c) => { output += c })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let gone = false
  exited.then(() => { gone = true })
  const base = `http://127.0.0.1:${port}`

  const call = (method, payload = {}) => apiPost(base, method, method, payload)

  const deadline = Date.now() + 90_000
  for (;;) {
    if (gone) throw new Error(`dsh web exited before it answered:\n${output}`)
    try {
      await call('session.list', {})
      if (listensOn(child.pid, port) === false) {
        child.kill('SIGKILL')
        await exited
        throw new Error(`EADDRINUSE: another server answered on ${base}`)
      }
      break
    } catch (error) {
      if (/EADDRINUSE/.test(error.message)) throw error
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`dsh web did not answer on ${base}: ${error.message}\n${output}`)
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  const handle = {
    port,
    child,
    exited,
    get output() { return output },
    get alive() { return !gone },
    call,
    async createSession(dir = cwd) {
      const v = await call('session.create', { cwd: dir })
      return v.sessionId ?? v.session?.id ?? v.id
    },
    prompt(sessionId, text, mode = 'queue') {
      return call('session.prompt', { sessionId, mode, content: [{ type: 'text', text }] })
    },
    /** Run a slash command in a session, as the web UI's command palette does. */
    async command(sessionId, line) {
      const res = await fetch(`${base}/api/commands/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'client-request', rpcId: randomUUID(), method: 'commands/execute', payload: { args: { agentId: sessionId, line, images: [] } } }),
      })
      const text = await res.text()
      if (!res.ok) throw new Error(`${line}: HTTP ${res.status}: ${text.slice(0, 1000)}`)
      const body = JSON.parse(text)
      const r = body.result ?? body
      if (r.ok === false) throw new Error(`${line}: ${text.slice(0, 1000)}`)
      const v = r.value ?? r
      return v.result ?? v
    },
    async stop() {
      if (gone) return exited
      child.kill('SIGTERM')
      const t = setTimeout(() => child.kill('SIGKILL'), 8_000)
      const r = await exited
      clearTimeout(t)
      return r
    },
    kill() {
      if (!gone) child.kill('SIGKILL')
      return exited
    },
  }
  return handle
}
