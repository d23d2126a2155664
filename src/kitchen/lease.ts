/**
 * The lease (`pass.lock`): which session owns the kitchen, gets the wakes and may launch. It is stale
 * when its pid is dead or that pid started at another time (a reused pid). The O_EXCL run claim, not
 * the lease, is the hard guard against a double launch; the lease decides who writes and who is woken.
 */
import { unlinkSync } from 'node:fs'
import type { Lease } from './domain.js'
import type { Store } from './store.js'
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

export function sameHolder(a: Lease | undefined, b: Lease): boolean {
  return a !== undefined && a.pid === b.pid && a.pidStart === b.pidStart && a.sessionId === b.sessionId
}

export function currentLease(store: Store): Lease | undefined {
  const r = store.readLease()
  return r.kind === 'lease' ? r.lease : undefined
}

export type Acquire = { kind: 'owner'; lease: Lease } | { kind: 'held'; holder: Lease }

/**
 * Take the lease when it is free, stale, unreadable, or when `takeover` says so. A free lease is
 * created exclusively; a stale one is replaced by tmp plus rename and read back, so of two sessions
 * that replace it at once only the one whose write stayed becomes the owner.
 */
export async function acquireLease(store: Store, mine: Lease, alive: HolderAlive, takeover = false): Promise<Acquire> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = store.readLease()
    if (r.kind === 'lease' && sameHolder(r.lease, mine)) return { kind: 'owner', lease: r.lease }
    if (r.kind === 'none') {
      if (store.createLease(mine)) return { kind: 'owner', lease: mine }
      continue
    }
    if (r.kind === 'lease' && !takeover && (await alive(r.lease))) return { kind: 'held', holder: r.lease }
    store.replaceLease(mine)
    const after = currentLease(store)
    if (sameHolder(after, mine)) return { kind: 'owner', lease: mine }
    if (after) return { kind: 'held', holder: after }
  }
  const holder = currentLease(store)
  return holder ? { kind: 'held', holder } : { kind: 'held', holder: mine }
}

/** Give the lease up (the caller checked that it holds it). */
export function releaseLease(store: Store): void {
  try {
    unlinkSync(store.leaseFile)
  } catch {
    // already gone
  }
}
