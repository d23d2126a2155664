/**
 * Static expansion of make variable references: `$(VAR)`, `${VAR}`, `$X`, substitution
 * references and make's pure text functions (`subst`, `patsubst`, `foreach`, `addprefix`, ...).
 * Anything that would run something or depends on run time (`$(shell ...)`, `!=`, `$(eval ...)`,
 * automatic variables) makes the text unresolved; nothing is ever executed. `expandRecipe`
 * expands a recipe line as make does just before running it (automatic and target-specific
 * variables in scope), keeping what can't be known in the line as written.
 */
import { platformOutput } from './platform.js'
import { posix } from 'node:path'

export type Flavor = 'recursive' | 'simple' | 'unknown'

/** A variable as the table holds it: its value (as written when recursive, expanded when simple) and flavor. */
export interface Variable {
  value: string
  flavor: Flavor
}

/** A reference in a recipe line that can't be expanded statically: kept in the line as written, with why. */
export interface UnknownReference {
  /** The reference as written (`$(shell date)`, `$(CMD)`). */
  readonly text: string
  readonly why: string
}

/** A recipe line expanded as make expands it just before running it. */
export interface RecipeExpansion {
  value: string
  /** References left as written in `value` because they can't be known statically. */
  unknown: UnknownReference[]
}

/** Why a function can't be expanded in a recipe line: make runs or evaluates it when it expands the line. */
const RECIPE_FUNCTION_WHY: Readonly<Record<string, string>> = {
  shell: 'make runs the $(shell ...) command when it expands the line',
  eval: 'make evaluates $(eval ...) as makefile text when it expands the line',
  file: '$(file ...) reads or writes a file when make expands the line',
  error: 'make stops with an error when it expands $(error ...)',
  guile: 'make runs the $(guile ...) code when it expands the line',
}

export interface Expansion {
  value: string
  /** Set when the text holds a function call, a shell assignment's value or a runaway reference. */
  unresolved?: string
  /** Variables referenced but never assigned in the makefiles (make reads them as empty). */
  undefinedVars: string[]
  /**
   * Set when the value depends on a variable whose value can't be known statically: one of
   * make's built-in variables, or one assigned inside a conditional branch that was not decided.
   */
  uncertain?: boolean
}

/**
 * Variables make defines itself (`make -p -f /dev/null`, origin "default" or "automatic"), plus the
 * ones that depend on the command line: their value is not in the makefiles, so a conditional over
 * them is not decided statically unless a makefile assigns them first.
 */
export const MAKE_BUILTIN_VARIABLES: ReadonlySet<string> = new Set([
  'AR', 'ARFLAGS', 'AS', 'CC', 'CHECKOUT,v', 'CO', 'COFLAGS', 'CPP', 'CTANGLE', 'CWEAVE', 'CXX', 'F77', 'F77FLAGS', 'FC',
  'GET', 'LD', 'LEX', 'LINT', 'M2C', 'MAKEINFO', 'OBJC', 'OUTPUT_OPTION', 'PC', 'RM', 'TANGLE', 'TEX', 'TEXI2DVI', 'WEAVE', 'YACC',
  'MAKE', 'MAKE_COMMAND', 'MAKE_HOST', 'MAKE_VERSION', 'MAKEFILES', 'MAKEFLAGS', 'MFLAGS', 'MAKECMDGOALS', 'MAKELEVEL',
  'MAKEFILE_LIST', 'MAKEOVERRIDES', 'CURDIR', 'SHELL', 'MAKESHELL', 'SUFFIXES', 'VPATH', 'GPATH',
  '.FEATURES', '.VARIABLES', '.INCLUDE_DIRS', '.LOADED', '.LIBPATTERNS', '.SHELLFLAGS', '.DEFAULT_GOAL', '.RECIPEPREFIX',
])

/** GNU make's automatic variables, with their `D`/`F` forms: never user hints, never expanded. */
export const AUTOMATIC_VARIABLES: ReadonlySet<string> = new Set(
  ['@', '<', '^', '+', '*', '?', '|', '%'].flatMap((c) => [c, `${c}D`, `${c}F`]),
)

const NONE: string[] = []
const MAX_DEPTH = 32
/** Characters one expansion may produce (MAX_EXPANSION). */
export const MAX_EXPANSION = 1 << 20
const MAX_LENGTH = MAX_EXPANSION
/** Characters all expansions of one scan may produce together (MAX_TOTAL_EXPANSION): nested `$(foreach)` amplifies. */
export const MAX_TOTAL_EXPANSION = 64 << 20

/** Thrown through nested expansions when one grows past MAX_EXPANSION or the scan's total is spent. */
class TooLarge extends Error {
  constructor(readonly why: string) {
    super(why)
  }
}
const TOO_LARGE = `expansion is larger than ${MAX_EXPANSION} characters (MAX_EXPANSION)`
/** Variable references and function calls all expansions of one scan may evaluate (MAX_EXPANSION_STEPS). */
export const MAX_EXPANSION_STEPS = 5_000_000
const MAX_STEPS = MAX_EXPANSION_STEPS
const TOO_MUCH = `the makefiles' expansions add up to more than ${MAX_TOTAL_EXPANSION} characters or ${MAX_EXPANSION_STEPS} references (MAX_TOTAL_EXPANSION, MAX_EXPANSION_STEPS); the rest is not expanded`

/** Joins with `sep`, throwing TooLarge before building a string past MAX_EXPANSION. */
function joinBounded(items: readonly string[], sep = ' '): string {
  let n = 0
  for (const item of items) {
    n += item.length + sep.length
    if (n > MAX_LENGTH) throw new TooLarge(TOO_LARGE)
  }
  return items.join(sep)
}

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
  readonly #cwd: string
  /** Expansions of recursive variables, valid until the next assignment changes any value. */
  readonly #cache = new Map<string, { value: string; undefinedVars: string[]; uncertain: boolean }>()
  /** Inside `foreach`/`call`, where loop variables change under the cache. */
  #binding = 0
  /** Names whose value is not known statically (see Expansion.uncertain). */
  readonly #uncertain = new Set<string>(MAKE_BUILTIN_VARIABLES)
  /** Names set on make's command line: makefile assignments to them count only with `override`. */
  readonly #commandLine = new Set<string>()
  /** While a recipe line expands: where its unknown references go (automatic variables are then bound). */
  #recipe: UnknownReference[] | undefined
  /** While a recipe line expands: the variables over the table (automatic, target-specific), unless `foreach`/`call` rebinds one. */
  #scope: ReadonlyMap<string, Variable> | undefined
  /** Names `foreach`/`call` are rebinding now, which the scope must not hide. */
  readonly #rebound = new Map<string, number>()
  /**
   * Called with each `$(shell ...)` and `!=` command an expansion meets (its text as written, and
   * expanded when that is known): what make runs while it reads the makefiles. Unset for scans.
   */
  onShell: ((written: string, expanded: string | undefined) => void) | undefined

  /**
   * `wildcard` lists the files matching glob patterns, sorted, as `$(wildcard ...)` does (it only
   * reads the file system); `cwd` is make's directory, for `$(abspath ...)`.
   */
  constructor(wildcard?: (patterns: string[]) => string[], cwd = '/') {
    this.#wildcard = wildcard
    this.#cwd = cwd
  }

  has(name: string): boolean {
    return this.#vars.has(name)
  }

  #generation = 0

  /** Changes with every assignment: expansions made in one generation stay valid through it. */
  get generation(): number {
    return this.#generation
  }

  #set(name: string, value: Variable | undefined): void {
    if (value) this.#vars.set(name, value)
    else this.#vars.delete(name)
    this.#cache.clear()
    this.#generation++
  }

  /**
   * Records an assignment as make would (`=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`). `uncertain`:
   * the line sits in a conditional branch that may or may not be read, so the value is a guess.
   */
  assign(name: string, op: string, raw: string, uncertain = false, override = false): void {
    // `make VAR=value` wins over the makefiles, unless they say `override`.
    if (!override && this.#commandLine.has(name)) return
    const current = this.#vars.get(name)
    // A plain `=` makes the value known (its references are checked when it expands); `:=` takes
    // the certainty of what it expanded; `?=` and `+=` keep whatever was unknown about the old value.
    let known: boolean | undefined = op === '=' ? true : op === '?=' && !current && !MAKE_BUILTIN_VARIABLES.has(name) ? true : undefined
    switch (op) {
      case '=':
        this.#set(name, { value: raw, flavor: 'recursive' })
        break
      case ':=':
      case '::=': {
        const e = this.expand(raw)
        known = !e.uncertain
        this.#set(name, { value: e.value, flavor: e.unresolved ? 'unknown' : 'simple' })
        break
      }
      case ':::=': {
        // Expanded now, then kept recursive with its dollars escaped (GNU make 4.4).
        const e = this.expand(raw)
        known = !e.uncertain
        this.#set(name, { value: e.value.replace(/\$/g, '$$$$'), flavor: e.unresolved ? 'unknown' : 'recursive' })
        break
      }
      case '?=':
        if (!current) this.#set(name, { value: raw, flavor: 'recursive' })
        break
      case '+=':
        if (!current) this.#set(name, { value: raw, flavor: 'recursive' })
        else if (current.flavor === 'simple') {
          const e = this.expand(raw)
          if (e.uncertain) known = false
          this.#set(name, { value: `${current.value} ${e.value}`, flavor: e.unresolved ? 'unknown' : 'simple' })
        } else this.#set(name, { value: `${current.value} ${raw}`, flavor: current.flavor })
        break
      default: {
        // `!=` runs a shell command: its value is unknown here, unless it only tells the platform.
        const e = this.expand(raw)
        const answer = e.unresolved ? undefined : platformOutput(e.value)
        if (answer !== undefined) {
          this.#set(name, { value: answer, flavor: 'simple' })
          break
        }
        if (this.onShell) this.onShell(raw, e.unresolved ? undefined : e.value)
        this.#set(name, { value: '', flavor: 'unknown' })
      }
    }
    if (uncertain || known === false) this.#uncertain.add(name)
    else if (known) this.#uncertain.delete(name)
  }

  /** Sets a variable as `make NAME=value` does: makefile assignments to it are then ignored unless `override`. */
  commandLine(name: string, op: string, raw: string): void {
    this.assign(name, op === '+=' || op === '?=' ? '=' : op, raw, false, true)
    this.#commandLine.add(name)
  }

  /** Whether `name` was set on make's command line. */
  isCommandLine(name: string): boolean {
    return this.#commandLine.has(name)
  }

  /** The names of every variable the table holds (for `.EXPORT_ALL_VARIABLES`). */
  names(): IterableIterator<string> {
    return this.#vars.keys()
  }

  /** The variable as the table holds it, for layering target-specific values over it. */
  lookup(name: string): Readonly<Variable> | undefined {
    return this.#vars.get(name)
  }

  undefine(name: string, uncertain = false, override = false): void {
    if (!override && this.#commandLine.has(name)) return
    if (uncertain) this.#uncertain.add(name)
    else this.#uncertain.delete(name)
    this.#set(name, undefined)
  }

  /** A `define` block's value is opaque: it is usually `$(eval)`-ed or called, which this reader does not do. */
  defineOpaque(name: string): void {
    this.#set(name, { value: '', flavor: 'unknown' })
  }

  /**
   * What `ifdef name` sees: whether the variable has a non-empty value (unexpanded, as make tests
   * it), or undefined when that is not known statically. A variable no makefile assigned is
   * undefined, as for a plain `make` in an environment that does not set it.
   */
  hasValue(name: string): boolean | undefined {
    if (this.#uncertain.has(name)) return undefined
    const v = this.#vars.get(name)
    if (!v) return false
    if (v.flavor === 'unknown') return undefined
    return v.value !== ''
  }

  /** The value of `name` as written, for `.RECIPEPREFIX`. */
  raw(name: string): string | undefined {
    return this.#vars.get(name)?.value
  }

  /** The first expansion limit reached, for one diagnostic per scan. */
  limitHit: string | undefined

  /** Characters produced by expansions so far (MAX_TOTAL_EXPANSION). */
  #spent = 0
  /** References expanded so far (MAX_EXPANSION_STEPS). */
  #steps = 0

  expand(text: string): Expansion {
    if (text.indexOf('$') === -1) return { value: text, undefinedVars: NONE }
    const out: Expansion = { value: '', undefinedVars: [] }
    if (this.#spent > MAX_TOTAL_EXPANSION || this.#steps > MAX_STEPS) {
      out.unresolved = this.limitHit ??= TOO_MUCH
      return out
    }
    try {
      out.value = this.#expand(text, 0, out, new Set())
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error
      this.limitHit ??= error.why
      out.unresolved ??= error.why
      out.value = ''
    }
    return out
  }

  /**
   * Expands a recipe line as make does just before it runs it, with `scope` (automatic and
   * target-specific variables) over the table. What can't be known statically (`$(shell ...)`, a
   * variable computed at run time) stays in the line as written and is listed in `unknown`, so the
   * rest of the line can still be read.
   */
  expandRecipe(text: string, scope: ReadonlyMap<string, Variable>): RecipeExpansion {
    const unknown: UnknownReference[] = []
    if (text.indexOf('$') === -1) return { value: text, unknown }
    const out: Expansion = { value: '', undefinedVars: [] }
    if (this.#spent > MAX_TOTAL_EXPANSION || this.#steps > MAX_STEPS) return { value: text, unknown: [{ text, why: this.limitHit ??= TOO_MUCH }] }
    const outer = this.#recipe
    const outerScope = this.#scope
    this.#recipe = unknown
    this.#scope = scope
    try {
      return { value: this.#expand(text, 0, out, new Set()), unknown }
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error
      this.limitHit ??= error.why
      return { value: text, unknown: [{ text, why: error.why }] }
    } finally {
      this.#recipe = outer
      this.#scope = outerScope
    }
  }

  /** Counts what an expansion level produced, and stops the scan's expansions once the total is spent. */
  #spend(text: string): string {
    this.#spent += text.length
    if (text.length > MAX_LENGTH) throw new TooLarge(TOO_LARGE)
    if (this.#spent > MAX_TOTAL_EXPANSION) throw new TooLarge(TOO_MUCH)
    return text
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
          if (depth === 0 && this.#recipe) return this.#keepUnknown(out, text.slice(dollar), result + text.slice(dollar))
          return ''
        }
        ref = text.slice(dollar + 2, close)
        i = close + 1
      } else {
        ref = next
        i = dollar + 2
      }
      result += this.#reference(ref, depth, out, active)
      // In a recipe line, what can't be expanded stays as written: the rest of the line is still read.
      if (out.unresolved && depth === 0 && this.#recipe) result = this.#keepUnknown(out, text.slice(dollar, i), result)
      if (out.unresolved) return ''
      if (result.length > MAX_LENGTH) throw new TooLarge(TOO_LARGE)
    }
    return this.#spend(result)
  }

  /** Records an unknown top-level reference of a recipe line and puts it back in the line as written. */
  #keepUnknown(out: Expansion, written: string, result: string): string {
    this.#recipe!.push({ text: written, why: out.unresolved! })
    out.unresolved = undefined
    return result + written
  }

  /** A variable as an expansion sees it: the recipe's scope first, then the table. */
  #get(name: string): Variable | undefined {
    if (this.#scope && !this.#rebound.has(name)) {
      const v = this.#scope.get(name)
      if (v) return v
    }
    return this.#vars.get(name)
  }

  #reference(ref: string, depth: number, out: Expansion, active: Set<string>): string {
    // Every reference is a step: `$(call f)` inside `f` twice doubles at each of 32 levels and produces nothing.
    if (++this.#steps > MAX_STEPS) throw new TooLarge(TOO_MUCH)
    const fn = /^([a-z-]+)[ \t]/.exec(ref)
    if (fn) return this.#call(fn[1]!, ref.slice(fn[0].length), depth, out, active)
    // `$(VAR:a=b)`: a substitution reference (a colon outside nested references).
    const colon = topLevelIndex(ref, ':')
    if (colon !== -1) {
      const eq = ref.indexOf('=', colon)
      if (eq === -1) {
        out.unresolved ??= `unsupported reference $(${ref})`
        return ''
      }
      const value = this.#reference(ref.slice(0, colon), depth + 1, out, active)
      const from = this.#expand(ref.slice(colon + 1, eq), depth + 1, out, active)
      const to = this.#expand(ref.slice(eq + 1), depth + 1, out, active)
      return patsubst(from.includes('%') ? from : `%${from}`, to.includes('%') || from.includes('%') ? to : `%${to}`, value)
    }
    // A computed name: `$($(ARCH)_FLAGS)`.
    const name = ref.includes('$') ? this.#expand(ref, depth + 1, out, active) : ref
    if (out.unresolved) return ''
    if (AUTOMATIC_VARIABLES.has(name) && !this.#recipe) {
      out.unresolved ??= `automatic variable $(${name})`
      return ''
    }
    if (this.#uncertain.has(name)) out.uncertain = true
    const v = this.#get(name)
    if (!v) {
      if (!out.undefinedVars.includes(name)) out.undefinedVars.push(name)
      return ''
    }
    if (v.flavor === 'unknown') {
      out.unresolved ??= `variable ${name} has a value computed at run time`
      return ''
    }
    if (v.flavor === 'simple') return v.value
    if (active.has(name)) {
      out.unresolved ??= `variable ${name} references itself`
      return ''
    }
    // The cache holds the table's own expansions: not valid under a recipe's scope or a rebinding.
    const cacheable = this.#binding === 0 && !this.#scope
    const cached = cacheable ? this.#cache.get(name) : undefined
    if (cached) {
      for (const u of cached.undefinedVars) if (!out.undefinedVars.includes(u)) out.undefinedVars.push(u)
      if (cached.uncertain) out.uncertain = true
      return cached.value
    }
    const inner: Expansion = { value: '', undefinedVars: [] }
    active.add(name)
    const value = this.#expand(v.value, depth + 1, inner, active)
    active.delete(name)
    for (const u of inner.undefinedVars) if (!out.undefinedVars.includes(u)) out.undefinedVars.push(u)
    if (inner.uncertain) out.uncertain = true
    if (inner.unresolved) {
      out.unresolved ??= inner.unresolved
      return ''
    }
    if (cacheable) this.#cache.set(name, { value, undefinedVars: inner.undefinedVars, uncertain: inner.uncertain === true })
    return value
  }

  /** make's text functions; the ones that run or inspect anything at run time stay unresolved. */
  #call(name: string, argText: string, depth: number, out: Expansion, active: Set<string>): string {
    const raw = splitArguments(argText)
    const arg = (k: number): string => (raw[k] === undefined ? '' : this.#expand(raw[k]!, depth + 1, out, active))
    const list = (k: number): string[] => words(arg(k))
    if (this.#recipe) {
      const value = this.#recipeFunction(name, arg, out)
      if (value !== undefined) return value
    }
    if (name === 'shell') {
      // A command that only tells the platform (`uname -s`, `go env GOOS`) has a known output here.
      const inner: Expansion = { value: '', undefinedVars: [] }
      const command = this.#expand(raw.join(','), depth + 1, inner, active)
      const answer = inner.unresolved ? undefined : platformOutput(command)
      if (answer !== undefined) return answer
      // Parse-time `$(shell ...)`: make runs it while reading; its output stays unknown here.
      if (this.onShell && !this.#recipe) this.onShell(raw.join(','), inner.unresolved ? undefined : command)
    }
    switch (name) {
      case 'wildcard':
        if (!this.#wildcard) break
        return this.#wildcard(list(0)).join(' ')
      case 'subst': {
        const from = arg(0)
        const to = arg(1)
        const text = arg(2)
        if (from === '') return text
        return joinBounded(text.split(from), to)
      }
      case 'patsubst': return patsubst(arg(0), arg(1), arg(2))
      case 'strip': return joinBounded(list(0))
      case 'findstring': return arg(1).includes(arg(0)) ? arg(0) : ''
      case 'filter':
      case 'filter-out': {
        const patterns = list(0)
        const keep = name === 'filter'
        return joinBounded(list(1).filter((w) => patterns.some((p) => matchPattern(p, w) !== undefined) === keep))
      }
      case 'sort': return [...new Set(list(0))].sort().join(' ')
      case 'word': {
        const n = Number(arg(0).trim())
        return Number.isInteger(n) && n > 0 ? (list(1)[n - 1] ?? '') : ''
      }
      case 'wordlist': {
        const from = Number(arg(0).trim())
        const to = Number(arg(1).trim())
        return Number.isInteger(from) && Number.isInteger(to) && from > 0 ? list(2).slice(from - 1, to).join(' ') : ''
      }
      case 'words': return String(list(0).length)
      case 'firstword': return list(0)[0] ?? ''
      case 'lastword': return list(0).at(-1) ?? ''
      case 'dir': return list(0).map((w) => (w.includes('/') ? w.slice(0, w.lastIndexOf('/') + 1) : './')).join(' ')
      case 'notdir': return list(0).map((w) => w.slice(w.lastIndexOf('/') + 1)).join(' ')
      case 'suffix': return list(0).map((w) => suffixOf(w)).filter((x) => x !== '').join(' ')
      case 'basename': return list(0).map((w) => w.slice(0, w.length - suffixOf(w).length)).join(' ')
      case 'addsuffix': { const sfx = arg(0); return joinBounded(list(1).map((w) => w + sfx)) }
      case 'addprefix': { const pfx = arg(0); return joinBounded(list(1).map((w) => pfx + w)) }
      case 'join': {
        const a = list(0)
        const b = list(1)
        return joinBounded(Array.from({ length: Math.max(a.length, b.length) }, (_, k) => (a[k] ?? '') + (b[k] ?? '')))
      }
      case 'abspath': return joinBounded(list(0).map((w) => posix.resolve(this.#cwd, w)))
      case 'if': return arg(0).trim() !== '' ? arg(1) : this.#expand(raw.slice(2).join(','), depth + 1, out, active)
      case 'or': {
        for (let k = 0; k < raw.length; k++) { const v = arg(k); if (v.trim() !== '') return v }
        return ''
      }
      case 'and': {
        let v = ''
        for (let k = 0; k < raw.length; k++) { v = arg(k); if (v.trim() === '') return '' }
        return v
      }
      case 'foreach': {
        const variable = arg(0).trim()
        const body = raw.slice(2).join(',')
        // Each round's output counts as it comes, so nested loops stop at the cap instead of after it.
        return this.#bind([variable], () => {
          const parts: string[] = []
          let size = 0
          for (const w of list(1)) {
            this.#vars.set(variable, { value: w, flavor: 'simple' })
            const part = this.#expand(body, depth + 1, out, active)
            if (out.unresolved) return ''
            size += part.length + 1
            if (size > MAX_LENGTH) throw new TooLarge(TOO_LARGE)
            parts.push(part)
          }
          return parts.join(' ')
        })
      }
      case 'call': {
        const fnName = arg(0).trim()
        const fn = this.#get(fnName)
        if (!fn) {
          // An undefined function name calls to nothing, as in make.
          if (!out.undefinedVars.includes(fnName)) out.undefinedVars.push(fnName)
          return ''
        }
        if (fn.flavor === 'unknown') break
        const params = raw.slice(1).map((_, k) => arg(k + 1))
        const names = ['0', ...params.map((_, k) => String(k + 1))]
        return this.#bind(names, () => {
          this.#vars.set('0', { value: fnName, flavor: 'simple' })
          params.forEach((p, k) => this.#vars.set(String(k + 1), { value: p, flavor: 'simple' }))
          return fn.flavor === 'simple' ? fn.value : this.#expand(fn.value, depth + 1, out, active)
        })
      }
    }
    out.unresolved ??= `function call $(${name} ...)`
    return ''
  }

  /**
   * The functions whose meaning in a recipe line differs from a reading: `info` and `warning` print
   * and expand to nothing, `value` gives a variable as written; the ones that run or evaluate
   * something are unresolved with make's reason. Undefined: expand as anywhere else.
   */
  #recipeFunction(name: string, arg: (k: number) => string, out: Expansion): string | undefined {
    // The message is expanded (a `$(shell ...)` in it still runs), then printed instead of run.
    if (name === 'info' || name === 'warning') return (arg(0), '')
    if (name === 'value') return this.#get(arg(0).trim())?.value ?? ''
    const why = RECIPE_FUNCTION_WHY[name]
    if (why === undefined) return undefined
    out.unresolved ??= why
    return ''
  }

  /** Runs `body` with `names` free to rebind, then restores them. */
  #bind(names: string[], body: () => string): string {
    const saved = names.map((n) => this.#vars.get(n))
    this.#binding++
    for (const n of names) this.#rebound.set(n, (this.#rebound.get(n) ?? 0) + 1)
    try {
      return body()
    } finally {
      names.forEach((n, k) => (saved[k] ? this.#vars.set(n, saved[k]!) : this.#vars.delete(n)))
      for (const n of names) {
        const count = this.#rebound.get(n)! - 1
        if (count === 0) this.#rebound.delete(n)
        else this.#rebound.set(n, count)
      }
      this.#binding--
    }
  }
}

function words(text: string): string[] {
  return text.split(/[ \t\n\r\f\v]+/).filter((w) => w !== '')
}

/** The index of `ch` outside nested `$(...)`/`${...}`, or -1. */
function topLevelIndex(text: string, ch: string): number {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '(' || c === '{') depth++
    else if (c === ')' || c === '}') depth--
    else if (c === ch && depth === 0) return i
  }
  return -1
}

/** Splits a function's arguments at top-level commas. */
function splitArguments(text: string): string[] {
  const args: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '(' || c === '{') depth++
    else if (c === ')' || c === '}') depth--
    else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i))
      start = i + 1
    }
  }
  args.push(text.slice(start))
  return args
}

/** The stem when `word` matches the `%` pattern (or equals a pattern without `%`), else undefined. */
function matchPattern(pattern: string, word: string): string | undefined {
  const pct = pattern.indexOf('%')
  if (pct === -1) return pattern === word ? '' : undefined
  const prefix = pattern.slice(0, pct)
  const suffix = pattern.slice(pct + 1)
  if (word.length < prefix.length + suffix.length || !word.startsWith(prefix) || !word.endsWith(suffix)) return undefined
  return word.slice(prefix.length, word.length - suffix.length)
}

function patsubst(pattern: string, replacement: string, text: string): string {
  return joinBounded(words(text).map((w) => {
    const stem = matchPattern(pattern, w)
    if (stem === undefined) return w
    return pattern.includes('%') ? replacement.replace('%', stem) : replacement
  }))
}

function suffixOf(word: string): string {
  const dot = word.lastIndexOf('.')
  return dot > word.lastIndexOf('/') ? word.slice(dot) : ''
}

/** The characters of a variable's name in a reference: up to a blank, comma, colon, `$` or bracket. */
const NAME_CHARS = /[^ \t\n\r,:$(){}]*/y
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/
/** Variables that make sets itself: offering them as `VAR=value` hints would mislead. */
const MAKE_OWN = new Set([
  'MAKE', 'MAKEFLAGS', 'MFLAGS', 'MAKECMDGOALS', 'MAKELEVEL', 'MAKEFILE_LIST', 'MAKEFILES', 'MAKE_VERSION', 'MAKE_HOST', 'CURDIR', 'SHELL', 'MAKESHELL',
  'MAKEOVERRIDES', 'VPATH', 'SUFFIXES',
])

/**
 * The variable names a recipe line references: `$(NAME)`/`${NAME}` anywhere, including inside
 * function arguments, but not function names, automatic variables, `$$` shell variables or make's own.
 */
export function referencedVariables(line: string, into: Set<string>): void {
  for (let i = line.indexOf('$'); i !== -1 && i < line.length - 1; i = line.indexOf('$', i + 1)) {
    const next = line.charCodeAt(i + 1)
    if (next === 36 /* $ */) {
      i++
      continue
    }
    if (next !== 40 /* ( */ && next !== 123 /* { */) continue
    // The name's end found by the regular expression engine, where a loop over its characters ran
    // in the interpreter (a big makefile has several references per recipe line), and without a match to allocate.
    const name = NAME_CHARS
    name.lastIndex = i + 2
    name.test(line)
    const end = name.lastIndex
    const c = line.charCodeAt(end)
    if (c !== (next === 40 ? 41 /* ) */ : 125 /* } */) && c !== 58 /* : */) continue
    const found = line.slice(i + 2, end)
    if (VAR_NAME.test(found) && !MAKE_OWN.has(found)) into.add(found)
  }
}
