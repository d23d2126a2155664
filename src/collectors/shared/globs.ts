/**
 * Globs with bounds. A pattern is checked before it reaches the glob libraries (picomatch compiles
 * `*a*a*a*a` into a regular expression that backtracks for seconds per file name, and a brace
 * range or a brace product can stand for millions of patterns), and tinyglobby crawls through a
 * file-system adapter that lists each real directory once (so `a -> .` and `b -> .` links don't
 * double the tree at every level), stays inside the root when asked to, and stops at the scan's
 * directory cap and time budget. tinyglobby has no such limits of its own; its `fs` option is the
 * documented way in.
 */
import type { Dirent, Stats } from 'node:fs'
import { sep } from 'node:path'
import { isInside, joinPath, realPath } from './fs.js'
import { observedReaddir, observedRealpath, observedStat } from './observe.js'
import { activeGuard, MAX_DIRECTORIES, outOfTime, realRoot, startsOnInput, tooDeep } from './guard.js'
import { picomatch, tinyglobby } from '../../base/lazy.js'

export const MAX_PATTERN_LENGTH = 512
const MAX_BRACE_GROUPS = 16
const MAX_BRACE_DEPTH = 4
/** Patterns one pattern may stand for once its braces are expanded. */
const MAX_BRACE_EXPANSION = 1_000
/** `*` per path segment (`**` aside): each one more multiplies picomatch's backtracking by a file name's length. */
const MAX_STARS_PER_SEGMENT = 2
const MAX_EXTGLOBS = 4

/**
 * Why a glob pattern is too complex to hand to the glob libraries, or undefined when it is fine.
 * The limits are far above what a real workspace or include pattern needs.
 */
export function globTooComplex(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `it is longer than ${MAX_PATTERN_LENGTH} characters`
  let groups = 0
  let depth = 0
  // Alternatives counted per open group; the product bounds the expansion.
  const stack: number[] = []
  let product = 1
  let extglobs = 0
  let extDepth = 0
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === '{') {
      groups++
      depth++
      if (groups > MAX_BRACE_GROUPS) return `it has more than ${MAX_BRACE_GROUPS} brace groups`
      if (depth > MAX_BRACE_DEPTH) return `its braces nest more than ${MAX_BRACE_DEPTH} deep`
      const close = pattern.indexOf('}', i)
      const range = close === -1 ? null : /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.-?\d+)?\}$/.exec(pattern.slice(i, close + 1))
      if (range) {
        const a = /\d/.test(range[1]!) ? Number(range[1]) : range[1]!.charCodeAt(0)
        const b = /\d/.test(range[2]!) ? Number(range[2]) : range[2]!.charCodeAt(0)
        const span = Math.abs(b - a) + 1
        if (!Number.isFinite(span) || span > MAX_BRACE_EXPANSION) return `its range ${pattern.slice(i, close + 1)} stands for more than ${MAX_BRACE_EXPANSION} names`
        product *= span
        if (product > MAX_BRACE_EXPANSION) return `its braces stand for more than ${MAX_BRACE_EXPANSION} patterns`
        depth--
        i = close
        continue
      }
      stack.push(1)
      continue
    }
    if (c === ',' && stack.length) {
      stack[stack.length - 1]!++
      continue
    }
    if (c === '}' && stack.length) {
      product *= stack.pop()!
      depth--
      if (product > MAX_BRACE_EXPANSION) return `its braces stand for more than ${MAX_BRACE_EXPANSION} patterns`
      continue
    }
    if ((c === '+' || c === '*' || c === '@' || c === '!' || c === '?') && pattern[i + 1] === '(') {
      extglobs++
      extDepth++
      if (extglobs > MAX_EXTGLOBS) return `it has more than ${MAX_EXTGLOBS} extglob groups`
      if (extDepth > 1) return 'its extglob groups nest'
      i++
      continue
    }
    if (c === ')' && extDepth > 0) extDepth--
  }
  for (const segment of pattern.split('/')) {
    if (segment === '**') continue
    const stars = segment.replace(/\*+/g, '*').split('*').length - 1
    if (stars > MAX_STARS_PER_SEGMENT) return `a path segment has more than ${MAX_STARS_PER_SEGMENT} "*" (${segment.slice(0, 40)}${segment.length > 40 ? '...' : ''})`
  }
  return undefined
}

/** A picomatch matcher over the patterns that are not too complex; the others are returned in `refused`. */
export function boundedMatcher(
  patterns: readonly string[], options?: Parameters<ReturnType<typeof picomatch>>[1],
): { match: (path: string) => boolean; refused: string[] } {
  const ok: string[] = []
  const refused: string[] = []
  for (const p of patterns) (globTooComplex(p) === undefined ? ok : refused).push(p)
  if (ok.length === 0) return { match: () => false, refused }
  try {
    return { match: picomatch()(ok, options), refused }
  } catch {
    return { match: () => false, refused: [...patterns] }
  }
}

export interface CrawlOptions {
  /** Never list a directory whose real path is outside `root` (workspace members). */
  insideRoot: boolean
}

export interface Crawler {
  /**
   * A directory's entries; none when it was listed before (by real path), is outside the root when
   * that is asked, or past the cap or budget. `real`: its real path, when the caller knows it
   * without asking (a plain directory in its parent's listing: the parent's real path and its name).
   */
  readdir(path: string, real?: string): Dirent[]
  /** A stat following links; throws ENOENT when nothing is there. */
  stat(path: string): Stats
  realpath(path: string): string
}

/**
 * How the bounded crawls read directories: each real directory listed once, inside the root when
 * asked, and nothing past the scan's directory cap or budget. Each call goes through observe.ts.
 */
export function crawler(root: string, options: CrawlOptions): Crawler {
  const base = realRoot(root)
  const listed = new Set<string>()
  // A plain subdirectory's real path is its parent's plus its name: known from the parent's
  // listing (which observe.ts records), so a crawl asks the real path of a link only, never of
  // every directory (each such call costs the square of the path's depth).
  const realOf = new Map<string, string>()
  const readdir = (path: string, known?: string): Dirent[] => {
    if (outOfTime()) return []
    const guard = activeGuard()
    if (guard && guard.directories >= MAX_DIRECTORIES) {
      guard.directoriesCapped = true
      return []
    }
    const dir = path.length > 1 && (path.endsWith('/') || path.endsWith(sep)) ? path.slice(0, -1) : path
    if (tooDeep(dir)) return []
    let real: string
    try {
      real = known ?? realOf.get(dir) ?? observedRealpath(dir)
    } catch {
      return []
    }
    if (listed.has(real) || (options.insideRoot && !isInside(real, base))) return []
    listed.add(real)
    if (guard) guard.directories++
    let entries: Dirent[]
    try {
      entries = observedReaddir(dir)
    } catch {
      return []
    }
    startsOnInput(entries.length)
    // A caller that knew this directory's real path knows its children's too (workspace-patterns.ts's
    // crawl passes them): only a listing reached without one keeps them here.
    if (known === undefined) for (const e of entries) if (e.isDirectory()) realOf.set(joinPath(dir, e.name), joinPath(real, e.name))
    return entries
  }
  const stat = (path: string): Stats => {
    const st = observedStat(path)
    if (!st) throw Object.assign(new Error(`ENOENT: no such file or directory, stat '${path}'`), { code: 'ENOENT' })
    return st
  }
  return { readdir, stat, realpath: realPath }
}

/** The `fs` adapter tinyglobby crawls with: a crawler's rules. */
export function crawlFs(root: string, options: CrawlOptions) {
  const c = crawler(root, options)
  // tinyglobby types its adapter as node:fs itself; the crawler calls readdirSync(path, { withFileTypes: true }),
  // and realpathSync and statSync(path) when it follows a symbolic link.
  return { readdirSync: ((path: string) => c.readdir(path)) as never, realpathSync: c.realpath as never, statSync: c.stat as never }
}

export interface BoundedGlobOptions {
  cwd: string
  /** The scan root the crawl belongs to (for `insideRoot` and the real-path bookkeeping). */
  root: string
  insideRoot: boolean
  ignore?: readonly string[]
  onlyFiles?: boolean
  onlyDirectories?: boolean
  absolute?: boolean
  dot?: boolean
  deep?: number
}

/**
 * tinyglobby's globSync over the patterns that pass `globTooComplex`, through `crawlFs`, never
 * throwing: a pattern it can't handle (it throws on some, such as `....../package.json`) or that is
 * too complex is left out and returned in `bad` with the reason.
 */
export function boundedGlob(patterns: readonly string[], options: BoundedGlobOptions): { files: string[]; bad: Array<{ pattern: string; reason: string }> } {
  const bad: Array<{ pattern: string; reason: string }> = []
  const ok: string[] = []
  for (const p of patterns) {
    const why = globTooComplex(p)
    if (why) bad.push({ pattern: p, reason: why })
    else ok.push(p)
  }
  if (ok.length === 0) return { files: [], bad }
  const { root, insideRoot, ...rest } = options
  const opts = {
    expandDirectories: false,
    onlyFiles: true,
    ...rest,
    ignore: rest.ignore ? [...rest.ignore] : [],
    fs: crawlFs(root, { insideRoot }),
  }
  try {
    return { files: tinyglobby().globSync(ok, opts), bad }
  } catch {
    const files: string[] = []
    for (const p of ok) {
      try {
        files.push(...tinyglobby().globSync([p], { ...opts, fs: crawlFs(root, { insideRoot }) }))
      } catch {
        bad.push({ pattern: p, reason: 'the glob library could not read it' })
      }
    }
    return { files: [...new Set(files)], bad }
  }
}
