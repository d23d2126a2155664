/**
 * What the text-manifest readers (just, Taskfile, mise, Python task runners) share: a body being
 * built with its bounds, values that may hold parts known only at run time, and the paths a line
 * carries. Each runner's own expansion lives in its reader; this module only keeps the results.
 *
 * A value known only at run time (a just backtick, a go-task `sh:` variable, an environment
 * variable) is rendered into the line as a quoted shell parameter (`"${dir}"`), so the shell judge
 * sees a word whose value it can't know, and the line as written goes to `unknown` as well, with
 * the source of the value, so that destructive words hidden there are still found.
 */
import { posix, relative, resolve, sep } from 'node:path'
import type { BodyLine, RecipeBody, UnknownPart } from '../types.js'
import { shellWord } from '../../../base/quote.js'

/** How deep chains are followed (dependencies, calls, includes, modules). */
export const MAX_DEPTH = 16
/** Lines one body holds; past it the rest is one unknown part. */
export const MAX_LINES = 2_000
/** Unknown parts one body holds. */
export const MAX_UNKNOWN = 500
/** Recipes, tasks and scripts one body follows in all (a wide tree of calls multiplies fast). */
export const MAX_CALLS = 5_000
/** Characters one body's lines hold in all (a loop over a long line multiplies it). */
export const MAX_BODY_CHARS = 8 * 1024 * 1024
/** Longest value a static expansion makes (a doubling chain of assignments grows fast). */
export const MAX_VALUE = 100_000

/** A part of a value known only at run time: the name it is shown as, why, and where it comes from. */
export interface Hole {
  readonly hole: string
  readonly why: string
  /** The definition it comes from, as written (`dir := \`pwd\``), searched for destructive words. */
  readonly source?: string
}
export type Piece = string | Hole
/** A value as pieces: strings known statically, holes known only at run time. */
export type Value = readonly Piece[]

export const known = (text: string): Value => [text]
export const hole = (name: string, why: string, source?: string): Value => [{ hole: name, why, ...(source !== undefined ? { source } : {}) }]

export function isKnown(value: Value): boolean {
  return value.every((p) => typeof p === 'string')
}

/** The text of a value whose pieces are all known, else undefined. */
export function knownText(value: Value): string | undefined {
  return isKnown(value) ? value.join('') : undefined
}

/** Holes one value keeps apart; past it the value is one hole (doubling chains multiply them too). */
const MAX_HOLES = 64

/** Joins values; adjacent strings merge. A result longer than MAX_VALUE (or with too many holes) becomes a hole. */
export function concat(...values: Value[]): Value {
  const out: Piece[] = []
  let size = 0
  let gaps = 0
  for (const v of values) {
    for (const p of v) {
      if (typeof p === 'string') {
        size += p.length
        if (p === '') continue
        if (typeof out[out.length - 1] === 'string') out[out.length - 1] = (out[out.length - 1] as string) + p
        else out.push(p)
      } else {
        // Two unknown words side by side are one unknown word.
        const last = out[out.length - 1]
        if (typeof last !== 'string' && last !== undefined && last.hole === p.hole && last.why === p.why) continue
        size += p.hole.length + 5
        gaps++
        out.push(p)
      }
      if (size > MAX_VALUE || gaps > MAX_HOLES) {
        return hole('UNKNOWN', `the value grows past ${MAX_VALUE} characters (MAX_VALUE), so it is not expanded`)
      }
    }
  }
  return out
}

/** A shell parameter name for a hole (`my-var` → `my_var`). */
function parameterName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_')
  return /^[A-Za-z_]/.test(clean) ? clean : 'UNKNOWN'
}

/** The placeholder a hole becomes in a line. */
export function holeWord(name: string): string {
  return `"\${${parameterName(name)}}"`
}

/** A value as line text: holes as quoted shell parameters. */
export function render(value: Value): string {
  return value.map((p) => (typeof p === 'string' ? p : holeWord(p.hole))).join('')
}

export function holes(value: Value): Hole[] {
  return value.filter((p): p is Hole => typeof p !== 'string')
}

/** POSIX path of `abs` relative to `root` (`.` for the root itself; `../x` outside it). */
export function relPath(root: string, abs: string): string {
  const r = relative(root, abs).split(sep).join('/')
  return r === '' ? '.' : posix.normalize(r)
}

/** The cwd (relative to the root) of `dir` taken from `base` (both relative to the root, or `dir` absolute). */
export function cwdOf(root: string, base: string, dir: string): string {
  return relPath(root, resolve(root, base, dir))
}

/** Where a line was written and how the call reached it. */
export interface LineAt {
  readonly cwd: string
  readonly file: string
  readonly line?: number
  readonly via: readonly string[]
}

/** A body being built: its lines in run order and its unknown parts, bounded. */
export class BodyBuilder {
  readonly lines: BodyLine[] = []
  readonly unknown: UnknownPart[] = []
  #linesCapped = false
  #calls = 0
  #chars = 0

  get full(): boolean {
    return this.#linesCapped
  }

  /** Counts one call followed; false (and the body is full) past MAX_CALLS or MAX_LINES. */
  step(at: Omit<LineAt, 'cwd'> & { cwd?: string }): boolean {
    if (this.#linesCapped) return false
    if (++this.#calls > MAX_CALLS) {
      this.#linesCapped = true
      this.addUnknown(at.via[at.via.length - 1] ?? '', `the body follows more than ${MAX_CALLS} calls (MAX_CALLS); the rest is not read`, at, true)
      return false
    }
    return true
  }

  /** Adds one line; past MAX_LINES, one unknown part says the rest is not read. */
  add(text: string, at: LineAt): void {
    if (this.#linesCapped) return
    if (this.lines.length >= MAX_LINES || this.#chars + text.length > MAX_BODY_CHARS) {
      this.#linesCapped = true
      const bound = this.lines.length >= MAX_LINES ? `more than ${MAX_LINES} lines (MAX_LINES)` : `more than ${MAX_BODY_CHARS} characters (MAX_BODY_CHARS)`
      this.addUnknown(text, `the body runs ${bound}; the rest is not read`, at, true)
      return
    }
    this.#chars += text.length
    this.lines.push({ text, cwd: at.cwd, file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), via: [...at.via] })
  }

  readonly #seen = new Set<string>()

  /** Adds an unknown part (the same text, reason and place once); `cap` parts (a bound reached) always get in. */
  addUnknown(text: string, why: string, at: Omit<LineAt, 'cwd'> & { cwd?: string }, cap = false): void {
    const key = `${text}\0${why}\0${at.file}\0${at.line}`
    if (this.#seen.has(key) || (this.unknown.length >= MAX_UNKNOWN && !cap)) return
    this.#seen.add(key)
    this.unknown.push({ text: text.slice(0, MAX_VALUE), file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), why, via: [...at.via] })
  }

  /**
   * Adds a line made of a value: its rendered text, and when it has holes, the line as written
   * (`raw`) with each hole's source as one unknown part.
   */
  addValue(value: Value, raw: string, at: LineAt): void {
    this.add(render(value), at)
    const found = holes(value)
    if (found.length === 0) return
    const sources = [...new Set(found.map((h) => h.source).filter((s): s is string => s !== undefined && s !== raw))]
    const whys = [...new Set(found.map((h) => h.why))]
    this.addUnknown([raw, ...sources].join('\n'), whys.join('; '), at)
  }

  result(): RecipeBody {
    return { lines: this.lines, unknown: this.unknown }
  }
}

/** An error's message, for an unknown part's reason. */
export function reason(error: unknown): string {
  return String((error as Error)?.message ?? error)
}

/** An empty body: for a recipe whose manifest can't be read at all. */
export function emptyBody(): RecipeBody {
  return { lines: [], unknown: [] }
}

/** A body of one unknown part, for a manifest that can't be read. */
export function unreadable(text: string, why: string, file: string, via: readonly string[], line?: number): RecipeBody {
  return { lines: [], unknown: [{ text, file, ...(line !== undefined ? { line } : {}), why, via: [...via] }] }
}

/** A word as one POSIX shell word: as written when safe, else single-quoted. */
export const shellQuoteWord = shellWord

/** Words as a shell line fragment. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuoteWord).join(' ')
}

/** A memoized per-judgement value (`ctx.memo`), keyed `"<source>:<abs file>"`. */
export function memoized<T>(memo: Map<string, unknown>, key: string, make: () => T): T {
  if (memo.has(key)) return memo.get(key) as T
  const value = make()
  memo.set(key, value)
  return value
}
