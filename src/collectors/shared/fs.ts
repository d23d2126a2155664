/**
 * Small synchronous file helpers shared by the collectors, and the guarantees every read gets
 * through them: only regular files are read (never a FIFO or a device, whatever a symlink points
 * to), never more than MAX_MANIFEST_BYTES, nothing once the scan's time budget is spent, and a
 * file that can't be read is reported (through the active guard, see guard.ts) instead of
 * looking missing, and nothing more than MAX_DEPTH directories below the root is read, listed
 * or resolved (a real-path call's cost grows with the square of the depth). Every question a collector asks the file system goes through here (and
 * observe.ts records it), so that a result can be proved fresh without running the collector.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Dirent, type Stats } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { MAX_DEPTH, MAX_MANIFEST_BYTES, outOfTime, preview, realRoot, reportProblem, startsOnInput, tooDeep } from './guard.js'
import { observedEnv, observedReaddir, observedRealpath, observedStat } from './observe.js'

export { MAX_MANIFEST_BYTES, preview } from './guard.js'

export type ReadOutcome =
  | { readonly kind: 'text'; readonly text: string }
  /** Nothing there (or a directory, which is no file to read). */
  | { readonly kind: 'missing' }
  /** It is there but was not read; `reason` says why, for a message. */
  | { readonly kind: 'refused'; readonly reason: string }

export interface ReadTextOptions {
  /** Keep a UTF-8 byte-order mark (deno refuses files that have one, so its collector wants to see it). */
  keepBom?: boolean
  /** Largest size read; default MAX_MANIFEST_BYTES. */
  maxBytes?: number
  /** The name of that limit, for the diagnostic. */
  limitName?: string
}

/** Reads a text file, dropping a UTF-8 byte-order mark; undefined when it is missing or not readable (the reason is reported). */
export function readText(path: string): string | undefined {
  const r = readFileText(path)
  return r.kind === 'text' ? r.text : undefined
}

/** What kind of special file a stat is, in words, or undefined for a regular file or directory. */
function specialKind(st: Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  if (st.isSocket()) return 'a socket'
  if (!st.isFile() && !st.isDirectory()) return 'not a regular file'
  return undefined
}

function errorReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException)?.code
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
    case 'EISDIR':
      return undefined
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ELOOP':
      return 'it is a symbolic link loop'
    case 'ENAMETOOLONG':
      return 'its path is too long'
    default:
      return code ? `the system refused it (${code})` : String((error as Error)?.message ?? error)
  }
}

function mib(bytes: number): string {
  const v = bytes / (1024 * 1024)
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} MiB`
}

/**
 * Reads a text file with every guarantee, saying what happened. A refusal is also reported once
 * to the active guard (so the scan shows a diagnostic for it); a missing file is not.
 */
export function readFileText(path: string, options: ReadTextOptions = {}): ReadOutcome {
  if (outOfTime()) return { kind: 'refused', reason: 'the scan ran out of time' }
  if (tooDeep(path)) return { kind: 'refused', reason: `it is more than ${MAX_DEPTH} directories deep (MAX_DEPTH)` }
  const limit = options.maxBytes ?? MAX_MANIFEST_BYTES
  const refuse = (reason: string): ReadOutcome => {
    reportProblem(path, `${reason}; it is not read`, 'error', `read\0${path}`)
    return { kind: 'refused', reason }
  }
  let st: Stats | undefined
  try {
    st = observedStat(path)
  } catch (error) {
    const reason = errorReason(error)
    return reason === undefined ? { kind: 'missing' } : refuse(`can't be read: ${reason}`)
  }
  if (!st || st.isDirectory()) return { kind: 'missing' }
  const special = specialKind(st)
  if (special) return refuse(`is ${special}, not a regular file (reading it could block or never end)`)
  const limitName = options.maxBytes === undefined ? 'MAX_MANIFEST_BYTES' : options.limitName ?? 'the limit for this file'
  if (st.size > limit) return refuse(`is ${mib(st.size)}, over the ${mib(limit)} limit for a manifest (${limitName})`)
  // From here the collector works on input: under the wall clock (guard.ts, runGuarded).
  startsOnInput()
  let fd: number
  try {
    // O_NONBLOCK: should the path turn into a FIFO between the stat and the open, the open
    // must not wait for a writer; O_NOCTTY: never adopt a terminal.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0))
  } catch (error) {
    const reason = errorReason(error)
    return reason === undefined ? { kind: 'missing' } : refuse(`can't be read: ${reason}`)
  }
  try {
    const opened = fstatSync(fd)
    if (!opened.isFile()) return refuse(`is ${specialKind(opened) ?? 'not a regular file'}, not a regular file`)
    // Read at most limit + 1 bytes: a file that grows past the cap while it is read is refused too.
    // The first buffer fits the stat's size (one read for the usual file, no 64 KiB buffers to collect).
    const chunks: Buffer[] = []
    let total = 0
    let size = Math.min(opened.size, limit) + 1
    for (;;) {
      const buf = Buffer.allocUnsafe(size)
      const n = readSync(fd, buf, 0, buf.length, null)
      if (n === 0) break
      // A file that stats as empty yet has content is a pseudo-file (/proc/self/environ, /sys/...):
      // its text is the system's, not the repository's.
      if (opened.size === 0) return refuse('is a pseudo-file of the system (it reports a size of 0 but has content)')
      chunks.push(n === buf.length ? buf : buf.subarray(0, n))
      total += n
      if (total > limit) return refuse(`is over the ${mib(limit)} limit for a manifest (${limitName})`)
      // A regular file reads short only at its end: no second read to learn that.
      if (n < buf.length) break
      size = Math.min(64 * 1024, limit + 1 - total)
    }
    const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)).toString('utf8')
    return { kind: 'text', text: !options.keepBom && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text }
  } catch (error) {
    return refuse(`can't be read: ${errorReason(error) ?? 'it vanished while being read'}`)
  } finally {
    closeSync(fd)
  }
}

/** The stat of `path` (following symlinks), undefined when nothing is there, it can't be asked, or the scan is out of time. */
export function statPath(path: string): Stats | undefined {
  if (outOfTime()) return undefined
  try {
    return observedStat(path)
  } catch {
    return undefined
  }
}

/** A directory's entries with their types; throws like readdirSync; none more than MAX_DEPTH below the root. */
export function listDir(path: string): Dirent[] {
  if (tooDeep(path)) return []
  const entries = observedReaddir(path)
  startsOnInput(entries.length)
  return entries
}

/** The error a real-path call gives for a path too deep to resolve (guard.ts's MAX_DEPTH). */
function tooDeepError(path: string): Error {
  return Object.assign(new Error(`ENAMETOOLONG: more than ${MAX_DEPTH} directories deep, realpath '${path}'`), { code: 'ENAMETOOLONG' })
}

/** The real path (symlinks resolved); throws like realpathSync.native, and for a path more than MAX_DEPTH below the root. */
export function realPath(path: string): string {
  if (tooDeep(path)) throw tooDeepError(path)
  return observedRealpath(path)
}

/** The real path, or `path` itself when it can't be resolved (a missing include keeps its name; one too deep is not read, see readFileText). */
export function realOrSelf(path: string): string {
  if (tooDeep(path)) return path
  try {
    return observedRealpath(path)
  } catch {
    return path
  }
}

/** An environment variable a collector's result depends on (cmake's `$ENV{...}`, the home directory). */
export function envVar(name: string): string | undefined {
  return observedEnv(name)
}

/** Whether `path` is a regular file (following symlinks); false once the scan is out of time. */
export function isFile(path: string): boolean {
  return statPath(path)?.isFile() ?? false
}

export function isDir(path: string): boolean {
  return statPath(path)?.isDirectory() ?? false
}

/** Whether anything is at `path` (a file, a directory, a FIFO, ...), following symlinks. */
export function pathExists(path: string): boolean {
  return statPath(path) !== undefined
}

/** A path that path.join would change: an empty, `.` or `..` segment, or a trailing separator. */
const UNNORMAL = /\/\/|(?:^|\/)\.\.?(?:\/|$)|.\/$/

/**
 * `join(base, rel)` for the common case of an absolute, normalized `base` and a relative path of
 * plain names, without node:path's pass over every character of both (a first scan runs it in
 * the interpreter once per manifest and directory); anything else goes to join itself.
 */
export function joinPath(base: string, rel: string): string {
  if (sep !== '/' || base.charCodeAt(0) !== 47 || rel === '' || rel.charCodeAt(0) === 47 || UNNORMAL.test(base) || UNNORMAL.test(rel)) return join(base, rel)
  return base === '/' ? `/${rel}` : `${base}/${rel}`
}

/** POSIX path of `abs` relative to `root`, `.` for the root itself. */
export function relPosix(root: string, abs: string): string {
  const rel = relative(root, abs).split(sep).join('/')
  return rel === '' ? '.' : rel
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

export type InsideRoot =
  /** `real` is the absolute real path, `rel` its POSIX path relative to the root's real path. */
  | { readonly ok: true; readonly real: string; readonly rel: string }
  | { readonly ok: false; readonly why: 'missing' | 'outside' | 'unreadable'; readonly message: string }

/** Whether the absolute real path `real` is `base` or below it (both normalized, as realpath returns them). */
export function isInside(real: string, base: string): boolean {
  if (real === base) return true
  return real.startsWith(base.endsWith(sep) ? base : base + sep)
}

/**
 * Resolves a workspace member (or any path a manifest names) by real path and checks that it is
 * inside the scan root: symlinks are followed, and a member that ends up outside, or in a loop,
 * is refused with a message that says so. `path` is absolute or relative to the root.
 * Two paths to one directory give the same `rel`, so a caller can read each member once.
 */
export function resolveInsideRoot(root: string, path: string): InsideRoot {
  const abs = isAbsolute(path) ? path : joinPath(root, path)
  const shown = preview(relPosix(root, abs))
  if (tooDeep(abs)) return { ok: false, why: 'unreadable', message: `${shown} is more than ${MAX_DEPTH} directories below the scanned directory (MAX_DEPTH); it is not read` }
  let real: string
  try {
    real = observedRealpath(abs)
  } catch (error) {
    const reason = errorReason(error)
    return reason === undefined
      ? { ok: false, why: 'missing', message: `${shown} does not exist` }
      : { ok: false, why: 'unreadable', message: `${shown} can't be resolved: ${reason}` }
  }
  const base = realRoot(root)
  if (!isInside(real, base)) {
    return { ok: false, why: 'outside', message: `${shown} resolves to ${real}, outside the scanned directory; it is not read` }
  }
  const rel = real === base ? '.' : real.slice(base.endsWith(sep) ? base.length : base.length + 1)
  return { ok: true, real, rel: sep === '/' ? rel : rel.split(sep).join('/') }
}
