// Shared set-up for the kitchen tests: temp git repos, a kitchen with the fake cook, and waits.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync, realpathSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { openKitchen } from '../../dist/src/kitchen/index.js'

export const FAKE_COOK = new URL('./fake-cook.mjs', import.meta.url).pathname
export const COOK_COMMAND = [process.execPath, FAKE_COOK, '--session-dir={sessionDir}', '--session-id={sessionId}', '--model={model}', '--thinking={thinking}', '{cookArgs}', '--prompt-file={promptFile}']
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV })
}

// Every folder a test file made goes when its process ends, passed or failed (node --test runs each
// file in a process of its own); the cooks a test started are stopped by the test itself.
const made = new Set()
process.on('exit', () => {
  for (const dir of made) {
    rmSync(dir, { recursive: true, force: true })
    // the base folder a disk test made goes too once no test process uses it
    if (!dir.startsWith(realpathSync(tmpdir()))) try { rmdirSync(join(dir, '..')) } catch {}
  }
  tidyCgroups()
})

/**
 * The control groups the kitchens of this run made and left empty (a kitchen removes its own when
 * it shuts down; one abandoned by a test as a crash would leave them): only empty ones go, so a
 * kitchen of another test process still running keeps its groups.
 */
export function tidyCgroups() {
  for (const base of ['/sys/fs/cgroup/unified', '/sys/fs/cgroup/pids', '/sys/fs/cgroup']) {
    let names
    try {
      names = readdirSync(base).filter((n) => n.startsWith('command-scout-'))
    } catch {
      continue
    }
    for (const n of names) {
      const dir = join(base, n)
      try {
        for (const g of readdirSync(dir, { withFileTypes: true })) if (g.isDirectory()) try { rmdirSync(join(dir, g.name)) } catch {}
        rmdirSync(dir)
      } catch {
        // not empty: in use
      }
    }
  }
}

export function tempDir(prefix = 'kitchen-') {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  made.add(dir)
  return dir
}

/** A git repo with one commit on `main`. */
export function makeRepo(parent, name) {
  const r = join(parent, name)
  mkdirSync(r, { recursive: true })
  execFileSync('git', ['init', '-q', '-b', 'main', r])
  writeFileSync(join(r, 'README'), `${name}\n`)
  git(r, 'add', '.')
  git(r, 'commit', '-q', '-m', 'init')
  return r
}

export const FAST_CONFIG = { killGraceMs: 300, exitGraceMs: 600, exitWaitMs: 4000, reclaimAfterMs: 400 }

export function writeConfig(root, config) {
  writeFileSync(join(root, 'config.json'), JSON.stringify(config, null, 2))
}

/**
 * The test's host config: what the harness row would be, kept by the test in `<root>/host.json`
 * (written by `writeConfig` too, so a test edits it the same way). The kitchen reads it through
 * KitchenDeps.config at each tick, never from its own directory's config.json.
 */
export function hostConfig(root) {
  return () => {
    const f = join(root, 'config.json')
    return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined
  }
}

/** Open a kitchen as owner with the fake cook; wakes and snapshots are recorded. */
export async function ownerKitchen(root, extra = {}) {
  const wakes = []
  const snapshots = []
  const reports = []
  const deps = {
    cookCommand: COOK_COMMAND,
    config: hostConfig(root),
    tickMs: 40,
    wakeQuietMs: 20,
    wakeCapMs: 80,
    deliver: async (w) => {
      wakes.push(w)
      return true
    },
    emit: (s) => snapshots.push(s),
    report: (lines) => reports.push(...lines),
    ...extra,
  }
  const opened = await openKitchen(root, deps, extra.open ?? {})
  if (opened.kind !== 'owner') throw new Error(`expected the owner, got ${opened.kind}`)
  return { kitchen: opened.kitchen, wakes, snapshots, reports, deps }
}

export async function until(fn, what = 'condition', ms = 30_000) {
  const end = Date.now() + ms
  let last
  while (Date.now() < end) {
    last = await fn()
    if (last) return last
    await sleep(25)
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Wait until the task is idle (or closed) and return its view. */
export async function settled(kitchen, id, ms) {
  return until(async () => {
    const v = await kitchen.view(id)
    return v.state.kind === 'idle' && !v.live ? v : undefined
  }, `${id} idle`, ms)
}

export function pidAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Owners with made-up identities in one process: `alive` says which still run, and `crash(k)` stops
 * an instance as a crash would (a fault thrown at the next named point), leaving its cooks running.
 */
export function owners() {
  const alive = new Set()
  let next = 900_000
  return {
    alive,
    identity() {
      const id = { pid: ++next, pidStart: `start-${next}` }
      alive.add(id.pid)
      return id
    },
    holderAlive: async (h) => alive.has(h.pid),
    faults() {
      const ctl = { at: undefined }
      ctl.fault = (point) => {
        if (ctl.at === point || ctl.at === '*') throw Object.assign(new Error(`simulated crash at ${point}`), { crash: true })
      }
      return ctl
    },
  }
}

/** Crash an owner now: its next tick throws at its first fault point. */
export async function crash(k, ctl, pid, reg) {
  ctl.at = '*'
  await k.tick().catch(() => {})
  reg.alive.delete(pid)
}

// ---------------------------------------------------------------- where users are

const REPO = new URL('../..', import.meta.url).pathname

/**
 * A fresh folder on a real disk, outside the system temp directory (where users keep projects and
 * kitchens, and where the harness's sandbox does not let every tool write): under the user's
 * ~/.cache unless home is itself under the temp directory, else under this repository's .cache.
 * Removed when the test process ends, like `tempDir`.
 */
export function diskDir(prefix = 'kitchen-') {
  const home = process.env.HOME ?? ''
  const tmp = realpathSync(tmpdir())
  const candidates = [process.env.COMMAND_SCOUT_TEST_DISK, home && !realpathSafe(home).startsWith('/tmp') && !realpathSafe(home).startsWith(tmp) ? join(home, '.cache', 'command-scout-tests') : undefined, join(REPO, '.cache', 'disk-tests')]
  for (const base of candidates) {
    if (!base) continue
    try {
      mkdirSync(base, { recursive: true })
      const dir = realpathSync(mkdtempSync(join(base, prefix)))
      if (dir.startsWith('/tmp/') || dir.startsWith(tmp + '/')) continue
      made.add(dir)
      return dir
    } catch {
      // not writable: the next place
    }
  }
  throw new Error('no folder outside the temp directory could be made for the test')
}

function realpathSafe(p) {
  try {
    return realpathSync(p)
  } catch {
    return p
  }
}

/** The two places a kitchen test runs in: the temp directory, and a real disk where users are. */
export const PLACES = [['tmp', tempDir], ['disk', diskDir]]

/**
 * The harness's sandbox launcher (Landlock) from the pinned dsh install, when it enforces here:
 * the fake cook runs its shell commands through it as dsh runs its bash tool. Undefined otherwise.
 */
export function sandboxLauncher() {
  const bin = join(REPO, '.cache/dsh/node_modules/@deepseek-ai/node-addon-landlock-run-linux-x64/bin/landlock-run')
  if (!existsSync(bin)) return undefined
  try {
    return execFileSync(bin, ['--probe'], { encoding: 'utf8' }).includes('enforced') ? bin : undefined
  } catch {
    return undefined
  }
}

/** Gone: no such process, or a zombie (init here may never reap an orphan). */
export function processGone(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state === 'Z' || state === 'X'
  } catch {
    return !pidAlive(pid)
  }
}
