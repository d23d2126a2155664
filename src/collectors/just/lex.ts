/**
 * The small lexer the justfile parser needs: logical lines (an item may run over several
 * physical lines inside brackets or multi-line strings) and the tokens of one item.
 * Written by hand because no maintained JavaScript library parses justfiles.
 */

export interface Token {
  /** name: identifier; str: any string literal; bt: backtick; op: punctuation. */
  readonly t: 'name' | 'str' | 'bt' | 'op'
  /** The identifier, the operator, or the string's value (unquoted; escapes kept as written). */
  readonly v: string
  /** Character offset in the scanned text. */
  readonly at: number
}

function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95
}
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 48 && code <= 57) || code === 45
}
/** Longest run of physical lines one item may span. */
export const MAX_ITEM_LINES = 200
const OPS = ['&&', '::', ':=', '==', '!=', '=~', '{{', '}}', ':', '=', '+', '*', '$', '@', '(', ')', '[', ']', ',', '?', '/', '{', '}', '!', '&', '|']

/** Operators by first character, longest first. */
const OPS_BY_CHAR = new Map<string, string[]>()
for (const op of OPS) OPS_BY_CHAR.set(op[0]!, [...(OPS_BY_CHAR.get(op[0]!) ?? []), op])

/** Length of the string literal starting at `i` (quote included), or -1 when it never closes. */
export function stringLength(text: string, i: number): number {
  const q = text[i]!
  const triple = text.startsWith(q.repeat(3), i)
  const close = triple ? q.repeat(3) : q
  let j = i + close.length
  while (j < text.length) {
    if (q === '"' && text[j] === '\\') {
      j += 2
      continue
    }
    if (text.startsWith(close, j)) return j + close.length - i
    j++
  }
  return -1
}

/**
 * Index of the last physical line of the item starting at `start`: the item continues while a
 * bracket is open or a string is unterminated (just allows newlines in both). `#` outside a
 * string starts a comment that ends at the line's end. `closed` is false when a quote or bracket
 * never closes.
 */
export function logicalEnd(lines: readonly string[], start: number): { end: number; closed: boolean } {
  let depth = 0
  let quote = ''
  for (let n = start; n < lines.length; n++) {
    const line = lines[n]!
    let i = 0
    while (i < line.length) {
      if (quote) {
        if (quote === '"' || quote === '"""') {
          if (line[i] === '\\') {
            i += 2
            continue
          }
        }
        if (line.startsWith(quote, i)) {
          i += quote.length
          quote = ''
        } else i++
        continue
      }
      const c = line[i]!
      if (c === '#') break
      if (c === '"' || c === "'" || c === '`') {
        quote = line.startsWith(c.repeat(3), i) ? c.repeat(3) : c
        i += quote.length
        continue
      }
      if (c === '(' || c === '[' || c === '{') depth++
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--
      i++
    }
    if (depth === 0 && quote === '') return { end: n, closed: true }
    // An unclosed quote or bracket is almost always a typo: give up after a bounded run so
    // that the parser reports it and goes on instead of swallowing the rest of the file.
    if (n + 1 - start >= MAX_ITEM_LINES) return { end: n, closed: false }
  }
  return { end: lines.length - 1, closed: false }
}

/** Tokens of `text` up to a comment; throws a message string on a character just would refuse. */
export function tokenize(text: string): Token[] {
  const out: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++
      continue
    }
    if (c === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) {
      i += 2
      continue
    }
    if (c === '#') {
      const nl = text.indexOf('\n', i)
      if (nl === -1) break
      i = nl
      continue
    }
    if (c === '"' || c === "'") {
      const len = stringLength(text, i)
      if (len < 0) throw `unterminated string starting with ${c}`
      const q = text.startsWith(c.repeat(3), i) ? 3 : 1
      out.push({ t: 'str', v: text.slice(i + q, i + len - q), at: i })
      i += len
      continue
    }
    if (c === '`') {
      const len = stringLength(text, i)
      if (len < 0) throw 'unterminated backtick'
      out.push({ t: 'bt', v: text.slice(i, i + len), at: i })
      i += len
      continue
    }
    if (isNameStart(text.charCodeAt(i))) {
      let j = i + 1
      while (j < text.length && isNameChar(text.charCodeAt(j))) j++
      const word = text.slice(i, j)
      // Prefixed strings: x'...' (shell-expanded) and f'...' (format string).
      if ((word === 'x' || word === 'f') && (text[j] === '"' || text[j] === "'")) {
        const len = stringLength(text, j)
        if (len < 0) throw `unterminated string starting with ${text[j]}`
        const q = text.startsWith(text[j]!.repeat(3), j) ? 3 : 1
        out.push({ t: 'str', v: text.slice(j + q, j + len - q), at: i })
        i = j + len
        continue
      }
      out.push({ t: 'name', v: word, at: i })
      i = j
      continue
    }
    const op = OPS_BY_CHAR.get(c)?.find((o) => text.startsWith(o, i))
    if (op === undefined) throw `unexpected character ${JSON.stringify(c)}`
    out.push({ t: 'op', v: op, at: i })
    i += op.length
  }
  return out
}

/**
 * Identifiers an interpolation or expression reads: names that are not function calls,
 * keywords or inside strings. Used to tell which assignments a recipe uses.
 */
export function referencedNames(expression: string): string[] {
  let toks: Token[]
  try {
    toks = tokenize(expression)
  } catch {
    return []
  }
  return namesIn(toks)
}

/** The identifiers a token run reads: not function calls, `if`/`else`, or names after `::`. */
export function namesIn(toks: readonly Token[]): string[] {
  const names: string[] = []
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k]!
    if (tok.t !== 'name' || tok.v === 'if' || tok.v === 'else') continue
    const next = toks[k + 1]
    if (next && next.t === 'op' && next.v === '(') continue
    const prev = toks[k - 1]
    if (prev && prev.t === 'op' && prev.v === '::') continue
    names.push(tok.v)
  }
  return names
}

/** The expressions inside `{{ ... }}` in a recipe body line; `{{{{` is a literal `{{`. */
export function interpolations(line: string): string[] {
  const out: string[] = []
  let i = line.indexOf('{{')
  while (i !== -1) {
    if (line.startsWith('{{{{', i)) {
      i = line.indexOf('{{', i + 4)
      continue
    }
    const end = line.indexOf('}}', i + 2)
    if (end === -1) break
    out.push(line.slice(i + 2, end))
    i = line.indexOf('{{', end + 2)
  }
  return out
}
