/**
 * Static expansion of make variable references: `$(VAR)`, `${VAR}` and `$X` from plain
 * assignments only. Anything that would run or compute (`$(shell ...)`, `!=`, other functions)
 * makes the text unresolved; nothing is ever executed.
 */

export type Flavor = 'recursive' | 'simple' | 'unknown'

interface Variable {
  value: string
  flavor: Flavor
}

export interface Expansion {
  value: string
  /** Set when the text holds a function call, a shell assignment's value or a runaway reference. */
  unresolved?: string
  /** Variables referenced but never assigned in the makefiles (make reads them as empty). */
  undefinedVars: string[]
}

/** GNU make's automatic variables, with their `D`/`F` forms: never user hints, never expanded. */
export const AUTOMATIC_VARIABLES: ReadonlySet<string> = new Set(
  ['@', '<', '^', '+', '*', '?', '|', '%'].flatMap((c) => [c, `${c}D`, `${c}F`]),
)

const NONE: string[] = []
const MAX_DEPTH = 32
const MAX_LENGTH = 1 << 20

/** Finds the index of the bracket closing the one at `open` (`(` or `{`), honoring nesting; -1 when unclosed. */
export function closingBracket(text: string, open: number): number {
  const o = text[open]
  const c = o === '(' ? ')' : '}'
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const ch = text[i]
    if (ch === o) depth++
    else if (ch === c && --depth === 0) return i
  }
  return -1
}

export class MakeVariables {
  readonly #vars = new Map<string, Variable>()
  readonly #wildcard: ((patterns: string[]) => string[]) | undefined

  /**
   * `wildcard` lists the files matching glob patterns, sorted, as `$(wildcard ...)` does: the one
   * function expanded here, since it only reads the file system.
   */
  constructor(wildcard?: (patterns: string[]) => string[]) {
    this.#wildcard = wildcard
  }

  has(name: string): boolean {
    return this.#vars.has(name)
  }

  /** Records an assignment as make would (`=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`). */
  assign(name: string, op: string, raw: string): void {
    const current = this.#vars.get(name)
    switch (op) {
      case '=':
        this.#vars.set(name, { value: raw, flavor: 'recursive' })
        break
      case ':=':
      case '::=': {
        const e = this.expand(raw)
        this.#vars.set(name, { value: e.value, flavor: e.unresolved ? 'unknown' : 'simple' })
        break
      }
      case ':::=':
        this.#vars.set(name, { value: raw, flavor: 'recursive' })
        break
      case '?=':
        if (!current) this.#vars.set(name, { value: raw, flavor: 'recursive' })
        break
      case '+=':
        if (!current) this.#vars.set(name, { value: raw, flavor: 'recursive' })
        else if (current.flavor === 'simple') {
          const e = this.expand(raw)
          this.#vars.set(name, { value: `${current.value} ${e.value}`, flavor: e.unresolved ? 'unknown' : 'simple' })
        } else this.#vars.set(name, { value: `${current.value} ${raw}`, flavor: current.flavor })
        break
      default:
        // `!=` runs a shell command: its value is unknown here.
        this.#vars.set(name, { value: '', flavor: 'unknown' })
    }
  }

  undefine(name: string): void {
    this.#vars.delete(name)
  }

  /** A `define` block's value is opaque: it is usually `$(eval)`-ed or called, which this reader does not do. */
  defineOpaque(name: string): void {
    this.#vars.set(name, { value: '', flavor: 'unknown' })
  }

  /** The value of `name` as a first character, for `.RECIPEPREFIX`. */
  raw(name: string): string | undefined {
    return this.#vars.get(name)?.value
  }

  expand(text: string): Expansion {
    if (text.indexOf('$') === -1) return { value: text, undefinedVars: NONE }
    const out: Expansion = { value: '', undefinedVars: [] }
    out.value = this.#expand(text, 0, out, new Set())
    return out
  }

  #expand(text: string, depth: number, out: Expansion, active: Set<string>): string {
    if (text.indexOf('$') === -1) return text
    if (depth > MAX_DEPTH) {
      out.unresolved ??= 'variable references nest too deeply'
      return ''
    }
    let result = ''
    let i = 0
    while (i < text.length) {
      const dollar = text.indexOf('$', i)
      if (dollar === -1 || dollar === text.length - 1) {
        result += text.slice(i)
        break
      }
      result += text.slice(i, dollar)
      const next = text[dollar + 1]!
      if (next === '$') {
        result += '$'
        i = dollar + 2
        continue
      }
      let ref: string
      if (next === '(' || next === '{') {
        const close = closingBracket(text, dollar + 1)
        if (close === -1) {
          out.unresolved ??= 'unterminated variable reference'
          return ''
        }
        ref = text.slice(dollar + 2, close)
        i = close + 1
      } else {
        ref = next
        i = dollar + 2
      }
      result += this.#reference(ref, depth, out, active)
      if (out.unresolved || result.length > MAX_LENGTH) {
        out.unresolved ??= 'expansion is too large'
        return ''
      }
    }
    return result
  }

  #reference(ref: string, depth: number, out: Expansion, active: Set<string>): string {
    const wildcard = /^wildcard\s+/.exec(ref)
    if (wildcard && this.#wildcard) {
      const patterns = this.#expand(ref.slice(wildcard[0].length), depth + 1, out, active)
      if (out.unresolved) return ''
      return this.#wildcard(patterns.split(/\s+/).filter((p) => p !== '')).join(' ')
    }
    // A space, tab or comma before any `$` means a function call (`$(shell ...)`, `$(patsubst ...)`).
    if (/^[^$\s,]*[\s,]/.test(ref)) {
      out.unresolved ??= `function call $(${ref.split(/[\s,]/)[0]} ...)`
      return ''
    }
    // `$(VAR:a=b)` substitution references and computed names (`$($(X)_DIR)`) are left unresolved.
    if (ref.includes(':') || ref.includes('$')) {
      out.unresolved ??= `computed reference $(${ref})`
      return ''
    }
    if (AUTOMATIC_VARIABLES.has(ref)) {
      out.unresolved ??= `automatic variable $(${ref})`
      return ''
    }
    const v = this.#vars.get(ref)
    if (!v) {
      if (!out.undefinedVars.includes(ref)) out.undefinedVars.push(ref)
      return ''
    }
    if (v.flavor === 'unknown') {
      out.unresolved ??= `variable ${ref} has a value computed at run time`
      return ''
    }
    if (v.flavor === 'simple') return v.value
    if (active.has(ref)) {
      out.unresolved ??= `variable ${ref} references itself`
      return ''
    }
    active.add(ref)
    const value = this.#expand(v.value, depth + 1, out, active)
    active.delete(ref)
    return value
  }
}

const NAME_END = new Set([...' \t\n\r,:$(){}'].map((c) => c.charCodeAt(0)))
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/
/** Variables that make sets itself: offering them as `VAR=value` hints would mislead. */
const MAKE_OWN = new Set(['MAKE', 'MAKEFLAGS', 'MFLAGS', 'MAKECMDGOALS', 'MAKELEVEL', 'MAKEFILE_LIST', 'MAKEFILES', 'MAKE_VERSION', 'MAKE_HOST', 'CURDIR', 'SHELL', 'MAKESHELL', 'MAKEOVERRIDES', 'VPATH', 'SUFFIXES'])

/**
 * The variable names a recipe line references: `$(NAME)`/`${NAME}` anywhere, including inside
 * function arguments, but not function names, automatic variables, `$$` shell variables or make's own.
 */
export function referencedVariables(line: string, into: Set<string>): void {
  for (let i = line.indexOf('$'); i !== -1 && i < line.length - 1; i = line.indexOf('$', i + 1)) {
    const next = line[i + 1]
    if (next === '$') {
      i++
      continue
    }
    if (next !== '(' && next !== '{') continue
    const close = next === '(' ? ')' : '}'
    let end = i + 2
    while (end < line.length && !NAME_END.has(line.charCodeAt(end))) end++
    if (line[end] !== close && line[end] !== ':') continue
    const name = line.slice(i + 2, end)
    if (VAR_NAME.test(name) && !MAKE_OWN.has(name)) into.add(name)
  }
}
