// Process helpers for tests that check a tree is gone: liveness from /proc (a zombie is dead),
// and polling for a state with a deadline (never a fixed sleep as synchronisation).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'

export function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Resolves once `check()` is truthy; rejects with `what` after `ms`. */
export async function waitFor(check, what, ms = 20_000) {
  const end = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Reads a pid a test command wrote, once it is there. */
export async function pidFrom(file) {
  return waitFor(() => {
    try {
      const n = Number(readFileSync(file, 'utf8').trim())
      return n > 0 ? n : undefined
    } catch {
      return undefined
    }
  }, `a pid in ${file}`)
}

/** Kills what a failed test may have left (by pid, never by name). */
export function killIfAlive(pid) {
  if (pid && alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone
    }
  }
}

/**
 * The live processes whose stdout is a run file under `<kitchen>/tasks/` (also one a reclaim
 * unlinked, `... (deleted)`), zombies left out: [{ pid, pgid, task, target }].
 */
export function runFileWriters(kitchen) {
  const tasksDir = join(kitchen, 'tasks') + '/'
  let names
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const writers = []
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue
    let target
    let stat
    try {
      target = readlinkSync(`/proc/${n}/fd/1`)
      stat = readFileSync(`/proc/${n}/stat`, 'utf8')
    } catch {
      continue
    }
    if (!target.startsWith(tasksDir)) continue
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (f[0] === 'Z') continue
    writers.push({ pid: Number(n), pgid: Number(f[2]), task: target.slice(tasksDir.length).split('/')[0], target })
  }
  return writers
}
