// Chefs that crash and come back, for the chaos and reload tests: a `dsh web` in a process group
// of its own (so a test kills the whole group with SIGKILL, as a crashed terminal would), the
// kitchen's state read back from disk (tasks, run files, inbox, log), the cook processes found by
// their stdout, and the kitchen row written into the web profile's own patch layer (the layer dsh
// watches while it runs). Driven through the same HTTP API as web.mjs.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { dshEnv, dshInstall } from '../e2e/harness.mjs'
import { runFileWriters } from '../support/processes.mjs'
import { apiPost, freePort, KITCHEN_ENTRY, listensOn } from './web.mjs'

/** The env variable of the kitchen's crash hook (src/chef/crash-hook.ts). */
export const CRASH_FILE_ENV = 'COMMAND_SCOUT_KITCHEN_CRASH_FILE'

/**
 * Resolves when `check()` returns a truthy value (polled), rejects with `what` after `ms`; resolves
 * undefined once `signal` aborts (a race another promise won), so no poll outlives its test.
 */
export async function waitFor(check, what, ms = 60_000, every = 100, signal) {
  const deadline = Date.now() + ms
  for (;;) {
    if (signal?.aborted) return undefined
    const v = await check()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, every))
  }
}

/**
 * `dsh web` as the leader of its own process group. Returns the web.mjs handle's calls plus
 * `killGroup()` (SIGKILL to the group, resolves on exit) and `exited` ({ code, signal }).
 */
export async function startChef(options = {}) {
  // The free port is free when asked, not when dsh listens: on a shared machine another process may
  // take it in between, so a start that lost its port starts again on a new one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startChefOnce(options)
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(error.message)) throw error
    }
  }
}

async function startChefOnce({ home, model, patch, cwd, env } = {}) {
  const port = await freePort()
  const args = ['web', ...(patch ? ['--patch', patch] : []), '--port', String(port), '--no-open']
  const child = spawn(dshInstall().dsh, args, { cwd, env: dshEnv({ home, model, env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { output += c })
  child.stderr.setEncoding('utf8').on('data', (c) => { output += c })
  let gone = false
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => { gone = true; resolve({ code, signal }) }))
  const base = `http://127.0.0.1:${port}`
  const killGroup = () => {
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // the group is gone already
    }
    return exited
  }

  const post = (path, method, payload) => apiPost(base, path, method, payload)
  const call = (method, payload = {}) => post(method, method, payload)

  try {
    await waitFor(async () => {
      if (gone) throw new Error(`dsh web exited before it answered:\n${output}`)
      return call('session.list', {}).then(() => true, () => false)
    }, `dsh web on ${base}`, 90_000, 200)
    if (listensOn(child.pid, port) === false) throw new Error(`EADDRINUSE: another server answered on ${base}`)
  } catch (error) {
    await killGroup()
    throw error
  }

  return {
    port,
    child,
    exited,
    get output() { return output },
    get alive() { return !gone },
    call,
    killGroup,
    async createSession(dir = cwd) {
      const v = await call('session.create', { cwd: dir })
      return v.sessionId ?? v.session?.id ?? v.id
    },
    prompt(sessionId, text, mode = 'queue') {
      return call('session.prompt', { sessionId, mode, content: [{ type: 'text', text }] })
    },
    async command(sessionId, line) {
      const v = await post('commands/execute', 'commands/execute', { args: { agentId: sessionId, line, images: [] } })
      return v.result ?? v
    },
  }
}

// ------------------------------------------------------------------ the profile's patch layer

/** The web profile's own patch layer, the file dsh watches while it runs. */
export function webProfilePatch(home) {
  return join(home.dshHome, 'profiles', 'web', 'cordis.patch.yml')
}

/** Write the kitchen row with `config` into the web profile's patch layer (dsh keeps a file it finds there). */
export function writeProfileKitchen(home, config) {
  const file = webProfilePatch(home)
  mkdirSync(join(file, '..'), { recursive: true })
  const rows = [
    '- insert:',
    '    - id: command-scout-kitchen',
    `      name: '${KITCHEN_ENTRY}'`,
    `      config: ${JSON.stringify(config)}`,
  ]
  writeFileSync(file, `${rows.join('\n')}\n`)
  return file
}

/**
 * Whether process `pid` holds an inotify watch on `path` (dsh registers its patch-layer watchers
 * only after it answers HTTP, so an edit made before that would go unseen).
 */
export function inotifyWatches(pid, path) {
  const ino = statSync(path).ino.toString(16)
  let fds
  try {
    fds = readdirSync(`/proc/${pid}/fdinfo`)
  } catch {
    return false
  }
  for (const fd of fds) {
    let info
    try {
      info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')
    } catch {
      continue
    }
    for (const m of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+) /gm)) if (m[1] === ino) return true
  }
  return false
}

/** An overlay with no kitchen row: only the title request is turned off. */
export function plainOverlay(home) {
  const file = join(home.root, `plain-${randomUUID().slice(0, 8)}.yml`)
  writeFileSync(file, '- id: session-title-llm\n  disabled: true\n')
  return file
}

// ------------------------------------------------------------------ the kitchen on disk

function jsonLines(file) {
  if (!existsSync(file)) return []
  const out = []
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (!l.trim()) continue
    try {
      out.push(JSON.parse(l))
    } catch {
      out.push({ type: 'unparsable', text: l })
    }
  }
  return out
}

const list = (dir, re) => (existsSync(dir) ? readdirSync(dir).filter((n) => re.test(n)) : [])

/**
 * Every task of a kitchen as its files say: { id, log, closed, notified:Set, runs: [{ run, lines,
 * size, errTail }], prompts: [run numbers with a prompt file], inbox, handled }.
 */
export function diskTasks(kitchen) {
  const tasks = []
  for (const id of list(join(kitchen, 'tasks'), /^[a-z0-9][a-z0-9._-]*-\d+$/)) {
    const dir = join(kitchen, 'tasks', id)
    const log = jsonLines(join(dir, 'log.jsonl'))
    const runs = list(join(dir, 'runs'), /^\d+\.jsonl$/)
      .map((f) => {
        const file = join(dir, 'runs', f)
        const err = file.replace(/\.jsonl$/, '.err')
        const errText = existsSync(err) ? readFileSync(err, 'utf8') : ''
        // Both ends: a crash's first lines say what failed, its last ones where.
        const errTail = errText.length > 1600 ? `${errText.slice(0, 1000)}\n[...]\n${errText.slice(-600)}` : errText
        return { run: Number.parseInt(f, 10), lines: jsonLines(file), size: readFileSync(file).length, errTail }
      })
      .sort((a, b) => a.run - b.run)
    tasks.push({
      id,
      log,
      closed: log.some((e) => e.type === 'closed'),
      notified: new Set(log.filter((e) => e.type === 'notified').map((e) => e.run)),
      runs,
      prompts: list(join(dir, 'runs'), /^\d+\.prompt\.md$/).map((f) => Number.parseInt(f, 10)),
      inbox: list(join(dir, 'inbox'), /\.msg$/).length,
      handled: list(join(dir, 'inbox', 'handled'), /\.msg$/).length,
    })
  }
  return tasks.sort((a, b) => (a.id < b.id ? -1 : 1))
}

/** Whether a run's file says the run ended (its report, or the cook runner's settle). */
export function runEnded(run) {
  return run.lines.some((l) => l.type === 'settled' || (l.type === 'tool_end' && l.report))
}

/**
 * The live cooks: process groups whose stdout is a run file of this kitchen (also an unlinked one),
 * zombies left out. Returns Map task -> [{ pgid, pid, target }], one entry per group.
 */
export function liveCooks(kitchen) {
  const per = new Map()
  for (const w of runFileWriters(kitchen)) {
    const groups = per.get(w.task) ?? []
    if (!groups.some((g) => g.pgid === w.pgid)) groups.push({ pgid: w.pgid, pid: w.pid, target: w.target })
    per.set(w.task, groups)
  }
  return per
}
