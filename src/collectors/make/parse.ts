/**
 * A static reader of GNU makefiles: the rules, `.PHONY`, `##` docs, prerequisites and the
 * variables recipes reference, following `include` like make does. It never runs anything:
 * `$(shell ...)`, `!=` and `$(eval ...)` are left alone. A conditional is decided as a plain `make`
 * would decide it when every variable it reads is known (assigned plain text, or never assigned
 * in any makefile read, so empty); otherwise every branch is read, and what they hold is a guess: a missing include there is no error.
 * Known differences from make, on purpose: a file included twice is read once, includes stop
 * 16 levels deep, and rules made by `$(eval ...)` are not seen.
 *
 * With `keepRecipes` (the destructive gate's make reader, never a scan) it also keeps what the
 * recipes run: each rule's recipe lines, target- and pattern-specific variables, `define` bodies,
 * the commands `$(shell ...)` runs while reading, and the variable table to expand lines with.
 *
 * Written by hand because no maintained JavaScript library parses makefiles.
 */
import { isAbsolute, join, relative, sep as pathSep } from 'node:path'
import { isInside, realOrSelf } from '../shared/fs.js'
import { boundedGlob } from '../shared/globs.js'
import { MAX_PREREQUISITES, MAX_RECIPES, MAX_TOTAL_PREREQUISITES, outOfTime, realRoot } from '../shared/guard.js'
import { MakeVariables, closingBracket, referencedVariables } from './vars.js'

/** Targets one scan keeps (MAX_TARGETS): a few bytes of `$(foreach)` can name millions. */
export const MAX_TARGETS = MAX_RECIPES

export interface MakeTarget {
  readonly name: string
  /** Absolute path of the makefile with the first rule for this target. */
  readonly file: string
  readonly line: number
  readonly prerequisites: string[]
  readonly orderOnly: string[]
  readonly variables: string[]
  doc: string
  doubleColon: boolean
  /** Whether any rule for it has a recipe. */
  hasRecipe: boolean
  /** Whether some prerequisites could not be expanded statically (so `prerequisites` misses them). */
  unresolvedPrerequisites: boolean
}

export interface MakeProblem {
  /** Absolute path of the makefile the problem is in. */
  file: string
  line?: number
  message: string
  severity: 'error' | 'warning'
  /** make itself stops on this while reading (`*** missing separator.  Stop.`): nothing can run. */
  fatal?: boolean
}

export interface ParsedMakefile {
  /** Targets of explicit rules in the order make reads them, special and pattern targets left out. */
  targets: MakeTarget[]
  /** Prerequisites of `.PHONY`, wherever it appears. */
  phony: Set<string>
  hasPhony: boolean
  /** Absolute paths of every makefile read, in reading order, each once. */
  files: string[]
  problems: MakeProblem[]
  /** What plain `make` builds: `.DEFAULT_GOAL` when set, else the first target; undefined when there is none. */
  defaultGoal?: string
  /** Whether a `.DEFAULT` rule has a recipe: make runs it for any goal without a rule of its own. */
  hasDefaultRecipe: boolean
  /** What the recipes run, with the variable table to expand them: only with `keepRecipes`. */
  recipes?: MakeRecipes
}

/** `defaultGoal` when the first rule's target is named at run time (`$(shell ...)`). */
export const COMPUTED_GOAL = '(computed)'

/** One open conditional: whether its current branch is read, and whether an earlier branch surely was. */
interface Conditional {
  word: string
  line: number
  /** `read`: make surely reads it; `skip`: surely not; `maybe`: it can't be decided statically. */
  branch: 'read' | 'skip' | 'maybe'
  /** Whether an earlier branch of this conditional was taken (undefined: maybe). */
  taken: boolean | undefined
}

/** A prerequisite list while reading: the first rule's list as is, a set once a second rule adds to it. */
type Gathered = readonly string[] | Set<string>

/** What one rule line gives each of its targets. */
interface RuleGiven {
  readonly normal: string[]
  readonly orderOnly: string[]
  readonly staticPattern: string | undefined
  readonly docs: string
  readonly doubleColon: boolean
  readonly unresolved: boolean
}

/** A target while reading; the state lives on it (no side maps) and becomes a MakeTarget at the end. */
interface TargetState {
  readonly name: string
  readonly file: string
  readonly line: number
  normal: Gathered | undefined
  orderOnly: Gathered | undefined
  variables: Set<string> | undefined
  doc: string
  doubleColon: boolean
  hasRecipe: boolean
  unresolvedPrerequisites: boolean
}

export interface ParseOptions {
  /** Reads a file; undefined when it is missing. */
  read: (abs: string) => string | undefined
  /** Include paths resolve against make's working directory (the directory make runs in). */
  cwd: string
  maxDepth?: number
  maxFiles?: number
  /** Whether a path exists, for `$(wildcard name)` without glob characters (default: it can be read). */
  exists?: (abs: string) => boolean
  /** Keep every rule's recipe lines and the variables (ParsedMakefile.recipes). Scans leave it off and pay nothing. */
  keepRecipes?: boolean
  /** Variables from make's command line (`make VAR=value`): makefile assignments to them count only with `override`. */
  commandLine?: readonly MakeDefinition[]
  /** Variables set before the makefiles are read (MAKECMDGOALS, CURDIR, the environment); makefiles may assign them. */
  preset?: readonly MakeDefinition[]
}

const CONDITIONAL_OPEN = new Set(['ifeq', 'ifneq', 'ifdef', 'ifndef'])
const MODIFIERS = new Set(['override', 'export', 'unexport', 'private'])
/**
 * A line statement() would read as a rule with one colon, told by one match: its first word no
 * directive, conditional or modifier (those words end at a blank or a colon there), then words with
 * none of `$`, `=`, `:` and `&` (the characters that decide the separator), then `:` that is not
 * `::` or `:=`. Most lines of a big makefile that aren't recipes are such rules.
 */
const PLAIN_RULE = /^(?!(?:ifeq|ifneq|ifdef|ifndef|else|endif|override|export|unexport|private|define|endef|include|-include|sinclude|undefine|vpath|load|-load)(?:[ \t:]|$))[^\s$=:&]+(?:[ \t]+[^\s$=:&]+)*[ \t]*:(?![:=])/
/** The modifiers of a line that has none, shared (frozen: nothing may add to it). */
const NO_MODIFIERS = Object.freeze([]) as unknown as string[]

interface Separator {
  kind: 'assign' | 'rule'
  index: number
  /** The assignment operator or `:` / `::` / `&:` / `&::` for rules. */
  op: string
}

/** Finds the first `=`-family operator or rule colon outside `$(...)`, as make reads a line. */
const SPECIAL = /[$=:]/g

// The search is the regular expression engine's, and each answer's operator a constant: a big
// makefile asks this of every line, in code that runs once.
function findSeparator(text: string, from = 0): Separator | undefined {
  const special = SPECIAL
  special.lastIndex = from
  while (special.test(text)) {
    const i = special.lastIndex - 1
    const ch = text.charCodeAt(i)
    if (ch === 36 /* $ */) {
      const next = text.charCodeAt(i + 1)
      if (next === 40 /* ( */ || next === 123 /* { */) {
        const close = closingBracket(text, i + 1)
        if (close === -1) return undefined
        special.lastIndex = close + 1
      }
      continue
    }
    if (ch === 61 /* = */) {
      const prev = text.charCodeAt(i - 1)
      if (prev === 43 /* + */) return { kind: 'assign', index: i - 1, op: '+=' }
      if (prev === 63 /* ? */) return { kind: 'assign', index: i - 1, op: '?=' }
      if (prev === 33 /* ! */) return { kind: 'assign', index: i - 1, op: '!=' }
      return { kind: 'assign', index: i, op: '=' }
    }
    // `:`: the assignments `:=`, `::=` and `:::=`, else a rule (`:`, `::`, grouped `&:`, `&::`).
    const n1 = text.charCodeAt(i + 1)
    if (n1 === 61) return { kind: 'assign', index: i, op: ':=' }
    if (n1 === 58 && text.charCodeAt(i + 2) === 61) return { kind: 'assign', index: i, op: '::=' }
    if (n1 === 58 && text.charCodeAt(i + 2) === 58 && text.charCodeAt(i + 3) === 61) return { kind: 'assign', index: i, op: ':::=' }
    const double = n1 === 58
    if (text.charCodeAt(i - 1) === 38 /* & */) return { kind: 'rule', index: i - 1, op: double ? '&::' : '&:' }
    return { kind: 'rule', index: i, op: double ? '::' : ':' }
  }
  return undefined
}

/** Index of the first `ch` outside `$(...)`, or -1. */
function findTopLevel(text: string, ch: string): number {
  let i = 0
  while (i < text.length) {
    const at = text.indexOf(ch, i)
    if (at === -1) return -1
    const dollar = text.indexOf('$', i)
    if (dollar === -1 || dollar > at) return at
    if (text[dollar + 1] === '(' || text[dollar + 1] === '{') {
      const close = closingBracket(text, dollar + 1)
      if (close === -1) return -1
      i = close + 1
    } else i = dollar + 1
  }
  return -1
}

/** Splits a make comment off: the first `#` not escaped with a backslash. */
function splitComment(text: string): { code: string; comment?: string } {
  for (let i = text.indexOf('#'); i !== -1; i = text.indexOf('#', i + 1)) {
    let backslashes = 0
    for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) backslashes++
    if (backslashes % 2 === 0) return { code: text.slice(0, i), comment: text.slice(i + 1) }
  }
  return { code: text }
}

/** A `## text` doc comment's text (`##@` section headings are not docs). */
function docOf(comment: string | undefined): string | undefined {
  if (comment === undefined || !comment.startsWith('#') || comment.startsWith('#@')) return undefined
  return comment.replace(/^#+/, '').trim()
}

function endsWithContinuation(line: string): boolean {
  let n = 0
  for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) n++
  return n % 2 === 1
}

/** What ends a line's first word: whitespace, `=` or `:`. */
const FIRST_WORD_END = /[ \t=:\n\r\v\f]/g

/** The leading run of characters up to whitespace, `=` or `:` (the regular expression engine finds its end). */
function firstWord(text: string): string {
  FIRST_WORD_END.lastIndex = 0
  return FIRST_WORD_END.test(text) ? text.slice(0, FIRST_WORD_END.lastIndex - 1) : text
}

/** Words as make enters them as file names: a leading `./` is dropped (`./a.o` is `a.o`). */
function fileNames(text: string): string[] {
  const out = words(text)
  for (let k = 0; k < out.length; k++) {
    let w = out[k]!
    while (w.length > 2 && w.startsWith('./')) w = w.slice(2)
    out[k] = w
  }
  return out
}

/** Runs of anything but make's blanks (space, tab, newline, carriage return, vertical tab, form feed). */
const WORD = /[^ \t\n\r\v\f]+/g

/** The blank-separated words of `text`, found by the regular expression engine (a big makefile has one list per rule). */
function words(text: string): string[] {
  return text.match(WORD) ?? []
}

/** Reads `rootFile` and every makefile it includes, as make reads them (see the module comment). */
export function parseMakefile(rootFile: string, options: ParseOptions): ParsedMakefile {
  return new MakefileReader(rootFile, options).parse()
}

/**
 * The reading state of one makefile: its open conditionals, the rule its recipe lines belong to and the
 * line being read. Each file gets its own, so an included file's conditionals end with it, as in make.
 */
class FileReading {
  readonly abs: string
  readonly stack: string[]
  readonly outerMaybe: boolean
  /** The targets of the rule the next recipe lines belong to; null once a line ends the rule. */
  rule: TargetState[] | null = null
  /** The `## doc` lines right above, for the rule below them. */
  docBlock: string[] = []
  readonly conditionals: Conditional[] = []
  // The reading state of the current line, updated whenever a conditional opens, turns or closes.
  skipping = false
  maybe: boolean
  // Whether any open conditional skips (or can't be decided), up to each depth: only the innermost
  // changes at a time, so each step costs the same however deep the nesting (50,000 levels stay linear).
  private readonly cumulative: Array<{ skip: boolean; maybe: boolean }> = []
  defineStart = 0
  defineDepth = 0
  /** The line being read: its number, its first physical line, the logical line with its comment, and its code unescaped. */
  lineNo = 0
  text = ''
  joined = ''
  comment: string | undefined = undefined
  unescaped = ''

  constructor(abs: string, stack: string[], outerMaybe: boolean) {
    this.abs = abs
    this.stack = stack
    this.outerMaybe = outerMaybe
    this.maybe = outerMaybe
  }

  /** Ends the run of `## doc` lines above (an empty run is kept as it is: most lines end none). */
  endDocs(): void {
    if (this.docBlock.length !== 0) this.docBlock = []
  }

  settle(): void {
    const conditionals = this.conditionals
    const cumulative = this.cumulative
    const n = conditionals.length
    if (cumulative.length > n) cumulative.length = n
    if (n > 0) {
      const prev = n > 1 ? cumulative[n - 2]! : { skip: false, maybe: false }
      const top = conditionals[n - 1]!
      cumulative[n - 1] = { skip: prev.skip || top.branch === 'skip', maybe: prev.maybe || top.branch === 'maybe' }
    }
    this.skipping = n > 0 && cumulative[n - 1]!.skip
    this.maybe = this.outerMaybe || (n > 0 && cumulative[n - 1]!.maybe)
  }
}

/**
 * One parse, across every makefile it reads: the variables, the targets and `.PHONY`, the files read
 * and the problems found. readFile splits a file into logical lines; a method per kind of line (define
 * body, recipe, comment, conditional, directive, assignment, rule) reads each; parse() ends with the result.
 */
class MakefileReader {
  private readonly rootFile: string
  private readonly options: ParseOptions
  private readonly maxDepth: number
  private readonly maxFiles: number
  private readonly globCache = new Map<string, string[]>()
  private readonly badGlobs = new Map<string, string>()
  private readonly exists: (abs: string) => boolean
  private readonly vars: MakeVariables
  private readonly keep: RecipeKeeper | undefined
  private readonly targets = new Map<string, TargetState>()
  private readonly phony = new Set<string>()
  private readonly problems: MakeProblem[] = []
  private readonly files: string[] = []
  private readonly seenFiles = new Set<string>()
  private readonly textCache = new Map<string, string | undefined>()
  private hasPhony = false
  // `.DEFAULT`'s rule, kept apart from the targets: only whether it has a recipe matters.
  private readonly defaultRule: TargetState
  private tooMany = false
  private firstTargetUnknown = false
  private recipePrefix = '\t'
  private targetsCapped = false
  private mergeBudget = MAX_TOTAL_PREREQUISITES
  private cutReported = false
  /** Whether the words expandWords gave last missed some that need run-time evaluation. */
  private lastUnresolved = false
  private readonly memo = new Map<string, { words: string[]; unresolved: boolean }>()
  private memoGeneration = -1

  constructor(rootFile: string, options: ParseOptions) {
    this.rootFile = rootFile
    this.options = options
    this.maxDepth = options.maxDepth ?? 16
    this.maxFiles = options.maxFiles ?? 1000
    this.exists = options.exists ?? ((abs: string) => this.read(abs) !== undefined)
    this.vars = new MakeVariables((patterns) => this.glob(patterns), options.cwd)
    for (const d of options.preset ?? []) this.vars.assign(d.name, d.op, d.value)
    for (const d of options.commandLine ?? []) this.vars.commandLine(d.name, d.op, d.value)
    this.keep = options.keepRecipes ? new RecipeKeeper(this.vars) : undefined
    this.defaultRule = { name: '.DEFAULT', file: rootFile, line: 0, normal: undefined, orderOnly: undefined, variables: undefined, doc: '',
      doubleColon: false, hasRecipe: false, unresolvedPrerequisites: false }
  }

  parse(): ParsedMakefile {
    const { rootFile, vars, problems } = this
    this.readFile(rootFile, [rootFile])
    if (vars.limitHit) {
      problems.push({ file: rootFile, severity: 'warning', message: `${vars.limitHit}; targets and prerequisites that need it are not listed` })
    }
    const refused = this.refuseOutside()
    const defaultGoal = this.defaultGoal()
    const targets = this.targetList(refused)
    const recipes = this.keep?.result(refused)
    return { targets, phony: this.phony, hasPhony: this.hasPhony, files: this.files, problems, defaultGoal, hasDefaultRecipe: this.defaultRule.hasRecipe,
      ...(recipes ? { recipes } : {}) }
  }

  private read(abs: string): string | undefined {
    if (!this.textCache.has(abs)) this.textCache.set(abs, this.options.read(abs))
    return this.textCache.get(abs)
  }

  // Globs through globs.ts (bounded patterns, each real directory listed once, the scan's caps),
  // each pattern crawled once however often it is written.
  private globOnce(pattern: string, absolute: boolean): string[] {
    const key = `${absolute ? 'a' : 'r'}${pattern}`
    let matches = this.globCache.get(key)
    if (!matches) {
      const cwd = this.options.cwd
      const { files, bad } = boundedGlob([makeGlob(pattern)], { cwd, root: cwd, insideRoot: false, onlyFiles: absolute, absolute, dot: false })
      matches = files.sort()
      if (bad.length) this.badGlobs.set(pattern, bad[0]!.reason)
      this.globCache.set(key, matches)
    }
    return matches
  }

  /** `$(wildcard ...)`: a name without glob characters only when it exists. */
  private glob(patterns: string[]): string[] {
    const exists = this.exists
    const found = new Set<string>()
    for (const pattern of patterns) {
      if (!/[*?[]/.test(pattern)) {
        if (exists(isAbsolute(pattern) ? pattern : join(this.options.cwd, pattern))) found.add(pattern)
        continue
      }
      for (const match of this.globOnce(pattern, false)) found.add(match)
    }
    return [...found].sort()
  }

  /** The target of that name, made on its first rule; undefined once MAX_TARGETS are made. */
  private targetFor(name: string, file: string, line: number, doubleColon: boolean): TargetState | undefined {
    let t = this.targets.get(name)
    if (!t) {
      if (this.targets.size >= MAX_TARGETS) {
        if (!this.targetsCapped) {
          const message = `the makefiles define more than ${MAX_TARGETS} targets (MAX_TARGETS); the rest are not listed`
          this.problems.push({ file, line, severity: 'warning', message })
        }
        this.targetsCapped = true
        return undefined
      }
      t = { name, file, line, normal: undefined, orderOnly: undefined, variables: undefined, doc: '', doubleColon, hasRecipe: false,
        unresolvedPrerequisites: false }
      this.targets.set(name, t)
    }
    return t
  }

  /** Records the variables a recipe line references for each target of its rule. */
  private addRecipeVariables(rule: TargetState[], line: string): void {
    if (rule.length === 1) return referencedVariables(line, (rule[0]!.variables ??= new Set()))
    const found = new Set<string>()
    referencedVariables(line, found)
    for (const t of rule) for (const v of found) (t.variables ??= new Set()).add(v)
  }

  // A target's prerequisites: the (shared, already unique) list of its first rule, turned into
  // an insertion-ordered set only when a second rule adds more. Arrays again at the end.
  private gather(current: Gathered | undefined, items: readonly string[]): Gathered | undefined {
    if (items.length === 0) return current
    if (current === undefined) return items
    // Bounded: a target's list stops at MAX_PREREQUISITES, and all merged lists together at
    // MAX_TOTAL_PREREQUISITES (the result lists no more than that anyway).
    if (this.mergeBudget <= 0) return current
    // Turning a shared list into a set copies it: that counts against the budget too.
    if (!(current instanceof Set)) this.mergeBudget -= current.length
    const set = current instanceof Set ? current : new Set(current)
    for (const item of items) {
      if (set.size >= MAX_PREREQUISITES) break
      if (!set.has(item)) set.add(item), this.mergeBudget--
    }
    return set
  }

  /** One rule's prerequisite words, cut to MAX_PREREQUISITES once for all its targets. */
  private bounded(list: string[], file: string, line: number): string[] {
    if (list.length <= MAX_PREREQUISITES) return list
    if (!this.cutReported) {
      const message = `a rule has ${list.length} prerequisites; only the first ${MAX_PREREQUISITES} are listed (MAX_PREREQUISITES)`
      this.problems.push({ file, line, severity: 'warning', message })
    }
    this.cutReported = true
    return list.slice(0, MAX_PREREQUISITES)
  }

  /** Expands a word list; words that need run-time evaluation are kept only when they hold no `$`. */
  private expandWords(text: string): string[] {
    const vars = this.vars
    // The same prerequisite text (a big header list, say) often repeats between assignments.
    if (this.memoGeneration !== vars.generation) (this.memo.clear(), (this.memoGeneration = vars.generation))
    let entry = this.memo.get(text)
    if (!entry) {
      const e = vars.expand(text)
      const found = e.unresolved ? fileNames(text).filter((w) => !w.includes('$')) : fileNames(e.value)
      entry = { words: found.length > 1 ? [...new Set(found)] : found, unresolved: e.unresolved !== undefined }
      if (text.includes('$')) this.memo.set(text, entry)
    }
    this.lastUnresolved = entry.unresolved
    return entry.words
  }

  /** What a conditional's test gives: true, false, or undefined when it can't be known statically. */
  private evaluate(word: string, argText: string): boolean | undefined {
    const vars = this.vars
    if (word === 'ifdef' || word === 'ifndef') {
      const e = vars.expand(argText.trim())
      const name = e.value.trim()
      if (e.unresolved || e.uncertain || name === '' || /\s/.test(name)) return undefined
      const has = vars.hasValue(name)
      return has === undefined ? undefined : has === (word === 'ifdef')
    }
    const args = conditionalArguments(argText.trim())
    if (!args) return undefined
    const a = vars.expand(args[0])
    const b = vars.expand(args[1])
    if (a.unresolved || b.unresolved || a.uncertain || b.uncertain) return undefined
    return (a.value === b.value) === (word === 'ifeq')
  }

  /** A problem at a line make may never read (an undecided branch) is only a warning. */
  private problem(f: FileReading, line: number, message: string, fatal: boolean): void {
    if (f.maybe) {
      const why = "make reads this line only in a conditional branch that can't be decided statically"
      this.problems.push({ file: f.abs, line, severity: 'warning', message: `${message} (${why})` })
    } else this.problems.push({ file: f.abs, line, severity: 'error', message, ...(fatal ? { fatal } : {}) })
  }

  private readFile(abs: string, stack: string[], outerMaybe = false): void {
    const text = this.read(abs)
    if (text === undefined) return
    if (!this.seenFiles.has(abs)) (this.seenFiles.add(abs), this.files.push(abs))
    // The lines of text.split('\n') (a carriage return before the newline dropped), cut one at a
    // time: a big makefile's lines then die young instead of all living through the whole read.
    const crlf = text.indexOf('\r') !== -1
    let pos = 0
    const nextLine = (): string => {
      let end = text.indexOf('\n', pos)
      if (end === -1) end = text.length
      const line = text.slice(pos, end)
      pos = end + 1
      return crlf && line.endsWith('\r') ? line.slice(0, -1) : line
    }
    const f = new FileReading(abs, stack, outerMaybe)
    for (let i = 0; pos <= text.length; i++) {
      // The scan's budget, checked now and then: a big makefile is read line by line without the file helpers.
      if ((i & 4095) === 4095 && outOfTime()) break
      f.lineNo = i + 1
      // Gather one logical line: a backslash at the end continues it (comments included, as in make).
      const first = nextLine()
      // Most lines stand alone: only a continued line gets a list of its parts.
      let parts: string[] | undefined
      for (let physical = first; physical.endsWith('\\') && endsWithContinuation(physical) && pos <= text.length;) {
        physical = nextLine()
        i++
        ;(parts ??= [first]).push(physical)
      }
      this.logicalLine(f, first, parts)
    }
    this.endOfFile(f)
  }

  /** One logical line (`first`, and its continuations in `parts` when it has any). */
  private logicalLine(f: FileReading, first: string, parts: string[] | undefined): void {
    if (f.defineDepth > 0) return this.defineBodyLine(f, first, parts)
    if (f.rule && first.startsWith(this.recipePrefix) && this.recipePrefix !== '') return this.recipeLine(f, first, parts)
    const joined = parts === undefined ? first : joinContinued(parts)
    if (this.keep) this.keep.at(f.abs, f.lineNo)
    // Most lines have no `#`: no split of a comment off them.
    let rawCode = joined
    let comment: string | undefined
    if (joined.indexOf('#') !== -1) ({ code: rawCode, comment } = splitComment(joined))
    // `\#` is a literal `#` outside recipes; make drops the backslash of `\ ` in names too.
    const unescaped = rawCode.indexOf('\\') === -1 ? rawCode : rawCode.replace(/\\([# ])/g, '$1')
    const code = unescaped.trim()
    if (code === '') {
      // A comment-only or blank line: a `## doc` line documents the rule directly below it.
      const doc = joined.trimStart().startsWith('#') ? docOf(comment) : undefined
      if (doc !== undefined) f.docBlock.push(doc)
      else f.endDocs()
      return
    }
    f.text = first
    f.joined = joined
    f.comment = comment
    f.unescaped = unescaped
    this.statement(f, code)
  }

  /** A line of a `define` body: only nested `define`/`endef` count, to find where it ends. */
  private defineBodyLine(f: FileReading, first: string, parts: string[] | undefined): void {
    const word = /^\s*(?:(?:override|export|private)\s+)*(define|endef)\b/.exec(first)?.[1]
    if (word === 'define') f.defineDepth++
    else if (word === 'endef') f.defineDepth--
    this.keep?.defineLine(f.defineDepth, parts === undefined ? first : joinContinued(parts))
  }

  /** A recipe line (with its continuations): only the variables it references matter here. */
  private recipeLine(f: FileReading, first: string, parts: string[] | undefined): void {
    if (f.skipping) return
    this.keep?.recipeLine(parts ?? [first], this.recipePrefix, f.abs, f.lineNo)
    const rule = f.rule!
    // Indexed, and the common line without continuations without a list of one: a big makefile has a recipe line per rule.
    for (let k = 0; k < rule.length; k++) rule[k]!.hasRecipe = true
    if (rule.length > 0) {
      if (parts === undefined) {
        if (first.includes('$')) this.addRecipeVariables(rule, first)
      } else for (let k = 0; k < parts.length; k++) if (parts[k]!.includes('$')) this.addRecipeVariables(rule, parts[k]!)
    }
    f.endDocs()
  }

  /** A line with code outside recipes: a directive (recognized by its first word), an assignment or a rule. */
  private statement(f: FileReading, code: string): void {
    if (!f.skipping && PLAIN_RULE.test(code)) return this.ruleLine(f, code, { kind: 'rule', index: code.indexOf(':'), op: ':' })
    let rest = code
    let word = firstWord(rest)
    if (CONDITIONAL_OPEN.has(word)) return this.openConditional(f, word, rest)
    if (word === 'else') return this.elseBranch(f, word, rest)
    if (word === 'endif') return this.endConditional(f)
    if (f.skipping) {
      // make does not read a skipped branch, except to find where a `define` inside it ends.
      if (/^(?:(?:override|export|private)\s+)*define(?:\s|$)/.test(code)) (f.defineDepth = 1, f.defineStart = f.lineNo)
      f.endDocs()
      return
    }
    // Made on the first modifier: most lines have none.
    let modifiers: string[] = NO_MODIFIERS
    while (MODIFIERS.has(word) && /^\s+\S/.test(rest.slice(word.length))) {
      // `export VAR = x`, `override define X`: a modifier before an assignment or define.
      const after = rest.slice(word.length).trimStart()
      if (findSeparator(after)?.kind === 'rule') break
      if (modifiers === NO_MODIFIERS) modifiers = []
      modifiers.push(word)
      rest = after
      word = firstWord(rest)
    }
    if (this.directive(f, word, rest, modifiers)) return
    const sep = findSeparator(rest)
    if (!sep) return this.unseparated(f, rest)
    if (sep.kind === 'assign') return this.assignment(f, rest, sep, modifiers)
    this.ruleLine(f, rest, sep)
  }

  /** `ifeq`, `ifneq`, `ifdef`, `ifndef`. */
  private openConditional(f: FileReading, word: string, rest: string): void {
    // Inside a skipped branch make only counts nesting; elsewhere the test decides the branch.
    const skipping = f.skipping
    const truth = skipping ? false : this.evaluate(word, rest.slice(word.length))
    const branch = skipping ? 'skip' : truth === undefined ? 'maybe' : truth ? 'read' : 'skip'
    f.conditionals.push({ word, line: f.lineNo, branch, taken: skipping ? true : truth })
    f.settle()
    f.endDocs()
  }

  /** `else`, maybe followed by another test (`else ifeq ...`). */
  private elseBranch(f: FileReading, word: string, rest: string): void {
    const top = f.conditionals.at(-1)
    if (!top) {
      const message = `"else" without a matching ifeq/ifneq/ifdef/ifndef (make stops with "extraneous 'else'"); remove it or add the missing conditional`
      this.problem(f, f.lineNo, message, true)
    } else if (top.taken === true) top.branch = 'skip'
    else {
      // `else` alone is always true; `else ifeq ...` tests again.
      const after = rest.slice(word.length).trim()
      const next = firstWord(after)
      const truth = after === '' ? true : CONDITIONAL_OPEN.has(next) ? this.evaluate(next, after.slice(next.length)) : undefined
      if (top.taken === false) top.branch = truth === undefined ? 'maybe' : truth ? 'read' : 'skip'
      else top.branch = truth === false ? 'skip' : 'maybe'
      top.taken = truth === true ? true : top.taken === false ? truth : undefined
    }
    f.settle()
    f.endDocs()
  }

  private endConditional(f: FileReading): void {
    if (f.conditionals.pop() === undefined) {
      const message = `"endif" without a matching ifeq/ifneq/ifdef/ifndef (make stops with "extraneous 'endif'"); remove it or add the missing conditional`
      this.problem(f, f.lineNo, message, true)
    }
    f.settle()
    f.endDocs()
  }

  /** `define`, `endef`, `include`, `undefine`, `vpath`, `load`, `export`: whether the line was one of them. */
  private directive(f: FileReading, word: string, rest: string, modifiers: string[]): boolean {
    if (word === 'define') {
      if (this.keep) this.keep.defineStart(rest, modifiers, f.maybe)
      else {
        const m = /^define\s+(\S+)/.exec(rest)
        if (m) this.vars.defineOpaque(this.vars.expand(m[1]!).value)
      }
      f.defineDepth = 1
      f.defineStart = f.lineNo
      f.rule = null
      f.endDocs()
      return true
    }
    if (word === 'endef') {
      this.problem(f, f.lineNo, `"endef" without a matching define (make stops with "extraneous 'endef'"); remove it or add the define`, true)
      return true
    }
    if (word === 'include' || word === '-include' || word === 'sinclude') {
      f.rule = null
      f.endDocs()
      this.include(f, word !== 'include', rest.slice(word.length))
      return true
    }
    if (word === 'undefine' && modifiers.length === 0) {
      this.vars.undefine(this.vars.expand(rest.slice(word.length).trim()).value, f.maybe)
      f.rule = null
      return true
    }
    if (word === 'vpath' || word === 'load' || word === '-load' || ((modifiers.length > 0 || MODIFIERS.has(word)) && findSeparator(rest) === undefined)) {
      // `export`, `export VAR`, `unexport VAR`, `vpath ...`: no rules and no values here.
      this.keep?.exportLine(word, modifiers, rest)
      f.rule = null
      return true
    }
    return false
  }

  /** A line with neither `=` nor `:`. */
  private unseparated(f: FileReading, rest: string): void {
    f.endDocs()
    // `$(eval ...)`, `$(info ...)` and friends at top level produce text make then reads; left alone.
    if (rest.startsWith('$(') || rest.startsWith('${')) return
    const first = f.text
    const prefix = this.recipePrefix
    const message = first.startsWith(prefix)
      ? 'recipe line before any rule (make stops with "recipe commences before first target"); '
        + `put a "target:" line above it or remove the leading ${prefix === '\t' ? 'tab' : `"${prefix}"`}`
      : `line is neither a rule nor an assignment (make stops with "missing separator"); ${
        prefix !== '\t' && first.startsWith('\t') ? `.RECIPEPREFIX is "${prefix}" here, so recipe lines must start with it, not with a tab`
          : /^ {2,}/.test(first) ? 'recipe lines must start with a tab, not spaces' : 'add ":" for a rule or "=" for a variable'}`
    this.problem(f, f.lineNo, message, true)
  }

  /** `NAME op value`, maybe after `override` or `export`. */
  private assignment(f: FileReading, rest: string, sep: Separator, modifiers: string[]): void {
    const vars = this.vars
    const name = vars.expand(rest.slice(0, sep.index).trim()).value.trim()
    // make keeps the whitespace that ends a value (up to a comment), not the one that starts it.
    const after = rest.slice(sep.index + sep.op.length)
    const unescaped = f.unescaped
    const value = after.trim() === '' ? '' : after.trimStart() + unescaped.slice(unescaped.trimEnd().length)
    if (name !== '') {
      vars.assign(name, sep.op, value, f.maybe, modifiers.includes('override'))
      if (this.keep && modifiers.includes('export')) this.keep.exported.add(name)
      if (name === '.RECIPEPREFIX') this.recipePrefix = vars.expand(vars.raw(name) ?? '').value[0] ?? '\t'
    }
    f.rule = null
    f.endDocs()
  }

  /** A rule: targets, then prerequisites, maybe an inline `; recipe`. */
  private ruleLine(f: FileReading, rest: string, sep: Separator): void {
    const targetText = rest.slice(0, sep.index)
    let after = rest.slice(sep.index + sep.op.length)
    let inlineRecipe: string | undefined
    const semi = findTopLevel(after, ';')
    if (semi !== -1) {
      inlineRecipe = after.slice(semi + 1)
      after = after.slice(0, semi)
    }
    // Prerequisites with neither `=` nor `:` have no separator (the usual rule): no search.
    const inner = after.indexOf(':') === -1 && after.indexOf('=') === -1 ? undefined : findSeparator(after)
    const docs = docOf(f.comment) || (f.docBlock.length ? f.docBlock.filter((d) => d !== '').join(' ') : '')
    f.endDocs()
    if (inner?.kind === 'assign') {
      // `target: VAR = value` sets a target-specific variable; it is not a rule.
      this.keep?.targetVariables(targetText, rest.slice(sep.index + sep.op.length), f.abs, f.lineNo)
      f.rule = null
      return
    }
    const expandedTargets = this.vars.expand(targetText)
    const names = expandedTargets.unresolved ? [] : fileNames(expandedTargets.value)
    // The first rule names the default goal; a name computed at run time can't be known here.
    if (expandedTargets.unresolved && this.targets.size === 0) this.firstTargetUnknown = true
    let prereqText = after
    let staticPattern: string | undefined
    if (inner?.kind === 'rule') {
      // Static pattern rule `objs: %.o: %.c`: the prerequisites come from the pattern.
      staticPattern = this.vars.expand(after.slice(0, inner.index)).value.trim()
      prereqText = after.slice(inner.index + inner.op.length)
      if (!staticPattern.includes('%')) {
        // `a: x: y` (every line of /etc/passwd, say): make stops reading here.
        const message = `static pattern rule whose target pattern has no "%" (make stops with "target pattern contains no '%'"); `
          + 'put a "%" in the pattern, or remove the second ":"'
        this.problems.push({ file: f.abs, line: f.lineNo, severity: 'error', message })
        f.rule = null
        return
      }
    }
    const bar = findTopLevel(prereqText, '|')
    const normalText = bar === -1 ? prereqText : prereqText.slice(0, bar)
    const orderOnlyText = bar === -1 ? '' : prereqText.slice(bar + 1)
    const normal = this.bounded(this.expandWords(normalText), f.abs, f.lineNo)
    let unresolved = this.lastUnresolved
    const orderOnly = bar === -1 ? [] : this.bounded(this.expandWords(orderOnlyText), f.abs, f.lineNo)
    unresolved ||= this.lastUnresolved
    const ruleTargets = this.ruleTargets(f, names, { normal, orderOnly, staticPattern, docs, doubleColon: sep.op.endsWith('::'), unresolved })
    f.rule = ruleTargets
    if (this.keep) {
      const inline = inlineRecipe === undefined ? undefined : inlineRecipeText(f.joined) ?? inlineRecipe
      this.keep.rule({ names, normal: normalText, orderOnly: orderOnlyText, staticPattern, op: sep.op, file: f.abs, line: f.lineNo, inline, unresolved })
    }
    if (inlineRecipe !== undefined) {
      for (const t of ruleTargets) t.hasRecipe = true
      if (ruleTargets.length > 0 && inlineRecipe.includes('$')) this.addRecipeVariables(ruleTargets, inlineRecipe)
    }
  }

  /** What one rule line gives each of its targets (`.PHONY` and `.DEFAULT` apart; special and pattern targets left out). */
  private ruleTargets(f: FileReading, names: readonly string[], rule: RuleGiven): TargetState[] {
    const { normal, orderOnly, staticPattern, docs } = rule
    const ruleTargets: TargetState[] = []
    for (const name of names) {
      if (name === '.PHONY') {
        this.hasPhony = true
        // Indexed: a big makefile has a `.PHONY` line per few rules, and a spread of both lists walks them through an iterator.
        for (let k = 0; k < normal.length; k++) this.phony.add(normal[k]!)
        for (let k = 0; k < orderOnly.length; k++) this.phony.add(orderOnly[k]!)
        continue
      }
      if (name === '.DEFAULT') {
        ruleTargets.push(this.defaultRule)
        continue
      }
      if (name.startsWith('.') || name.includes('%')) continue
      const t = this.targetFor(name, f.abs, f.lineNo, rule.doubleColon)
      if (!t) break
      t.normal = this.gather(t.normal, staticPattern ? substitutePattern(staticPattern, name, normal) : normal)
      t.orderOnly = this.gather(t.orderOnly, staticPattern ? substitutePattern(staticPattern, name, orderOnly) : orderOnly)
      if (!t.doc && docs) t.doc = docs
      if (rule.unresolved) t.unresolvedPrerequisites = true
      ruleTargets.push(t)
    }
    return ruleTargets
  }

  /** What is still open when a file ends: make stops there. */
  private endOfFile(f: FileReading): void {
    const openAtEnd = f.conditionals.splice(0)
    f.settle()
    if (f.defineDepth > 0) {
      this.problem(f, f.defineStart, `"define" without a matching "endef" (make stops with "missing 'endef'"); add "endef" after the variable's value`, true)
    }
    for (const c of openAtEnd) {
      this.problem(f, c.line, `"${c.word}" without a matching "endif" (make stops with "missing 'endif'"); add "endif" to close it`, true)
    }
  }

  /** `include`, `-include`, `sinclude`: every file the words name (globs expanded), each read in turn. */
  private include(f: FileReading, optional: boolean, argText: string): void {
    const directive = optional ? '-include' : 'include'
    const e = this.vars.expand(argText.trim())
    if (e.unresolved || e.undefinedVars.length > 0) {
      const why = e.unresolved ?? `it uses ${e.undefinedVars.join(', ')}, which no makefile assigns (it may come from the environment or the command line)`
      const message = `${directive} ${argText.trim()} can't be resolved statically: ${why}; `
        + 'targets defined there are not listed (name the file literally, or assign the variable in the makefile)'
      this.problems.push({ file: f.abs, line: f.lineNo, severity: 'warning', message })
      return
    }
    for (const path of words(e.value)) {
      const candidates = /[*?[]/.test(path) ? this.globOnce(path, true) : [isAbsolute(path) ? path : join(this.options.cwd, path)]
      const badGlob = this.badGlobs.get(path)
      if (badGlob) {
        const shown = path.length > 80 ? `${path.slice(0, 77)}...` : path
        const message = `${directive} ${shown} is not a pattern command-scout can follow (${badGlob}); files it would include are not read`
        this.problems.push({ file: f.abs, line: f.lineNo, severity: 'warning', message })
      }
      for (const abs of candidates) this.includeFile(f, optional, path, abs)
    }
  }

  /** One file an include names: read it, unless that would loop, go too deep, or it was read before. */
  private includeFile(f: FileReading, optional: boolean, path: string, abs: string): void {
    const { abs: from, lineNo: line, stack, maybe } = f
    const directive = optional ? '-include' : 'include'
    this.keep?.included(abs)
    if (stack.includes(abs)) {
      const chain = [...stack.slice(stack.indexOf(abs)), abs].map((file) => relative(this.options.cwd, file).split(pathSep).join('/'))
      const message = `include cycle ${chain.join(' -> ')}: make would include these files forever; remove one of the include lines`
      this.problems.push({ file: from, line, severity: 'error', message })
      return
    }
    if (stack.length >= this.maxDepth) {
      const message = `${directive} ${path} is nested more than ${this.maxDepth} levels deep; not followed (flatten the include chain)`
      this.problems.push({ file: from, line, severity: 'error', message })
      return
    }
    if (this.read(abs) === undefined) {
      // There but unreadable (a FIFO, a device, too big, no permission): the reader reported why.
      if (this.options.exists?.(abs)) return
      if (!optional && !maybe) {
        const message = `included file ${path} does not exist (make stops with "No such file or directory" unless a rule creates it); `
          + 'create it, fix the path, or use -include for an optional file'
        this.problems.push({ file: from, line, severity: 'warning', message })
      }
      return
    }
    // make reads a file again each time it is included; its rules would only merge into the
    // ones already read, so each file is read once and the cost stays linear in the input.
    if (this.seenFiles.has(abs)) return
    if (this.seenFiles.size >= this.maxFiles) {
      if (!this.tooMany) {
        const message = `more than ${this.maxFiles} makefiles are included; the rest are not followed (split the build or raise the limit)`
        this.problems.push({ file: from, line, severity: 'error', message })
      }
      this.tooMany = true
      return
    }
    this.readFile(abs, [...stack, abs], maybe)
  }

  /**
   * A makefile outside the directory make runs in is read only as make reads it: when make would
   * refuse it (an error found), nothing from it is listed (include /etc/passwd lists no users).
   * Returns the refused files, their problems replaced by one each.
   */
  private refuseOutside(): Set<string> {
    const problems = this.problems
    const base = realRoot(this.options.cwd)
    const refusedOutside = new Set<string>()
    for (const file of this.files) {
      if (isInside(realOrSelf(file), base)) continue
      if (problems.some((p) => p.file === file && p.severity === 'error')) refusedOutside.add(file)
    }
    if (refusedOutside.size > 0) {
      // make stops at a file's first error: one diagnostic per refused file, none of its contents.
      const firstError = new Map<string, MakeProblem>()
      for (const p of problems) if (refusedOutside.has(p.file) && p.severity === 'error' && !firstError.has(p.file)) firstError.set(p.file, p)
      const kept = problems.filter((p) => !refusedOutside.has(p.file))
      problems.length = 0
      problems.push(...kept)
      for (const [file, p] of firstError) {
        // The makefile itself can be a link out of the directory: then it is no include.
        const what = file === this.rootFile ? 'this makefile is a link to a file outside the scanned directory, and make refuses that file'
          : 'this included makefile is outside the scanned directory and make refuses it'
        problems.push({ file, ...(p.line !== undefined ? { line: p.line } : {}), severity: 'error', message: `${what}: ${p.message}; none of its targets are listed` })
      }
    }
    return refusedOutside
  }

  /** What plain `make` builds: `.DEFAULT_GOAL` when set, else the first target. */
  private defaultGoal(): string | undefined {
    const vars = this.vars
    if (vars.has('.DEFAULT_GOAL')) {
      const e = vars.expand(vars.raw('.DEFAULT_GOAL') ?? '')
      return e.unresolved ? undefined : words(e.value)[0]
    }
    return this.firstTargetUnknown ? COMPUTED_GOAL : this.targets.keys().next().value
  }

  /** The targets as the result lists them, without those from refused files. */
  private targetList(refused: ReadonlySet<string>): MakeTarget[] {
    const list: MakeTarget[] = []
    // Lists are copied per target only up to MAX_TOTAL_PREREQUISITES in all (the recipes keep no more).
    let listBudget = MAX_TOTAL_PREREQUISITES
    const copy = (g: Gathered | undefined): string[] => {
      if (!g) return []
      if (listBudget <= 0) {
        if (listBudget === 0) {
          const message = `the targets have more than ${MAX_TOTAL_PREREQUISITES} prerequisites in all (MAX_TOTAL_PREREQUISITES); `
            + 'later targets are listed without theirs'
          this.problems.push({ file: this.rootFile, severity: 'warning', message })
        }
        listBudget = -1
        return []
      }
      const out = g instanceof Set ? [...g] : g.slice(0, listBudget)
      listBudget -= out.length
      return out
    }
    for (const t of this.targets.values()) {
      if (refused.has(t.file)) continue
      // Names only: referencedVariables, the one way into the set, takes no automatic variable ($@, $(<D), ...).
      const variables = t.variables ? [...t.variables] : []
      list.push({
        name: t.name,
        file: t.file,
        line: t.line,
        prerequisites: copy(t.normal),
        orderOnly: copy(t.orderOnly),
        variables,
        doc: t.doc,
        doubleColon: t.doubleColon,
        hasRecipe: t.hasRecipe,
        unresolvedPrerequisites: t.unresolvedPrerequisites,
      })
    }
    return list
  }
}

/** `text` with its `$(...)` and `${...}` references cut out (the words inside them are no file names). */
function withoutReferences(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      const close = closingBracket(text, i + 1)
      if (close === -1) return out
      out += ' '
      i = close
    } else out += text[i]
  }
  return out
}

/** One logical line from its physical parts, as make joins them outside recipes: each backslash-newline and the blanks around it become one space. */
function joinContinued(parts: readonly string[]): string {
  return parts.map((p, k, all) => {
    const trimmed = k < all.length - 1 ? p.slice(0, -1).trimEnd() : p
    return k === 0 ? trimmed : trimmed.trimStart()
  }).join(' ')
}

/**
 * The inline recipe of a rule line (`target: prereqs ; recipe`) as make takes it: everything after
 * the first `;` outside references, comments included (a `#` before it starts a comment instead).
 */
function inlineRecipeText(line: string): string | undefined {
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) {
      const close = closingBracket(line, i + 1)
      if (close === -1) return undefined
      i = close
    } else if (c === '#' && line[i - 1] !== '\\') return undefined
    else if (c === ';') return line.slice(i + 1)
  }
  return undefined
}


/** make globs like glob(3): `**` is no recursive wildcard there, just `*`. */
function makeGlob(pattern: string): string {
  return pattern.replace(/\*{2,}/g, '*')
}

/** For a static pattern rule: `%.o` matched against `foo.o` turns `%.c` into `foo.c`. */
function substitutePattern(targetPattern: string, target: string, prerequisites: string[]): string[] {
  const pct = targetPattern.indexOf('%')
  if (pct === -1) return prerequisites
  const prefix = targetPattern.slice(0, pct)
  const suffix = targetPattern.slice(pct + 1)
  if (!target.startsWith(prefix) || !target.endsWith(suffix) || target.length < prefix.length + suffix.length) return prerequisites
  const stem = target.slice(prefix.length, target.length - suffix.length)
  return prerequisites.map((p) => p.replace('%', stem))
}

/**
 * The two arguments of `ifeq`/`ifneq`, unexpanded: `(a,b)` (the comma outside parentheses, as make
 * finds it) or two quoted strings (`"a" 'b'`); undefined when the syntax is not one of these.
 */
function conditionalArguments(text: string): [string, string] | undefined {
  if (text.startsWith('(')) {
    let depth = 0
    let comma = -1
    for (let i = 1; i < text.length; i++) {
      const c = text[i]
      if (c === '(') depth++
      else if (c === ')') {
        if (depth === 0) return comma === -1 ? undefined : [text.slice(1, comma).trim(), text.slice(comma + 1, i).trim()]
        depth--
      } else if (c === ',' && depth === 0 && comma === -1) comma = i
    }
    return undefined
  }
  const m = /^(["'])(.*?)\1\s+(["'])(.*?)\3/.exec(text)
  return m ? [m[2]!, m[4]!] : undefined
}

// ---------------------------------------------------------------------------------------------
// What recipes run (ParseOptions.keepRecipes): kept only when asked, so that scans pay nothing.

/** A variable definition (`NAME op value`), from make's command line, the environment or a makefile. */
export interface MakeDefinition {
  readonly name: string
  /** `=`, `:=`, `::=`, `:::=`, `+=`, `?=`. */
  readonly op: string
  readonly value: string
}

export interface MakeRecipeLine {
  /**
   * The line as written, without its recipe prefix; a continued line keeps its backslash-newlines,
   * with the prefix of each continuation removed, as make hands it to the shell.
   */
  readonly text: string
  /** Absolute path of the makefile. */
  readonly file: string
  readonly line: number
}

export interface MakeRule {
  readonly targets: readonly string[]
  readonly file: string
  readonly line: number
  /** Normal prerequisites as written, repeats kept (`$+`); a static pattern rule's still hold `%`. */
  readonly prerequisites: readonly string[]
  readonly orderOnly: readonly string[]
  /** The recipe lines; undefined when the rule has no recipe (an empty `;` is an empty recipe). */
  recipe: MakeRecipeLine[] | undefined
  readonly doubleColon: boolean
  /** `a b &: x`: one run of the recipe makes every target. */
  readonly grouped: boolean
  /** The target pattern of a static pattern rule (`%.o` in `objs: %.o: %.c`). */
  readonly staticPattern?: string
  /** Some prerequisites could not be expanded statically (they are missing from the lists). */
  readonly unresolvedPrerequisites: boolean
  /** The prerequisites as written, when some could not be expanded. */
  readonly writtenPrerequisites?: string
}

export interface MakeTargetVariable extends MakeDefinition {
  readonly override: boolean
  /** `private`: not inherited by the prerequisites. */
  readonly private: boolean
  readonly file: string
  readonly line: number
}

/** A command make runs while it reads the makefiles (`$(shell ...)`, `VAR != ...`). */
export interface MakeShellCall {
  /** As written in the makefile. */
  readonly written: string
  /** Expanded, when every reference in it is known. */
  readonly command?: string
  readonly file: string
  readonly line: number
}

export interface MakeRecipes {
  /** Explicit rules per target, in reading order (special targets such as `.DEFAULT` included). */
  readonly rules: ReadonlyMap<string, readonly MakeRule[]>
  /** Pattern rules (`%.o: %.c`), in reading order. */
  readonly patternRules: readonly MakeRule[]
  readonly targetVariables: ReadonlyMap<string, readonly MakeTargetVariable[]>
  /** Pattern-specific variables (`%.o: CFLAGS += -g`). */
  readonly patternVariables: ReadonlyArray<MakeTargetVariable & { readonly pattern: string }>
  /** The variable table once every makefile is read, to expand recipe lines with (expandRecipe). */
  readonly variables: MakeVariables
  /** `.ONESHELL:` appears: each recipe runs as one script. */
  readonly oneShell: boolean
  /** The suffix list (`.SUFFIXES`), which decides `$*` in explicit rules. */
  readonly suffixes: readonly string[]
  /** Variables exported to the recipes' environment (and so to sub-makes); `exportAll` for all of them. */
  readonly exported: ReadonlySet<string>
  readonly exportAll: boolean
  readonly shellCalls: readonly MakeShellCall[]
  /** `.SECONDEXPANSION:` appears: prerequisites are expanded again, which is not done here. */
  readonly secondExpansion: boolean
  /** Absolute paths of every file an `include` names, read or not (make tries to make the missing ones). */
  readonly includes: readonly string[]
}

/** make's built-in suffix list (`make -p -f /dev/null`). */
export const DEFAULT_SUFFIXES: readonly string[] = ['.out', '.a', '.ln', '.o', '.c', '.cc', '.C', '.cpp', '.p', '.f', '.F', '.m', '.r', '.y', '.l', '.ym',
  '.yl', '.s', '.S', '.mod', '.sym', '.def', '.h', '.info', '.dvi', '.tex', '.texinfo', '.texi', '.txinfo', '.w', '.ch', '.web', '.sh', '.elc', '.el']

/** Commands recorded from reading (MAX_SHELL_CALLS): one `$(shell)` in a `$(foreach)` can run thousands of times. */
const MAX_SHELL_CALLS = 200

interface RuleInput {
  names: readonly string[]
  normal: string
  orderOnly: string
  staticPattern: string | undefined
  op: string
  file: string
  line: number
  inline: string | undefined
  unresolved: boolean
}

/** Gathers, while the makefiles are read, what MakeRecipes holds. */
class RecipeKeeper {
  readonly #vars: MakeVariables
  readonly #rules = new Map<string, MakeRule[]>()
  readonly #patternRules: MakeRule[] = []
  readonly #targetVariables = new Map<string, MakeTargetVariable[]>()
  readonly #patternVariables: Array<MakeTargetVariable & { pattern: string }> = []
  readonly #shellCalls: MakeShellCall[] = []
  readonly #seenCalls = new Set<string>()
  readonly exported = new Set<string>()
  readonly #includes = new Set<string>()
  #exportAll = false
  #oneShell = false
  #secondExpansion = false
  #suffixes: string[] = [...DEFAULT_SUFFIXES]
  #current: MakeRule | undefined
  #define: { name: string; op: string; override: boolean; maybe: boolean; lines: string[] } | undefined
  #file = ''
  #line = 0

  constructor(vars: MakeVariables) {
    this.#vars = vars
    vars.onShell = (written, command) => this.#shell(written, command)
  }

  /** Where the line being read is, for the commands make runs while reading it. */
  at(file: string, line: number): void {
    this.#file = file
    this.#line = line
  }

  #shell(written: string, command: string | undefined): void {
    const key = `${this.#file}\0${this.#line}\0${written}`
    if (this.#seenCalls.has(key) || this.#shellCalls.length >= MAX_SHELL_CALLS) return
    this.#seenCalls.add(key)
    this.#shellCalls.push({ written, ...(command !== undefined ? { command } : {}), file: this.#file, line: this.#line })
  }

  rule(input: RuleInput): void {
    const special = input.names.length > 0 && input.names.every((n) => n.startsWith('.') && !n.includes('%') && !n.includes('/'))
    if (special) this.#special(input)
    const rule: MakeRule = {
      targets: input.names,
      file: input.file,
      line: input.line,
      prerequisites: this.#words(input.normal),
      orderOnly: this.#words(input.orderOnly),
      recipe: input.inline === undefined ? undefined : [],
      doubleColon: input.op.endsWith('::'),
      grouped: input.op.startsWith('&'),
      ...(input.staticPattern !== undefined ? { staticPattern: input.staticPattern } : {}),
      unresolvedPrerequisites: input.unresolved,
      ...(input.unresolved ? { writtenPrerequisites: `${input.normal}${input.orderOnly ? ` | ${input.orderOnly}` : ''}`.trim() } : {}),
    }
    if (input.inline !== undefined && input.inline.trim() !== '') rule.recipe!.push({ text: input.inline, file: input.file, line: input.line })
    this.#current = rule
    for (const name of input.names) {
      if (name.includes('%') && input.staticPattern === undefined) {
        if (!this.#patternRules.includes(rule)) this.#patternRules.push(rule)
        continue
      }
      let list = this.#rules.get(name)
      if (!list) {
        if (this.#rules.size >= MAX_TARGETS) continue
        this.#rules.set(name, (list = []))
      }
      list.push(rule)
    }
  }

  /** The special targets that change how recipes run or expand. */
  #special(input: RuleInput): void {
    for (const name of input.names) {
      if (name === '.ONESHELL') this.#oneShell = true
      else if (name === '.EXPORT_ALL_VARIABLES') this.#exportAll = true
      else if (name === '.SECONDEXPANSION') this.#secondExpansion = true
      else if (name === '.SUFFIXES') {
        const list = this.#words(input.normal)
        if (list.length === 0) this.#suffixes = []
        else this.#suffixes.push(...list.filter((s) => !this.#suffixes.includes(s)))
      }
    }
  }

  /** A rule's prerequisite words in order, repeats kept; words computed at run time are left out. */
  #words(text: string): string[] {
    if (text.trim() === '') return []
    const e = this.#vars.expand(text)
    return e.unresolved ? fileNames(withoutReferences(text)).filter((w) => !w.includes('$')) : fileNames(e.value)
  }

  included(abs: string): void {
    if (this.#includes.size < MAX_TARGETS) this.#includes.add(abs)
  }

  recipeLine(parts: readonly string[], prefix: string, file: string, line: number): void {
    const rule = this.#current
    if (!rule) return
    const text = parts.map((p, k) => (k === 0 || p.startsWith(prefix) ? p.slice(prefix.length) : p)).join('\n')
    ;(rule.recipe ??= []).push({ text, file, line })
  }

  /** `target: [override|export|private] VAR op value`. */
  targetVariables(targetText: string, text: string, file: string, line: number): void {
    const targets = this.#vars.expand(targetText)
    if (targets.unresolved) return
    const flags = new Set<string>()
    let rest = text.trimStart()
    for (let word = firstWord(rest); MODIFIERS.has(word) && /^\s/.test(rest.slice(word.length)); word = firstWord(rest)) {
      flags.add(word)
      rest = rest.slice(word.length).trimStart()
    }
    const sep = findSeparator(rest)
    if (sep?.kind !== 'assign') return
    const name = this.#vars.expand(rest.slice(0, sep.index).trim()).value.trim()
    if (name === '' || (this.#vars.isCommandLine(name) && !flags.has('override'))) return
    const raw = rest.slice(sep.index + sep.op.length).trimStart()
    // `:=` expands now, in the global context (target-specific values read before are not seen here).
    const simple = sep.op === ':=' || sep.op === '::='
    const value = simple ? this.#vars.expand(raw).value : raw
    const base = { name, op: simple ? ':=' : sep.op, value, override: flags.has('override'), private: flags.has('private'), file, line }
    if (flags.has('export')) this.exported.add(name)
    for (const target of fileNames(targets.value)) {
      if (target.includes('%')) this.#patternVariables.push({ ...base, pattern: target })
      else {
        let list = this.#targetVariables.get(target)
        if (!list) this.#targetVariables.set(target, (list = []))
        list.push(base)
      }
    }
  }

  /** `define NAME [op]`: the body is gathered line by line and assigned at `endef`. */
  defineStart(text: string, modifiers: readonly string[], maybe: boolean): void {
    const m = /^define\s+(.*?)\s*(:::=|::=|:=|\+=|\?=|!=|=)?\s*$/.exec(text)
    const name = m ? this.#vars.expand(m[1]!).value.trim() : ''
    this.#define = name === '' ? undefined : { name, op: m?.[2] ?? '=', override: modifiers.includes('override'), maybe, lines: [] }
    if (this.#define && modifiers.includes('export')) this.exported.add(name)
  }

  defineLine(depth: number, line: string): void {
    const d = this.#define
    if (!d) return
    if (depth > 0) {
      d.lines.push(line)
      return
    }
    this.#define = undefined
    this.#vars.assign(d.name, d.op, d.lines.join('\n'), d.maybe, d.override)
  }

  /** `export`, `export A B`, `unexport A`. */
  exportLine(word: string, modifiers: readonly string[], rest: string): void {
    if (modifiers.length === 0) {
      if (word === 'export' && rest === 'export') this.#exportAll = true
      if (word === 'unexport' && rest === 'unexport') this.#exportAll = false
      return
    }
    const last = modifiers.at(-1)
    if (last !== 'export' && last !== 'unexport') return
    for (const name of words(this.#vars.expand(rest).value)) last === 'export' ? this.exported.add(name) : this.exported.delete(name)
  }

  /** What was kept, without what came from makefiles make refuses (outside the root). */
  result(refused: ReadonlySet<string>): MakeRecipes {
    this.#vars.onShell = undefined
    const kept = (rule: MakeRule): boolean => !refused.has(rule.file)
    const rules = new Map<string, MakeRule[]>()
    for (const [name, list] of this.#rules) {
      const own = refused.size === 0 ? list : list.filter(kept)
      if (own.length > 0) rules.set(name, own)
    }
    return {
      rules,
      patternRules: this.#patternRules.filter(kept),
      targetVariables: this.#targetVariables,
      patternVariables: this.#patternVariables,
      variables: this.#vars,
      oneShell: this.#oneShell,
      suffixes: this.#suffixes,
      exported: this.exported,
      exportAll: this.#exportAll,
      shellCalls: this.#shellCalls.filter((c) => !refused.has(c.file)),
      secondExpansion: this.#secondExpansion,
      includes: [...this.#includes],
    }
  }
}
