/**
 * command-scout's cache directory: COMMAND_SCOUT_CACHE_DIR, else $XDG_CACHE_HOME/command-scout or
 * ~/.cache/command-scout, with a folder per kind (`code` for V8's code cache, `scans` for results
 * and remembered scans); none when COMMAND_SCOUT_CACHE=off. The launcher (through src/cli/launcher.ts)
 * and the scan cache share this one rule.
 *
 * A folder is used only when no other user can change what its paths lead to, as ssh judges its
 * own files: the folder and each directory above it up to the cache root (the home directory, or
 * XDG_CACHE_HOME or COMMAND_SCOUT_CACHE_DIR when that is not inside the home directory) must be a
 * real directory owned by this user or root and writable by neither group nor others; a symbolic
 * link on the way must be this user's or root's, and the directories it leads to are held to the
 * same rule (above the cache root a root-owned sticky directory such as /tmp passes, as no one else
 * can rename what is in it). Otherwise the run has no cache, silently. The folders are made one
 * level at a time, each checked before anything is made in it, and the check is made again right
 * before every write (`writePrivate`), which creates its temporary file exclusively (O_EXCL and
 * O_NOFOLLOW) and renames it into place. A folder is kept within a count and a size (`pruneFolder`,
 * oldest first).
 */
import {
  closeSync, constants, chmodSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync,
  type Stats,
} from 'node:fs'
import { homedir, userInfo } from 'node:os'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'

/** What one folder may hold before the oldest files go. */
export interface FolderBound {
  readonly files: number
  readonly bytes: number
}

/** V8's code caches: one per subcommand, Node and build (about 1 MiB each). */
export const CODE_BOUND: FolderBound = { files: 32, bytes: 64 * 1024 * 1024 }
/** Collector results (one file per scan root) and remembered scans (one per command line, up to 64 MiB each). */
export const SCANS_BOUND: FolderBound = { files: 256, bytes: 256 * 1024 * 1024 }
/** A temporary file older than this is left from a run that died while writing it. */
const STALE_TEMP_MS = 10 * 60 * 1000

interface Place {
  /** The command-scout directory. */
  readonly base: string
  /** Where the walk up from a folder stops (included). */
  readonly stop: string
}

function home(env: NodeJS.ProcessEnv): string {
  return resolve(env.HOME || homedir())
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep)
}

/** The command-scout directory and the cache root above it, undefined when caching is off. */
function place(env: NodeJS.ProcessEnv): Place | undefined {
  if (env.COMMAND_SCOUT_CACHE === 'off' || env.COMMAND_SCOUT_CACHE === '0') return undefined
  const h = home(env)
  if (env.COMMAND_SCOUT_CACHE_DIR) {
    const base = resolve(env.COMMAND_SCOUT_CACHE_DIR)
    return { base, stop: under(base, h) && base !== h ? h : base }
  }
  // XDG_CACHE_HOME must be absolute (the specification says a relative one is ignored).
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? resolve(env.XDG_CACHE_HOME) : undefined
  if (xdg) return { base: join(xdg, 'command-scout'), stop: under(xdg, h) ? h : xdg }
  return { base: join(h, '.cache', 'command-scout'), stop: h }
}

/** The path of a cache folder, undefined when caching is off. Nothing is made or checked. */
export function cacheFolderPath(folder: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const p = place(env)
  return p && join(p.base, folder)
}

const uid = (): number | undefined => process.getuid?.()

/** Owned by this user or root and writable by no one else: not by others, and by its group only when that is the user's private group. */
function owned(st: Stats, me: number): boolean {
  return (st.uid === me || st.uid === 0) && (st.mode & 0o002) === 0 && ((st.mode & 0o020) === 0 || (st.uid === me && privateGroup(st.gid)))
}

let groups: Map<number, boolean> | undefined
/**
 * Whether `gid` is this user's private group (named as the user, no other member), as on systems
 * that give each user one and a umask of 002 (as Debian's ssh accepts it). Asked only of a
 * group-writable directory.
 */
function privateGroup(gid: number): boolean {
  groups ??= new Map()
  let known = groups.get(gid)
  if (known === undefined) {
    known = false
    try {
      const user = userInfo().username
      const text = readFileSync('/etc/group', 'utf8')
      for (const line of text.split('\n')) {
        const [name, , id, members] = line.split(':')
        if (Number(id) === gid && name !== undefined) known = name === user && (members ?? '').trim() === '' && gid === process.getgid?.()
      }
    } catch {
      known = false
    }
    groups.set(gid, known)
  }
  return known
}

/**
 * Whether `dir` and every directory above it up to `stop` can be changed by this user and root
 * only (see the header). `stop` must be `dir` or above it.
 */
export function trustedChain(dir: string, stop: string): boolean {
  const me = uid()
  if (me === undefined) return true
  let linked = false
  try {
    for (let p = dir; ; p = dirname(p)) {
      const st = lstatSync(p)
      if (st.isSymbolicLink()) {
        if (st.uid !== me && st.uid !== 0) return false
        linked = true
      } else if (!st.isDirectory() || !owned(st, me)) return false
      if (p === stop || dirname(p) === p) break
    }
    if (!linked) return true
    // Through a link: the directories it leads to, up to the real cache root when the folder is
    // inside it, else up to /, where a root-owned sticky directory (/tmp) may stand above the folder.
    const real = realpathSync.native(dir)
    const realStop = realpathSync.native(stop)
    const inside = under(real, realStop)
    for (let p = real; ; p = dirname(p)) {
      const st = lstatSync(p)
      const sticky = !inside && p !== real && st.uid === 0 && (st.mode & 0o1000) !== 0
      if (!st.isDirectory() || !(owned(st, me) || sticky)) return false
      if ((inside && p === realStop) || dirname(p) === p) break
    }
    return true
  } catch {
    return false
  }
}

/** The cache root a folder's walk stops at: the configured one when the folder is inside it, else the folder itself. */
function stopFor(dir: string, env: NodeJS.ProcessEnv): string {
  const p = place(env)
  const abs = resolve(dir)
  return p && under(abs, p.base) ? p.stop : abs
}

/**
 * `dir` as a folder only this user can change, made (mode 0700, one level at a time, each level
 * checked first) when missing; undefined when that can't be had. `stop` is where the check of the
 * directories above it ends (by default the cache root, for a folder inside the cache directory).
 */
export function privateDir(dir: string, env: NodeJS.ProcessEnv = process.env, stop = stopFor(dir, env)): string | undefined {
  const target = resolve(dir)
  const me = uid()
  try {
    // The levels to make, from the first existing ancestor down.
    const missing: string[] = []
    let p = target
    for (;;) {
      if (lstatSync(p, { throwIfNoEntry: false })) break
      // Nothing is made above the cache root, nor the home directory itself.
      if (!under(p, stop) || p === home(env) || dirname(p) === p) return undefined
      missing.unshift(p)
      p = dirname(p)
    }
    // The first level that exists: checked when it is the cache root or below (above it is not ours to judge).
    if (under(p, stop) && !trustedChain(p, stop)) return undefined
    for (const level of missing) {
      try {
        mkdirSync(level, { mode: 0o700 })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined
      }
      if (!trustedChain(level, stop)) return undefined
    }
    const st = lstatSync(target)
    if (!st.isDirectory() || (me !== undefined && st.uid !== me)) return undefined
    // Ours alone to read, too: what repositories a user scans is nobody else's business.
    if ((st.mode & 0o077) !== 0) chmodSync(target, 0o700)
    return trustedChain(target, stop) ? target : undefined
  } catch {
    return undefined
  }
}

/** A cache folder made private and ready, or undefined (caching off, or the folder isn't safe to use). */
export function cacheFolder(folder: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const p = place(env)
  if (!p) return undefined
  return privateDir(join(p.base, folder), env, p.stop)
}

/** Whether a file in a trusted folder is this user's own regular file (never a link, never another's). */
export function ownFile(st: Stats | undefined): boolean {
  const me = uid()
  return st !== undefined && st.isFile() && (me === undefined || st.uid === me)
}

/** A name no other run picks: the pid and random digits (no node:crypto on the launcher's path). */
function tempName(file: string): string {
  return `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`
}

/**
 * Writes all of `part` at the file's offset. A text goes from the string itself: no copy of a scan's
 * output or results (hundreds of KB) into a buffer first; the rest of a short write, which a regular
 * file rarely gives, goes from its bytes.
 */
function writeAll(fd: number, part: string | Uint8Array): void {
  let bytes: Uint8Array
  let off = 0
  if (typeof part === 'string') {
    off = writeSync(fd, part)
    if (off === Buffer.byteLength(part)) return
    bytes = Buffer.from(part)
  } else bytes = part
  while (off < bytes.length) off += writeSync(fd, bytes, off)
}

/**
 * Writes `parts` to `file` in the private folder `dir` (checked again now, see the header): a
 * temporary file made with O_EXCL and O_NOFOLLOW, mode 0600, renamed over `file`; then the folder
 * is kept within `bound`. Never throws; false when nothing was written.
 */
export function writePrivate(
  dir: string,
  name: string,
  parts: ReadonlyArray<string | Uint8Array>,
  bound?: FolderBound,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (privateDir(dir, env) !== resolve(dir)) return false
  const file = join(dir, name)
  const tmp = tempName(file)
  let fd: number | undefined
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
    for (const part of parts) writeAll(fd, part)
    closeSync(fd)
    fd = undefined
    renameSync(tmp, file)
  } catch {
    if (fd !== undefined) closeSync(fd)
    try {
      unlinkSync(tmp)
    } catch {
      // never made
    }
    return false
  }
  if (bound) pruneFolder(dir, bound, name)
  return true
}

/**
 * Keeps a cache folder within `bound`: the oldest files (by modification time) are removed until
 * at most `bound.files` files of at most `bound.bytes` in all are left, and temporary files a dead
 * run left are removed. `keep` (the file just written) stays. Never throws.
 */
export function pruneFolder(dir: string, bound: FolderBound, keep?: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  const now = Date.now()
  const files: Array<{ name: string; size: number; mtime: number }> = []
  let bytes = 0
  for (const name of names) {
    let st: Stats
    try {
      st = lstatSync(join(dir, name))
    } catch {
      continue
    }
    if (!st.isFile()) continue
    if (name.endsWith('.tmp')) {
      if (now - st.mtimeMs > STALE_TEMP_MS) remove(join(dir, name))
      continue
    }
    files.push({ name, size: st.size, mtime: st.mtimeMs })
    bytes += st.size
  }
  if (files.length <= bound.files && bytes <= bound.bytes) return
  files.sort((a, b) => a.mtime - b.mtime)
  let count = files.length
  for (const f of files) {
    if (count <= bound.files && bytes <= bound.bytes) break
    if (f.name === keep) continue
    if (remove(join(dir, f.name))) count--, (bytes -= f.size)
  }
}

function remove(path: string): boolean {
  try {
    unlinkSync(path)
    return true
  } catch {
    return false
  }
}
