/**
 * JSON and JSONC manifests as jsonc-parser syntax trees, with the positions a diagnostic needs:
 * 1-based line and column of every node, and the first syntax error said in words.
 */
import type { Node, ParseError } from 'jsonc-parser'
import { jsoncParser } from '../../base/lazy.js'

export type { Node } from 'jsonc-parser'

export interface JsonText {
  /** The top-level value; undefined when the text has a syntax error. */
  readonly root?: Node
  /** The first syntax error, when there is one. */
  readonly error?: { line: number; column: number; message: string }
  /** JSONC only: the first missing comma between members, which deno accepts (its parser is lenient there). */
  readonly missingComma?: { line: number; column: number }
  /** 1-based line of a character offset. */
  lineAt(offset: number): number
}

// Error codes of jsonc-parser (its ParseErrorCode const enum) in words a person can act on.
const ERROR_WORDS: Record<number, string> = {
  1: 'unexpected character',
  2: 'invalid number',
  3: 'expected a property name in double quotes',
  4: 'expected a value',
  5: 'expected a colon',
  6: 'expected a comma',
  7: 'expected a closing brace',
  8: 'expected a closing bracket',
  9: 'unexpected text after the end of the value',
  10: 'comments are not allowed here',
  11: 'unterminated comment',
  12: 'unterminated string',
  13: 'unterminated number',
  14: 'invalid unicode escape',
  15: 'invalid escape character',
  16: 'control character inside a string',
}

const COMMA_EXPECTED = 6

/** Offsets where each line starts, for binary-searched line numbers (many scripts, one scan). */
function lineStarts(text: string): number[] {
  const starts = [0]
  if (text.includes('\r')) {
    for (const m of text.matchAll(/\r\n?|\n/g)) starts.push(m.index! + m[0].length)
  } else {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  }
  return starts
}

function locate(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= offset) lo = mid
    else hi = mid - 1
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 }
}

/** 1-based line and column of an offset in `text` (line starts computed once, on first use). */
export function positionLocator(text: string): (offset: number) => { line: number; column: number } {
  let starts: number[] | undefined
  return (offset) => locate((starts ??= lineStarts(text)), offset)
}

export interface KeyAt {
  readonly key: string
  readonly offset: number
}

/**
 * The keys of the top-level object of `text`, and the keys of one of its object values (`inner`,
 * e.g. "scripts"), each with its offset, in file order, duplicates included. `text` must be valid
 * JSON (JSON.parse accepted it): this only tracks strings, nesting and commas. Why by hand: the
 * values come from JSON.parse, and jsonc-parser's full syntax tree, just for these offsets, cost
 * about 14 times JSON.parse and dominated a 1,000-package scan (bench/scripts.bench.mjs).
 */
export function locateKeys(text: string, inner: string): { top: KeyAt[]; inner: KeyAt[] } {
  const top: KeyAt[] = []
  const innerKeys: KeyAt[] = []
  const stack: number[] = []
  let expectKey = false
  let currentTop: string | undefined
  let inInner = false
  for (let i = nextStructural(text, 0); i < text.length; i = nextStructural(text, i + 1)) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1)
      while (isEscaped(text, end)) end = text.indexOf('"', end + 1)
      if (expectKey) {
        const raw = text.slice(i + 1, end)
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw
        if (stack.length === 1) {
          top.push({ key, offset: i })
          currentTop = key
        } else if (stack.length === 2 && inInner) {
          innerKeys.push({ key, offset: i })
        }
        expectKey = false
      }
      i = end
    } else if (c === 0x7b) {
      stack.push(c)
      expectKey = true
      if (stack.length === 2) inInner = currentTop === inner
    } else if (c === 0x5b) {
      stack.push(c)
      if (stack.length === 2) inInner = false
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop()
      if (stack.length < 2) inInner = false
    } else if (c === 0x2c) {
      expectKey = stack[stack.length - 1] === 0x7b
    }
  }
  return { top, inner: innerKeys }
}

/**
 * One member of an object, from just after the brace or the value before it: the comma, the key
 * (group 1; one without an escape), the colon and a scalar value, or the bracket that opens a
 * container value (group 2). In valid JSON the first quote at or after the match is the key's.
 */
const MEMBER = /[ \t\n\r]*,?[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*(?:"(?:[^"\\]|\\.)*"|[-0-9][-+.0-9eE]*|true|false|null|([{[]))/y
/** Blanks, then the brace that ends an object. */
const OBJECT_END = /[ \t\n\r]*\}/y

/**
 * The offset just past the container whose opening bracket is before `from`, found as locateKeys
 * walks it: strings, brackets and braces. `text` must be valid JSON.
 */
function afterContainer(text: string, from: number, escapes: boolean): number {
  let depth = 1
  for (let i = nextStructural(text, from); i < text.length; i = nextStructural(text, i + 1)) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1)
      if (escapes) while (isEscaped(text, end)) end = text.indexOf('"', end + 1)
      i = end
    } else if (c === 0x7b || c === 0x5b) depth++
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1
  }
  return text.length
}

/**
 * The offset past the object whose members start at `at` (just past its brace), read one match
 * each (a walk of its structure takes three steps or more a member), with each key and its offset
 * into `keys`; -1 for a member this can't read (a key with an escape).
 */
function readMembers(text: string, at: number, escapes: boolean, keys: KeyAt[]): number {
  for (;;) {
    MEMBER.lastIndex = at
    const m = MEMBER.exec(text)
    if (m === null) {
      OBJECT_END.lastIndex = at
      return OBJECT_END.test(text) ? OBJECT_END.lastIndex : -1
    }
    keys.push({ key: m[1]!, offset: text.indexOf('"', m.index) })
    at = m[2] === undefined ? MEMBER.lastIndex : afterContainer(text, MEMBER.lastIndex, escapes)
  }
}

/**
 * locateKeys(text, inner).inner without the top-level keys: no key but `inner`'s members is
 * copied out of the text, and the scan ends at the member's closing brace when the rest can't name
 * `inner` again (it holds neither `"inner"` nor an escape). A workspace scan reads thousands of
 * package.json files for their scripts alone, and the members after "scripts" (dependencies, most
 * of a manifest) were scanned for nothing. Members are read one match each; a key with an escape
 * sends the text to the walk of its structure (walkInnerKeys). `text` must be valid JSON, as for locateKeys.
 */
export function locateInnerKeys(text: string, inner: string): KeyAt[] {
  const escapes = text.indexOf('\\') !== -1
  const quoted = `"${inner}"`
  const found: KeyAt[] = []
  if (!escapes && text.indexOf(quoted) === -1) return found
  let at = text.indexOf('{') + 1
  if (at === 0 || text.slice(0, at - 1).trim() !== '') return walkInnerKeys(text, inner)
  for (;;) {
    MEMBER.lastIndex = at
    const m = MEMBER.exec(text)
    if (m === null) {
      OBJECT_END.lastIndex = at
      return OBJECT_END.test(text) ? found : walkInnerKeys(text, inner)
    }
    at = MEMBER.lastIndex
    const open = m[2]
    if (open === undefined) continue
    if (open !== '{' || m[1] !== inner) {
      at = afterContainer(text, at, escapes)
      continue
    }
    at = readMembers(text, at, escapes, found)
    if (at === -1) return walkInnerKeys(text, inner)
    // The rest can't name `inner` again: done.
    if (text.indexOf(quoted, at) === -1 && (!escapes || text.indexOf('\\', at) === -1)) return found
  }
}

/** locateInnerKeys by a walk of the text's structure, for any valid JSON. */
function walkInnerKeys(text: string, inner: string): KeyAt[] {
  const found: KeyAt[] = []
  const stack: number[] = []
  const escapes = text.indexOf('\\') !== -1
  const quoted = `"${inner}"`
  let expectKey = false
  let topIsInner = false
  let inInner = false
  for (let i = nextStructural(text, 0); i < text.length; i = nextStructural(text, i + 1)) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1)
      if (escapes) while (isEscaped(text, end)) end = text.indexOf('"', end + 1)
      if (expectKey) {
        const depth = stack.length
        if (depth === 1) topIsInner = keyIs(text, i, end, inner, escapes)
        else if (depth === 2 && inInner) found.push({ key: keyAt(text, i, end, escapes), offset: i })
        expectKey = false
      }
      i = end
    } else if (c === 0x7b) {
      stack.push(c)
      expectKey = true
      if (stack.length === 2) inInner = topIsInner
    } else if (c === 0x5b) {
      stack.push(c)
      if (stack.length === 2) inInner = false
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop()
      if (stack.length === 1 && inInner && text.indexOf(quoted, i) === -1 && (!escapes || text.indexOf('\\', i) === -1)) break
      if (stack.length < 2) inInner = false
    } else if (c === 0x2c) {
      expectKey = stack[stack.length - 1] === 0x7b
    }
  }
  return found
}

/** The key whose quotes are at `start` and `end`, unescaped. */
function keyAt(text: string, start: number, end: number, escapes: boolean): string {
  const raw = text.slice(start + 1, end)
  return escapes && raw.includes('\\') ? (JSON.parse(text.slice(start, end + 1)) as string) : raw
}

/** Whether the key whose quotes are at `start` and `end` is `name`, without copying it out when it has no escape. */
function keyIs(text: string, start: number, end: number, name: string, escapes: boolean): boolean {
  if (end - start - 1 === name.length && text.startsWith(name, start + 1)) return true
  return escapes && keyAt(text, start, end, escapes) === name
}

/**
 * The 1-based lines of ascending `offsets` in `text`, counted in one pass up to the last of them
 * (positionLocator's answers; a text with a carriage return goes to it).
 */
export function linesAt(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = []
  if (text.indexOf('\r') !== -1) {
    const at = positionLocator(text)
    for (let k = 0; k < offsets.length; k++) lines.push(at(offsets[k]!).line)
    return lines
  }
  let line = 1
  let next = text.indexOf('\n')
  for (let k = 0; k < offsets.length; k++) {
    const offset = offsets[k]!
    while (next !== -1 && next < offset) line++, (next = text.indexOf('\n', next + 1))
    lines.push(line)
  }
  return lines
}

/** Everything but a quote, a brace, a bracket and a comma: the characters locateKeys skips. */
const NOT_STRUCTURAL = /[^"{}[\],]*/y

/**
 * The offset of the first quote, brace, bracket or comma at or after `from` (the text's length
 * when there is none): the regular expression engine skips values and whitespace, where a loop
 * over every character costs a first scan several milliseconds in the interpreter.
 */
function nextStructural(text: string, from: number): number {
  if (from >= text.length) return text.length
  NOT_STRUCTURAL.lastIndex = from
  NOT_STRUCTURAL.test(text)
  return NOT_STRUCTURAL.lastIndex
}

/** Whether the quote at `at` is escaped (an odd run of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let n = 0
  for (let k = at - 1; text.charCodeAt(k) === 0x5c; k--) n++
  return n % 2 === 1
}

/**
 * Parses `text` (a byte-order mark already dropped). `jsonc` allows comments and trailing commas,
 * as deno.jsonc does; otherwise the grammar is the strict JSON that npm, yarn, pnpm and bun read.
 */
export function parseJsonText(text: string, jsonc: boolean): JsonText {
  const at = positionLocator(text)
  const all: ParseError[] = []
  const lineAt = (offset: number) => at(offset).line
  let root: Node | undefined
  try {
    root = jsoncParser().parseTree(text, all, { disallowComments: !jsonc, allowTrailingComma: jsonc, allowEmptyContent: false })
  } catch (error) {
    // jsonc-parser recurses per nesting level; thousands of levels exhaust the stack.
    if (!(error instanceof RangeError)) throw error
    return { error: { line: 1, column: 1, message: 'values are nested too deeply to read (thousands of levels)' }, lineAt }
  }
  // The tree jsonc-parser builds past a missing comma is the one deno reads.
  const comma = jsonc ? all.find((e) => e.error === COMMA_EXPECTED) : undefined
  const errors = jsonc ? all.filter((e) => e.error !== COMMA_EXPECTED) : all
  if (errors.length === 0 && root !== undefined) return { root, lineAt, ...(comma ? { missingComma: at(comma.offset) } : {}) }
  const first = errors[0]
  if (first === undefined) return { error: { line: 1, column: 1, message: 'the file is empty' }, lineAt }
  const pos = at(first.offset)
  const message = first.offset >= text.length ? `${ERROR_WORDS[first.error] ?? 'syntax error'} (the file ends too early)` : ERROR_WORDS[first.error] ?? 'syntax error'
  return { error: { ...pos, message }, lineAt }
}

/** What a JSON value is, in a diagnostic: `a number`, `an array`, ... */
export function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'boolean') return `${value}`
  return typeof value === 'number' ? 'a number' : 'a string'
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An own property (a key like `__proto__` or `constructor` is data here, never inherited). */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined
}
