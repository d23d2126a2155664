// Shared set-up for the kitchen tests: temp git repos, a kitchen with the fake cook, and waits.
import { mkdtempSync, writeFileSync, realpathSync, mkdirSync, rmSync } from 'node:fs'
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
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

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

/** Open a kitchen as owner with the fake cook; wakes and snapshots are recorded. */
export async function ownerKitchen(root, extra = {}) {
  const wakes = []
  const snapshots = []
  const reports = []
  const deps = {
    cookCommand: COOK_COMMAND,
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
