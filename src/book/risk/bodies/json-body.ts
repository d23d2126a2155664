/**
 * What the JSON-manifest body readers (scripts, deno, composer, VS Code, Nx) share while they build
 * a body: the bounds (how deep a chain of calls is followed, how many lines one body may hold), the
 * set of definitions already read (so a cycle or a fan-out of calls is read once), and small path
 * and quoting helpers. The words of the body itself (BodyLine, UnknownPart) are types.ts'.
 */
import { posix } from 'node:path'
import { preview } from '../../../collectors/shared/guard.js'
import { shellWord } from '../../../base/quote.js'
import type { BodyLine, RecipeBody, UnknownPart } from '../types.js'

/** Calls followed inside a manifest: a chain deeper than this is cut (and said to be). */
export const MAX_DEPTH = 16
/** Lines one body holds; the rest of a huge fan-out is said to be unread. */
export const MAX_LINES = 2_000
const MAX_UNKNOWN = 500
/** How long a call's text may be in a `via` chain (a refusal shows it). */
const MAX_VIA_TEXT = 160

/** A body being read: its lines and unknown parts in order, and what was read already. */
export class BodyBuilder {
  readonly lines: BodyLine[] = []
  readonly unknown: UnknownPart[] = []
  /** Definitions read once per judgement (`<file>#<name>`): a cycle ends, a repeated call adds nothing. */
  private readonly seen = new Set<string>()
  private cut = false

  /**
   * Whether the definition `key`, reached through `via`, is to be read now: not when it was read
   * before (a cycle, a repeated call), nor past MAX_DEPTH (then said to be, and left unmarked so
   * that a shorter path still reads it).
   */
  enter(key: string, via: readonly string[], file: string): boolean {
    if (this.seen.has(key) || !this.deeper(via, file)) return false
    this.seen.add(key)
    return true
  }

  get full(): boolean {
    return this.lines.length >= MAX_LINES
  }

  line(line: BodyLine): void {
    if (this.full) return this.cutHere(line.file, line.via)
    this.lines.push(line)
  }

  part(part: UnknownPart): void {
    if (this.unknown.length < MAX_UNKNOWN) this.unknown.push(part)
  }

  /**
   * Whether a chain may go one call deeper; when not, says so as an unknown part (what lies
   * beyond is not read, so it can't be judged).
   */
  deeper(via: readonly string[], file: string): boolean {
    if (via.length <= MAX_DEPTH) return true
    this.part({ text: via[via.length - 1] ?? '', file, why: `calls nest more than ${MAX_DEPTH} deep; what the deepest call runs is not read`, via })
    return false
  }

  result(): RecipeBody {
    return { lines: this.lines, unknown: this.unknown }
  }

  private cutHere(file: string, via: readonly string[]): void {
    if (this.cut) return
    this.cut = true
    this.part({ text: '', file, why: `the body runs more than ${MAX_LINES} lines; the rest is not read`, via })
  }
}

/** A call's text as a `via` step: trimmed, one line, bounded. */
export function viaStep(text: string): string {
  return preview(text.trim().replace(/\s+/g, ' '), MAX_VIA_TEXT)
}

/** `text` with the call's extra words appended, each quoted as one shell word (as the runners pass them). */
export function withWords(text: string, words: readonly string[]): string {
  return words.length === 0 ? text : `${text} ${words.map(shellWord).join(' ')}`
}

/** The POSIX directory of a root-relative file (`.` for a file at the root). */
export function dirOf(file: string): string {
  return posix.dirname(file)
}

/** A root-relative file in a root-relative directory (`.` is the root). */
export function fileIn(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`
}

/**
 * `path` (relative to `base`, or POSIX-absolute under `root`) as a root-relative POSIX path;
 * undefined when it leaves the root. Lexical only: the collectors checked real paths at scan time.
 */
export function insideRel(root: string, base: string, path: string): string | undefined {
  const posixRoot = root.split('\\').join('/')
  let rel: string
  if (path.startsWith('/')) {
    const norm = posix.normalize(path)
    if (norm !== posixRoot && !norm.startsWith(posixRoot.endsWith('/') ? posixRoot : `${posixRoot}/`)) return undefined
    rel = posix.relative(posixRoot, norm)
  } else {
    rel = posix.normalize(posix.join(base, path))
  }
  rel = rel.replace(/\/+$/, '')
  if (rel === '' || rel === '.') return '.'
  if (rel === '..' || rel.startsWith('../') || rel.startsWith('/')) return undefined
  return rel
}
