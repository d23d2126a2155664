/**
 * The lease (`pass.lock`): which session owns the kitchen, gets the wakes and may launch. It is stale
 * when its pid is dead or that pid started at another time (a reused pid). The O_EXCL run claim, not
 * the lease, is the hard guard against a double launch; the lease decides who writes and who is woken.
 */
import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile, unlink } from 'node:fs/promises'
import { check } from './check.js'
import { lease as leaseParser, type Lease } from './domain.js'
import { pidAlive, procStat } from './cooks.js'

/** Who this process is: the pid and its start time, as the lease records them. */
export interface Identity {
  pid: number
  pidStart: string
}

/** Is the process that holds a lease still that process. Injected in tests to simulate a dead owner. */
export type HolderAlive = (holder: Identity) => Promise<boolean>

export const holderAlive: HolderAlive = async (h) => {
  if (!pidAlive(h.pid)) return false
  const st = await procStat(h.pid)
  return st !== undefined && !st.zombie && st.start === h.pidStart
}

export async function selfIdentity(): Promise<Identity> {
  const st = await procStat(process.pid)
  return { pid: process.pid, pidStart: st?.start ?? 'unknown' }
}

export async function readLease(path: string): Promise<Lease | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    const r = check(leaseParser, JSON.parse(text))
    return r.ok ? r.value : undefined
  } catch {
    return undefined
  }
}

export function sameHolder(a: Lease | undefined, b: Lease): boolean {
  return a !== undefined && a.pid === b.pid && a.pidStart === b.pidStart && a.sessionId === b.sessionId
}

export type Acquire = { kind: 'owner'; lease: Lease } | { kind: 'held'; holder: Lease }

/**
 * Take the lease when it is free, stale, unreadable, or when `takeover` says so. A free lease is
 * created with O_EXCL; a stale one is replaced by tmp plus rename, then read back, so of two sessions
 * that replace it at once only the one whose write stayed becomes the owner.
 */
export async function acquireLease(path: string, mine: Lease, alive: HolderAlive, takeover = false): Promise<Acquire> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await readLease(path)
    if (current && sameHolder(current, mine)) return { kind: 'owner', lease: current }
    if (current === undefined) {
      try {
        await writeFile(path, JSON.stringify(mine) + '\n', { flag: 'wx', mode: 0o600 })
        return { kind: 'owner', lease: mine }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        // a file that exists but does not parse: replace it as stale below
        if ((await readLease(path)) === undefined) {
          await replace(path, mine)
          if (sameHolder(await readLease(path), mine)) return { kind: 'owner', lease: mine }
        }
        continue
      }
    }
    if (!takeover && (await alive(current))) return { kind: 'held', holder: current }
    await replace(path, mine)
    const after = await readLease(path)
    if (sameHolder(after, mine)) return { kind: 'owner', lease: mine }
    if (after) return { kind: 'held', holder: after }
  }
  const holder = await readLease(path)
  return holder ? { kind: 'held', holder } : { kind: 'held', holder: mine }
}

async function replace(path: string, lease: Lease): Promise<void> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(tmp, JSON.stringify(lease) + '\n', { mode: 0o600 })
  try {
    await rename(tmp, path)
  } catch (error) {
    await unlink(tmp).catch(() => {})
    throw error
  }
}

/** Give the lease up, only when it is still ours. */
export async function releaseLease(path: string, mine: Lease): Promise<void> {
  if (sameHolder(await readLease(path), mine)) await unlink(path).catch(() => {})
}
