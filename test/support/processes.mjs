// Process helpers for tests that check a tree is gone: liveness from /proc (a zombie is dead),
// and polling for a state with a deadline (never a fixed sleep as synchronisation).
import { readFileSync } from 'node:fs'

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
