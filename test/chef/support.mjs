// A chef world for end-to-end tests in the real dsh: a hermetic home, the scripted fake model
// (one server, told apart by the tools a request offers), real git repositories, and a chef in
// `dsh web` with the kitchen row loaded in place. Everything is removed in `t.after`.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { homeAt, makeHome } from '../e2e/harness.mjs'
import { diskDir } from '../kitchen/support.mjs'
import { messageText, offersTool, startFakeModel, toolResults } from '../support/fake-model.mjs'
import { kitchenRowLayer, startWeb, writeOverlay } from './web.mjs'

export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).trim()
}

/** A git repo with one commit on main; `files` are written first (e.g. a Makefile with a test target). */
export function makeRepo(parent, name, files = {}) {
  const dir = join(parent, name)
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'user.email', 'test@example.com')
  git(dir, 'config', 'user.name', 'Test')
  for (const [f, text] of Object.entries({ 'README.md': `# ${name}\n`, ...files })) writeFileSync(join(dir, f), text)
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'Initial commit')
  return dir
}

/** A Makefile whose test target checks that `file` holds `text` (a discovered test command). */
export function checkingMakefile(file, text) {
  return `## Check the feature\ntest:\n\tgrep -q '${text}' ${file}\n\n## Build it\nbuild:\n\t@echo built\n`
}

/** The task id a cook works on, from its contract (the cook runner names it). */
export function cookTask(body) {
  const m = /working one task \(([a-z0-9._-]+-\d+)\)/i.exec(messageText(body))
  return m?.[1]
}

/** Whether the last message of a request is the result of a tool call. */
export function afterTool(body) {
  return body?.messages?.at(-1)?.role === 'tool'
}

export function lastResult(body) {
  return toolResults(body).at(-1)?.content
}

/**
 * The chef's script: the test prompts `SCRIPT <json steps>`; each later request of that turn gets
 * the next step, then `{ text: 'ok' }`. A message with "Kitchen update" loads `onWake(text)`'s steps.
 * Steps are fake-model answers ({ tool, args } or { text }).
 */
export function chefScript({ onWake = () => [{ text: 'noted' }] } = {}) {
  // Per conversation (told apart by its first user message), how many marks were already loaded.
  const handledBy = new Map()
  let queue = []
  const wakes = []
  const answer = (body) => {
    const users = (body.messages ?? []).map((m, i) => ({ m, i })).filter(({ m }) => m.role === 'user')
    const marks = users.filter(({ m }) => {
      const t = typeof m.content === 'string' ? m.content : JSON.stringify(m.content)
      return t.includes('SCRIPT ') || t.includes('Kitchen update (')
    })
    const key = JSON.stringify(users[0]?.m.content ?? '')
    const handled = handledBy.get(key) ?? 0
    if (marks.length > handled) {
      const fresh = marks.slice(handled)
      handledBy.set(key, marks.length)
      queue = []
      for (const { m } of fresh) {
        const t = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('')
        if (t.includes('Kitchen update (')) {
          wakes.push(t)
          queue.push(...onWake(t, wakes.length))
        } else queue.push(...JSON.parse(t.slice(t.indexOf('SCRIPT ') + 7)))
      }
    }
    return queue.shift() ?? { text: 'ok' }
  }
  return { answer, wakes }
}

/**
 * A hermetic home like `makeHome`'s, on a real disk where users keep their work (outside the system
 * temp directory, which the harness's sandbox lets every tool write): HOME, DSH_HOME, the kitchen and
 * the repositories all live there, so the sandbox is the real one. dsh's own temp folder stays under
 * the system temp directory, as a user's does.
 */
export async function makeDiskHome(prefix = 'cs-chef-disk-') {
  return homeAt(diskDir(prefix), mkdtempSync(join(tmpdir(), `${prefix}tmp-`)))
}

/**
 * The world: `config` is the kitchen row's config. Returns { home, model, chef, cook, web, repos,
 * kitchen, sessionId, say(steps) } after `/chef on` in a fresh web session. `onDisk`: the home, the
 * kitchen and the repositories on a real disk (makeDiskHome).
 */
export async function chefWorld(t, { config = {}, chef: chefOptions, cook, chefOn = true, env, profileRow = false, extraRows = [], onDisk = false } = {}) {
  // One after hook that undoes in reverse order (node:test runs hooks in registration order).
  const undo = []
  t.after(async () => {
    for (const f of undo.reverse()) await f().catch(() => {})
  })
  const home = onDisk ? await makeDiskHome() : await makeHome('cs-chef-')
  undo.push(home.cleanup)
  const model = await startFakeModel({ fallback: { text: 'FINAL' } })
  undo.push(() => model.close())
  const cookRoute = model.route('cook', (b) => offersTool(b, 'chef_report'))
  if (cook) cookRoute.fallback = cook
  const script = chefScript(chefOptions)
  const chefRoute = model.route('chef', (b) => offersTool(b, 'chef_dispatch'))
  chefRoute.fallback = (body) => script.answer(body)
  const kitchen = join(home.root, 'kitchen')
  const rowConfig = { dir: kitchen, killGraceMs: 1500, exitGraceMs: 3000, exitWaitMs: 8000, reclaimAfterMs: 2000, ...config }
  const repos = join(home.root, 'repos')
  mkdirSync(repos, { recursive: true })
  undo.push(async () => killCooks(kitchen))
  // profileRow: the kitchen row lives in the profile's own patch layer (as an installed bundle's row
  // would be edited there), so a test can change its config while dsh runs. A first start makes the profile.
  const patch = await writeOverlay(home, rowConfig, extraRows, { row: !profileRow })
  const layer = join(home.dshHome, 'profiles/web/cordis.patch.yml')
  if (profileRow) {
    const init = await startWeb({ home, model, patch, cwd: repos, env })
    await init.stop()
    writeFileSync(layer, kitchenRowLayer(rowConfig))
  }
  const web = await startWeb({ home, model, patch, cwd: repos, env })
  undo.push(() => web.stop())
  const world = { undo, rowConfig, layer, home, model, cookRoute, chefRoute, script, web, repos, kitchen, patch, sessionId: undefined }
  world.sessionId = await web.createSession(repos)
  if (chefOn) {
    const on = await web.command(world.sessionId, '/chef on')
    if (on.kind !== 'success') throw new Error(`/chef on failed: ${JSON.stringify(on)}`)
  }
  /** Prompt the chef with scripted steps and wait for its turn to reach `{ text }` (the end). */
  world.say = async (steps) => {
    const before = chefRoute.requests.length
    await world.web.prompt(world.sessionId, `SCRIPT ${JSON.stringify([...steps, { text: 'turn done' }])}`)
    const want = before + steps.length + 1
    await chefRoute.waitForRequests(want, 120_000)
    return chefRoute.requests.slice(before)
  }
  return world
}

/** The tool result texts the chef's later requests carried, in order. */
export function chefResults(records) {
  const out = []
  for (const r of records) {
    const last = r.body.messages?.at(-1)
    if (last?.role === 'tool') out.push(typeof last.content === 'string' ? last.content : JSON.stringify(last.content))
  }
  return out
}

/**
 * Kill everything this kitchen's cooks started (cleanup after a failed test): every process whose
 * stdout is one of its run files, with its group, and every process of its cooks' trees (their
 * control groups, their run marker), so a bash command a cook left waiting does not outlive the test.
 */
export function killCooks(kitchen) {
  let names
  try {
    names = readdirSync('/proc')
  } catch {
    return
  }
  let key
  try {
    key = createHash('sha256').update(realpathSync(kitchen)).digest('hex').slice(0, 12)
  } catch {
    key = undefined
  }
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue
    try {
      const fd1 = readlinkSafe(`/proc/${n}/fd/1`)
      if (fd1 && fd1.startsWith(join(kitchen, 'tasks'))) process.kill(-Number(n), 'SIGKILL')
      else if (key && readFileSync(`/proc/${n}/environ`, 'latin1').split('\0').some((e) => e.startsWith(`KITCHEN_COOK=${key}/`))) process.kill(Number(n), 'SIGKILL')
    } catch {
      // gone, or not ours to read
    }
  }
  if (!key) return
  for (const base of ['/sys/fs/cgroup/unified', '/sys/fs/cgroup/pids', '/sys/fs/cgroup']) {
    const dir = join(base, `command-scout-${key}`)
    let groups
    try {
      groups = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())
    } catch {
      continue
    }
    for (const g of groups) {
      try {
        writeFileSync(join(dir, g.name, 'cgroup.kill'), '1')
      } catch {
        for (const pid of readFileSync(join(dir, g.name, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) try { process.kill(Number(pid), 'SIGKILL') } catch {}
      }
    }
  }
}

function readlinkSafe(p) {
  try {
    return readlinkSync(p)
  } catch {
    return undefined
  }
}

export function readLog(kitchen, task) {
  const f = join(kitchen, 'tasks', task, 'log.jsonl')
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
}

export function runFiles(kitchen, task) {
  const d = join(kitchen, 'tasks', task, 'runs')
  return existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.jsonl')).sort() : []
}

/** The pid of the cook whose stdout is a run file of `task` (the process group leader), or undefined. */
export function cookPid(kitchen, task) {
  const prefix = join(kitchen, 'tasks', task, 'runs') + '/'
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue
    const fd1 = readlinkSafe(`/proc/${n}/fd/1`)
    if (!fd1?.startsWith(prefix)) continue
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(f[2]) === Number(n) && f[0] !== 'Z') return Number(n)
    } catch {
      // gone
    }
  }
  return undefined
}

/** Whether any process is in the process group `pgid`. */
export function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Pids whose command line contains `marker`. */
export function pidsWith(marker, under) {
  const out = []
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue
    try {
      if (!readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(marker)) continue
      // Only this test's processes: started from, or with an environment naming, the folder it made.
      if (under && !readlinkSync(`/proc/${n}/cwd`).startsWith(under) && !readFileSync(`/proc/${n}/environ`, 'utf8').includes(under)) continue
      out.push(Number(n))
    } catch {
      // gone
    }
  }
  return out
}

/** Polls `fn` until it gives a value; `what` names the state, or is a function that describes it when the wait ends. */
export async function waitFor(fn, what, ms = 120_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A bash step that waits until the test creates `<dir>/go-<task>`, then writes and commits a file. */
export function gatedCommit(dir, task, marker = task) {
  const go = join(dir, `go-${task}`)
  return { tool: 'bash', args: { description: 'wait, then commit', timeoutMs: 300000, command: `while [ ! -f ${go} ]; do sleep 0.2; done; : ${marker}; echo ${task} > ${task}.txt && git add ${task}.txt && git commit -q -m "Work on ${task}" && echo committed` } }
}

export function release(dir, task) {
  writeFileSync(join(dir, `go-${task}`), 'go\n')
}

/** The kitchen's lease as it is on disk: the highest generation's file, or 'no lease file'. */
export function leaseText(kitchen) {
  const dir = join(kitchen, 'lease')
  const gens = existsSync(dir) ? readdirSync(dir).map((n) => /^(\d+)\.json$/.exec(n)?.[1]).filter(Boolean).map(Number).sort((a, b) => b - a) : []
  return gens.length ? readFileSync(join(dir, `${gens[0]}.json`), 'utf8') : 'no lease file'
}
