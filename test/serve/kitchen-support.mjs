// A real kitchen for the board's tests: a home-like folder on a real disk (outside the system temp
// directory, where users keep their work) holding the kitchen at ~/.dsh/kitchen and git
// repositories under ~/src, a kitchen owner opened with the kitchen's own code and the fake cook
// (a scripted process writing real run files; commits are real git commits in its clone), and the
// server with the board. Everything is stopped and removed after the test.
import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { diskDir, makeRepo, ownerKitchen } from '../kitchen/support.mjs'
import { startServer } from '../../dist/src/serve/server.js'
import { kitchenRoutes } from '../../dist/src/serve/kitchen/index.js'

export { makeRepo }

/** The world: { home, kdir, repos, kitchen, routes, server, url }. `open: false` leaves the owner closed. */
export async function kitchenWorld(t, { prefix = 'serve-kitchen-', pollMs = 100, maxStreams, root: serveRoot } = {}) {
  const undo = []
  t.after(async () => {
    for (const f of undo.reverse()) await f().catch(() => {})
  })
  const root = diskDir(prefix)
  undo.push(async () => rmSync(root, { recursive: true, force: true }))
  const home = join(root, 'home')
  const kdir = join(home, '.dsh', 'kitchen')
  const repos = join(home, 'src')
  mkdirSync(kdir, { recursive: true })
  mkdirSync(repos, { recursive: true })
  const owner = await ownerKitchen(kdir)
  undo.push(async () => killCooks(kdir))
  undo.push(() => owner.kitchen.shutdown())
  const routes = kitchenRoutes({ dir: kdir, pollMs, ...(maxStreams ? { maxStreams } : {}), hasCommands: serveRoot !== undefined })
  const server = await startServer({ version: 'test', noShipped: true, kitchen: routes, ...(serveRoot ? { root: serveRoot } : {}) })
  undo.push(() => server.close())
  return { root, home, kdir, repos, kitchen: owner.kitchen, owner, routes, server, url: server.url }
}

/**
 * An event stream read with fetch: `events` fills as frames arrive ({ id, event, data }), `next(pred)`
 * resolves with the first event (seen or to come) that matches, `close()` ends it.
 */
export async function openEvents(url, { headers = {} } = {}) {
  const controller = new AbortController()
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal })
  const events = []
  const waiters = []
  const stream = { res, events, status: res.status }
  if (res.status !== 200 || !res.body) {
    return { ...stream, close: () => controller.abort(), next: () => Promise.reject(new Error(`stream answered ${res.status}`)) }
  }
  let buffer = ''
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += value
      for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, i)
        buffer = buffer.slice(i + 2)
        const e = {}
        for (const line of frame.split('\n')) {
          const m = /^(id|event|data): (.*)$/.exec(line)
          if (m) e[m[1]] = m[1] === 'data' ? JSON.parse(m[2]) : m[2]
        }
        if (!e.event) continue
        events.push(e)
        for (const w of [...waiters]) if (w.pred(e)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(e))
      }
    }
  })().catch(() => {})
  const next = (pred, what = 'an event', timeoutMs = 30_000) => {
    const seen = events.find(pred)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const w = { pred, resolve }
      waiters.push(w)
      setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms; got ${events.map((x) => x.event).join(', ')}`)), timeoutMs).unref()
    })
  }
  return { ...stream, next, close: async () => { controller.abort(); await pump } }
}

/**
 * Everything under `dir` as it is on disk: each entry's kind, inode, size, mode, mtime and ctime,
 * a file's content hash and a link's target. Reading never changes any of these (atime is left out).
 */
export function diskState(dir) {
  const out = {}
  const walk = (path) => {
    const st = lstatSync(path)
    const base = { ino: st.ino, size: st.size, mode: st.mode, mtime: st.mtimeMs, ctime: st.ctimeMs }
    if (st.isSymbolicLink()) out[path] = { ...base, link: readlinkSync(path) }
    else if (st.isDirectory()) {
      out[path] = { ...base, dir: true }
      for (const name of readdirSync(path).sort()) walk(join(path, name))
    } else if (st.isFile()) out[path] = { ...base, sha: createHash('sha256').update(readFileSync(path)).digest('hex') }
    else out[path] = { ...base, other: true }
  }
  walk(dir)
  return out
}

/** Ends every cook of the kitchen still running (a test that failed midway): each process whose stdout is one of its run files, with its group. */
export function killCooks(kdir) {
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue
    let fd1
    try {
      fd1 = readlinkSync(`/proc/${n}/fd/1`)
    } catch {
      continue
    }
    if (!fd1.startsWith(join(kdir, 'tasks'))) continue
    try { process.kill(-Number(n), 'SIGKILL') } catch { try { process.kill(Number(n), 'SIGKILL') } catch {} }
  }
}
