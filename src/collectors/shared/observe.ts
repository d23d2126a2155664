/**
 * What a collector looked at, so that its result can be reused while all of it still holds
 * (src/book/scan-cache.ts). Every file-system question a collector asks goes through the helpers in
 * fs.ts, and each helper records its question and the answer's fingerprint here: a stat (device,
 * inode, mode, size, mtime, ctime, or "nothing there"), a directory listing (the directory's own
 * stat, which changes whenever an entry is added, removed or renamed), a real path (the resolved
 * string), an environment variable (its value). `stillHolds` asks every question again.
 *
 * Why that proves a result fresh: a collector's output is a function of the answers it got (it
 * reads nothing else: no clock, no randomness, no network), so the same answers give the same
 * output. Any write to a file or directory sets its ctime to the kernel's current time, and ctime
 * can't be set back by a user; so a later change shows as a different fingerprint, unless it lands
 * in the same timestamp tick as the recorded one. `settledBefore` rules that out: a result is kept
 * only when everything it looked at was last changed well before the scan began (SETTLE_MS, past
 * any file system's timestamp granularity), the rule git uses for its "racily clean" index.
 */
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs'

/** How long ago everything a result looked at must have last changed for the result to be kept. */
export const SETTLE_MS = 2_000

export interface Observations {
  /** `kind\0subject` → the answer's fingerprint. The first answer is kept: a later, different one only makes the record stale sooner. */
  readonly seen: Map<string, string>
  /** Newest mtime or ctime among the stats seen, in epoch milliseconds. */
  newest: number
}

let current: Observations | undefined

/** Runs `fn` recording what it looks at; nested calls record into the outer record too. */
export function observing<T>(fn: () => T): { value: T; observations: Observations } {
  const outer = current
  const mine: Observations = { seen: new Map(), newest: 0 }
  current = mine
  try {
    return { value: fn(), observations: mine }
  } finally {
    current = outer
    if (outer) {
      for (const [k, v] of mine.seen) if (!outer.seen.has(k)) outer.seen.set(k, v)
      outer.newest = Math.max(outer.newest, mine.newest)
    }
  }
}

function note(key: string, fingerprint: string): void {
  const o = current
  if (o && !o.seen.has(key)) o.seen.set(key, fingerprint)
}

function statPrint(st: Stats | undefined): string {
  if (!st) return '-'
  const o = current
  if (o) o.newest = Math.max(o.newest, st.mtimeMs, st.ctimeMs)
  return `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
}

function errorPrint(error: unknown): string {
  return `!${(error as NodeJS.ErrnoException)?.code ?? 'error'}`
}

/** statSync (following links), recorded; undefined when nothing is there, throws like statSync otherwise. */
export function observedStat(path: string): Stats | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false })
    if (current) note(`s\0${path}`, statPrint(st))
    return st
  } catch (error) {
    if (current) note(`s\0${path}`, errorPrint(error))
    throw error
  }
}

/** readdirSync with file types, recorded by the directory's own stat; throws like readdirSync. */
export function observedReaddir(path: string): Dirent[] {
  if (current) {
    let print: string
    try {
      print = statPrint(statSync(path, { throwIfNoEntry: false }))
    } catch (error) {
      print = errorPrint(error)
    }
    note(`s\0${path}`, print)
  }
  return readdirSync(path, { withFileTypes: true })
}

/** realpathSync.native, recorded; throws like it. */
export function observedRealpath(path: string): string {
  try {
    const real = realpathSync.native(path)
    if (current) note(`r\0${path}`, real)
    return real
  } catch (error) {
    if (current) note(`r\0${path}`, errorPrint(error))
    throw error
  }
}

/** An environment variable a collector reads, recorded. */
export function observedEnv(name: string): string | undefined {
  const value = process.env[name]
  if (current) note(`e\0${name}`, value === undefined ? '-' : `=${value}`)
  return value
}

/** The answer a recorded question (`kind\0subject`) gets now, fingerprinted as when it was recorded; undefined for a kind this build does not know. */
export function answerNow(key: string): string | undefined {
  const at = key.indexOf('\0')
  const kind = key.slice(0, at)
  const subject = key.slice(at + 1)
  try {
    if (kind === 's') return statPrint(statSync(subject, { throwIfNoEntry: false }))
    if (kind === 'r') return realpathSync.native(subject)
    if (kind === 'e') return process.env[subject] === undefined ? '-' : `=${process.env[subject]}`
    return undefined
  } catch (error) {
    return errorPrint(error)
  }
}

/** Asks every recorded question again: true when each answer has the same fingerprint. */
export function stillHolds(seen: Iterable<readonly [string, string]>): boolean {
  for (const [key, print] of seen) if (answerNow(key) !== print) return false
  return true
}

/** Records the stat of `path` as a collector's stat would (for what a scan reads outside the collectors). */
export function noteStat(o: Observations, path: string): void {
  const outer = current
  current = o
  try {
    observedStat(path)
  } catch {
    // recorded as an error answer
  } finally {
    current = outer
  }
}

/** Whether everything recorded was last changed at least SETTLE_MS (or `settleMs`) before `startedAt`. */
export function settledBefore(o: Observations, startedAt: number, settleMs = SETTLE_MS): boolean {
  return o.newest < startedAt - settleMs
}
