/**
 * What a make recipe runs: the command lines GNU make would hand to the shell for `make <target>
 * [args]`, in the order it runs them, read statically from the makefile make picks at the
 * recipe's directory and every file it includes (src/collectors/make/parse.ts with `keepRecipes`).
 *
 * As make does: prerequisites first, depth-first, each target once per make process; the rule with
 * the recipe (or each rule of a double-colon target; or the first pattern rule that applies; or
 * `.DEFAULT`); each recipe line expanded with the variable table, the target-specific and pattern-
 * specific variables in effect (inherited by prerequisites), the automatic variables and the call's
 * `VAR=value` words, which win over the makefiles as on make's command line. A line that runs make
 * again (`$(MAKE) -C lib clean`, `cd lib && make clean`, `make -f other.mk t`) is followed into that
 * make when its directory and makefile are inside the root. The commands `$(shell ...)` and `!=`
 * run while make reads the makefiles come first. What can't be known statically stays in the line
 * as written and goes to `unknown` with why. Built-in implicit rules (compilers) are not modelled.
 */
import { isAbsolute, posix, relative, resolve, sep } from 'node:path'
import { parse as parseShell, type Command, type CompoundList, type Statement, type Word } from 'unbash'
import { isDir, pathExists } from '../../../collectors/shared/fs.js'
import { insideRoot } from '../../../collectors/shared/inside-root.js'
import { DEFAULT_GOAL_NAME, MAKEFILE_NAMES } from '../../../collectors/make/collect.js'
import {
  COMPUTED_GOAL, parseMakefile, type MakeDefinition, type MakeRecipeLine, type MakeRecipes, type MakeRule, type MakeTargetVariable, type ParsedMakefile,
} from '../../../collectors/make/parse.js'
import type { Variable } from '../../../collectors/make/vars.js'
import { shellWord } from '../../../base/quote.js'
import type { BodyContext, BodyLine, BodyReader, RecipeBody, UnknownPart } from '../types.js'
import { MAX_DEPTH, MAX_LINES, MAX_UNKNOWN, memoized, relPath, type LineAt } from './text-body.js'

/** make processes (the call's and its sub-makes) one judgement reads, at most. */
const MAX_INVOCATIONS = 256
/** Text gathered past the bounds (lines, unknown parts, the depth) into one unknown part, at most. */
const MAX_SPILL = 256 * 1024
/** Text of a makefile or of the recipes past a bound given in an unknown part, at most. */
const MAX_HIDDEN = 64 * 1024
/** Targets whose recipes parts past the depth bound carry, per make process. */
const MAX_TARGETS_HIDDEN = 20_000
/** Rounds of a shell `for` loop walked to find the sub-makes it runs. */
const MAX_LOOP_WORDS = 64
/** Pattern rules chained to find how a prerequisite is made (make chains them too, through intermediates). */
const MAX_CHAIN = 3

/** Variables make defines itself (`make -p -f /dev/null`), for recipes of makefiles that don't assign them. */
const MAKE_DEFAULTS: ReadonlyArray<[string, string]> = [
  ['AR', 'ar'], ['ARFLAGS', 'rv'], ['AS', 'as'], ['CC', 'cc'], ['CXX', 'g++'], ['CPP', '$(CC) -E'], ['FC', 'f77'], ['F77', '$(FC)'],
  ['LD', 'ld'], ['LEX', 'lex'], ['YACC', 'yacc'], ['RM', 'rm -f'], ['MAKEINFO', 'makeinfo'], ['TEX', 'tex'], ['PC', 'pc'], ['OBJC', 'cc'],
  ['OUTPUT_OPTION', '-o $@'], ['SHELL', '/bin/sh'], ['.SHELLFLAGS', '-c'],
  ['COMPILE.c', '$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c'], ['COMPILE.cc', '$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c'],
  ['COMPILE.cpp', '$(COMPILE.cc)'], ['COMPILE.C', '$(COMPILE.cc)'], ['LINK.c', '$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)'],
  ['LINK.o', '$(CC) $(LDFLAGS) $(TARGET_ARCH)'], ['LINK.cc', '$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)'], ['LINK.cpp', '$(LINK.cc)'],
]

/** What each make sets for itself: never handed down in the environment. */
const PRESET_NAMES = new Set(['MAKE', 'MAKECMDGOALS', 'CURDIR', 'MAKELEVEL', 'MAKEFLAGS', 'MFLAGS', 'MAKEFILE_LIST', 'SHELL'])

/** Shells whose recipes the judge reads (make's own test for a POSIX shell, plus bash's relatives). */
const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'zsh', 'rksh', 'busybox'])

/** One make process: where it runs, what it reads, what it builds, and how the call got there. */
interface Invocation {
  /** Absolute directory make runs in. */
  readonly dir: string
  /** `-f` makefile as given (relative to `dir`); undefined for the one make picks. */
  readonly file: string | undefined
  readonly goals: readonly string[]
  /** `VAR=value` from its command line, the parents' included (make passes them down in MAKEFLAGS). */
  readonly commandLine: readonly MakeDefinition[]
  /** Variables its environment holds (what the parent exported, `VAR=x make ...`). */
  readonly env: readonly MakeDefinition[]
  readonly via: readonly string[]
  readonly level: number
  /** Where the call is written: the recipe's definition, or the line that runs this sub-make. */
  readonly origin: { readonly file: string; readonly line?: number }
}

/**
 * The body being built, bounded. Past MAX_LINES lines or MAX_UNKNOWN parts, what would have come
 * is not dropped: its text is gathered into one last unknown part, so that destructive words
 * hidden behind a flood of harmless lines are still found; the walk stops once that is full too.
 */
class Sink {
  readonly lines: BodyLine[] = []
  readonly unknown: UnknownPart[] = []
  readonly #seen = new Set<string>()
  #spill: { texts: string[]; size: number; why: string; at: Omit<LineAt, 'cwd'> } | undefined

  /** Whether nothing more can be kept: the walk stops. */
  get done(): boolean {
    return this.#spill !== undefined && this.#spill.size >= MAX_SPILL
  }

  line(text: string, at: LineAt): void {
    if (this.lines.length < MAX_LINES) {
      this.lines.push({ text, cwd: at.cwd, file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), via: [...at.via] })
    } else this.#overflow(text, `the body runs more than ${MAX_LINES} lines (MAX_LINES); the rest is not read line by line`, at)
  }

  /** `always`: it asks whatever its text holds (what it hides can't be searched). */
  part(text: string, why: string, at: Omit<LineAt, 'cwd'>, always = false): void {
    const key = `${text}\0${why}\0${at.file}\0${at.line}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    if (this.unknown.length < MAX_UNKNOWN - 1) {
      this.unknown.push({
        text,
        file: at.file,
        ...(at.line !== undefined ? { line: at.line } : {}),
        why,
        via: [...at.via],
        ...(always ? { always: true as const } : {}),
      })
    } else this.#overflow(text, `the body has more than ${MAX_UNKNOWN} parts that can't be read (MAX_UNKNOWN); the rest are gathered here`, at)
  }

  #overflow(text: string, why: string, at: Omit<LineAt, 'cwd'>): void {
    const spill = (this.#spill ??= { texts: [], size: 0, why, at })
    if (spill.size >= MAX_SPILL) return
    spill.texts.push(text.slice(0, MAX_SPILL - spill.size))
    spill.size += text.length + 1
  }

  result(): RecipeBody {
    const spill = this.#spill
    if (!spill) return { lines: this.lines, unknown: this.unknown }
    const why = spill.size >= MAX_SPILL ? `${spill.why}; past ${MAX_SPILL} characters nothing more is read` : spill.why
    const at = spill.at
    // Gathered whole, the text is searched for destructive words like any unknown part; cut short, what was left out can't be.
    const cut = spill.size >= MAX_SPILL
    const last: UnknownPart = {
      text: spill.texts.join('\n'),
      file: at.file,
      ...(at.line !== undefined ? { line: at.line } : {}),
      why,
      via: [...at.via],
      ...(cut ? { always: true as const } : {}),
    }
    return { lines: this.lines, unknown: [...this.unknown, last] }
  }
}

/** One judgement of a make call: the body being built and the make processes already read. */
interface Judgement {
  readonly ctx: BodyContext
  readonly sink: Sink
  readonly invoked: Set<string>
  invocations: number
}

/** One make process being walked: its makefiles, and the targets built so far. */
interface Run {
  readonly j: Judgement
  readonly inv: Invocation
  readonly parsed: ParsedMakefile
  readonly recipes: MakeRecipes
  readonly cwd: string
  /** The makefile, relative to the root. */
  readonly file: string
  readonly built: Set<string>
  readonly building: Set<string>
  readonly groups: Set<MakeRule>
  /** Files made only on the way by a chain of pattern rules: make deletes them when it is done. */
  readonly intermediates: string[]
  mentioned?: Set<string>
  /** Whether a missing prerequisite was reported (make stops at the first; one part says so). */
  missingReported?: boolean
  base?: Map<string, Variable>
  /** Targets whose recipes an unknown part already carries (past the depth bound): each is given once. */
  readonly hidden: Set<string>
}

/** What one make process runs for one target in one go: one rule's recipe and the prerequisites before it. */
interface Step {
  readonly recipe: readonly MakeRecipeLine[] | undefined
  /** Prerequisites in the order make builds them (normal and order-only, as written). */
  readonly order: readonly string[]
  /** Normal prerequisites, each once (`$^`), with repeats (`$+`), and the order-only ones (`$|`). */
  readonly normal: readonly string[]
  readonly all: readonly string[]
  readonly orderOnly: readonly string[]
  readonly stem: string
  readonly rule?: MakeRule
}

export const readMakeBody: BodyReader = (recipe, ctx, args) => {
  const j: Judgement = { ctx, sink: new Sink(), invoked: new Set(), invocations: 0 }
  const call = [recipe.command, ...args.map(shellWord)].join(' ')
  const at = { file: recipe.file, ...(recipe.line !== undefined ? { line: recipe.line } : {}), via: [call] }
  try {
    const parsed = makeArguments(args)
    for (const why of parsed.unknown) j.sink.part(call, why, at)
    const goals = recipe.name === DEFAULT_GOAL_NAME ? parsed.goals : [recipe.name, ...parsed.goals]
    const dir = resolve(ctx.root, recipe.cwd, ...parsed.directories)
    invoke(j, { dir, file: parsed.files[0], goals, commandLine: parsed.variables, env: [], via: [call], level: 0, origin: at })
  } catch (error) {
    // Bad input never throws (the parser reports it); this only keeps a bug from hiding the call.
    j.sink.part(call, `the makefile could not be read (${(error as Error)?.message ?? String(error)})`, at)
  }
  return j.sink.result()
}

// ---------------------------------------------------------------------------------------------
// make processes: which makefile, read once per judgement, then each goal built.

function invoke(j: Judgement, inv: Invocation): void {
  const key = JSON.stringify([inv.dir, inv.file, inv.goals, inv.commandLine, inv.env])
  // The same make call again runs the same lines: they are listed once (and a make calling itself ends).
  if (j.invoked.has(key) || j.sink.done) return
  const call = inv.via.at(-1) ?? 'make'
  const at = { ...inv.origin, via: inv.via }
  const located = locateMakefile(j.ctx, inv)
  if ('why' in located) return j.sink.part(call, located.why, at, located.hidden === true)
  if (inv.level > MAX_DEPTH || j.invocations >= MAX_INVOCATIONS) {
    // What that make would run is not read: its makefile's text goes with the part, for the destructive words in it.
    const text = `${call}\n${(j.ctx.read(located.file) ?? '').slice(0, MAX_HIDDEN)}`
    const bound = inv.level > MAX_DEPTH ? `${MAX_DEPTH} levels deep` : `${MAX_INVOCATIONS} times`
    const why = `make is called more than ${bound}; what this one runs is not read (its makefile is given here)`
    return j.sink.part(text, why, at)
  }
  j.invoked.add(key)
  j.invocations++
  const { parsed, unreadable } = parseFor(j.ctx, located.file, inv)
  // make stops on a fatal problem, and crashes on an include cycle: either way it runs nothing.
  const fatal = parsed.problems.find((p) => p.fatal || (p.severity === 'error' && p.message.startsWith('include cycle')))
  if (fatal || !parsed.recipes) {
    const where = { file: relPath(j.ctx.root, fatal?.file ?? located.file), ...(fatal?.line !== undefined ? { line: fatal.line } : {}), via: inv.via }
    return j.sink.part(call, `make stops reading the makefile before it runs anything: ${fatal?.message ?? 'it could not be read'}`, where)
  }
  const cwd = relPath(j.ctx.root, inv.dir)
  const run: Run = {
    j, inv, parsed, recipes: parsed.recipes, cwd, file: relPath(j.ctx.root, located.file),
    built: new Set(), building: new Set(), groups: new Set(), intermediates: [], hidden: new Set(),
  }
  reportReading(run, located.file, unreadable)
  remakeMakefiles(run, located.file)
  for (const goal of goalsOf(run, located.file)) build(run, goal, [], goalVia(inv, goal), 0)
  // make itself deletes the intermediate files it made (and prints it as `rm a b`).
  if (run.intermediates.length > 0) j.sink.line(`rm ${run.intermediates.join(' ')}`, { cwd: run.cwd, file: run.file, via: inv.via })
}

/**
 * Before its goals, make brings every makefile it read (and every file an `include` names) up to
 * date when a rule makes it, and runs those recipes even under `make -n`.
 */
function remakeMakefiles(run: Run, file: string): void {
  for (const abs of new Set([file, ...run.recipes.includes])) {
    const name = relative(run.inv.dir, abs).split(sep).join('/')
    // A rule names the file as the include does: relative to make's directory, or absolute.
    const known = run.recipes.rules.has(name) || !run.recipes.rules.has(abs) ? name : abs
    if (!run.recipes.rules.has(known) && !run.recipes.patternRules.some((r) => r.targets.some((t) => patternStem(t, known) !== undefined))) continue
    build(run, known, [], [...run.inv.via, `make ${shellWord(known)}`], 0, true)
  }
}

/** The goals one make process builds: the ones named, else the default goal. */
function goalsOf(run: Run, file: string): string[] {
  if (run.inv.goals.length > 0) return [...run.inv.goals]
  const goal = run.parsed.defaultGoal
  if (goal !== undefined && goal !== COMPUTED_GOAL) return [goal]
  const why = goal === COMPUTED_GOAL
    ? 'the default goal is named at run time ($(shell ...) or a computed variable)'
    : 'the makefile has no target, so plain `make` builds nothing'
  run.j.sink.part('make', why, { file: relPath(run.j.ctx.root, file), via: run.inv.via })
  return []
}

function goalVia(inv: Invocation, goal: string): readonly string[] {
  return inv.goals.length === 1 && inv.goals[0] === goal ? inv.via : [...inv.via, `make ${shellWord(goal)}`]
}

/** The makefile one make process reads, inside the root; why not otherwise. */
function locateMakefile(ctx: BodyContext, inv: Invocation): { file: string } | { why: string; hidden?: boolean } {
  const shown = (abs: string): string => {
    const rel = relPath(ctx.root, abs)
    return rel.startsWith('..') || isAbsolute(rel) ? abs : rel
  }
  if (!insideRoot(ctx.root, inv.dir)) return { why: `runs make in ${shown(inv.dir)}, outside the repository` }
  if (inv.file === '-') return { why: 'make reads its makefile from standard input' }
  const picked = inv.file === undefined ? MAKEFILE_NAMES.map((n) => resolve(inv.dir, n)).find(pathExists) : resolve(inv.dir, inv.file)
  if (picked !== undefined && isDir(picked)) return { why: `make picks ${shown(picked)}, which is a directory, and stops ("Is a directory")` }
  const file = picked
  if (file === undefined) return { why: `there is no makefile in ${shown(inv.dir)} (GNUmakefile, makefile or Makefile)` }
  if (!insideRoot(ctx.root, file)) return { why: `make reads ${shown(file)}, outside the repository` }
  if (ctx.read(file) === undefined) {
    // A makefile that is there but can't be read (a link out of the repository, too large) hides what it runs.
    return { why: `make reads ${shown(file)}, which can't be read here (not a regular file, too large, or a link out of the repository)`, hidden: pathExists(file) }
  }
  return { file }
}

interface ParsedFor {
  readonly parsed: ParsedMakefile
  /** Included files that exist but can't be read (outside the root, too large): what they define is unknown. */
  readonly unreadable: readonly string[]
}

/**
 * The makefile read for one make process, once per judgement. The key adds what the reading
 * depends on besides the file: the directory, the goals (MAKECMDGOALS), command line and environment.
 */
function parseFor(ctx: BodyContext, file: string, inv: Invocation): ParsedFor {
  const key = `make:${file}\0${JSON.stringify([inv.dir, inv.goals, inv.commandLine, inv.env, inv.level])}`
  return memoized(ctx.memo, key, () => {
    const unreadable = new Set<string>()
    const read = (abs: string): string | undefined => {
      const text = ctx.read(abs)
      if (text === undefined && pathExists(abs)) unreadable.add(abs)
      return text
    }
    const preset: MakeDefinition[] = [
      ...inv.env,
      { name: 'MAKE', op: '=', value: 'make' },
      { name: 'MAKECMDGOALS', op: '=', value: inv.goals.join(' ') },
      { name: 'CURDIR', op: ':=', value: inv.dir.replace(/\$/g, '$$$$') },
      { name: 'MAKELEVEL', op: ':=', value: String(inv.level) },
    ]
    const parsed = parseMakefile(file, { cwd: inv.dir, read, exists: pathExists, keepRecipes: true, commandLine: inv.commandLine, preset })
    return { parsed, unreadable: [...unreadable] }
  })
}

/** What make does while it reads the makefiles, before any recipe: the commands it runs, the files it can't be seen reading. */
function reportReading(run: Run, file: string, unreadable: readonly string[]): void {
  const { j, recipes, inv } = run
  const root = j.ctx.root
  const here = { file: relPath(root, file), via: inv.via }
  for (const abs of unreadable) {
    j.sink.part(`include ${abs}`, `make reads ${relPath(root, abs)}, which is outside the repository or can't be read; what it defines is not known`, here, true)
  }
  for (const c of recipes.shellCalls) {
    const at: LineAt = { cwd: run.cwd, file: relPath(root, c.file), line: c.line, via: inv.via }
    if (c.command !== undefined) j.sink.line(c.command, at)
    else j.sink.part(c.written, 'make runs this command while it reads the makefile, and it can\'t be expanded statically', at)
  }
  if (recipes.secondExpansion) {
    j.sink.part('.SECONDEXPANSION:', 'prerequisites are expanded a second time, which is not done statically: some may be missing from the chain', here)
  }
  const shell = recipes.variables.lookup('SHELL')
  if (shell && shell.flavor !== 'unknown') {
    const words = (shell.flavor === 'simple' ? shell.value : recipes.variables.expandRecipe('$(SHELL)', new Map()).value).trim().split(/\s+/)
    const program = (words[0] ?? '').replace(/^.*\//, '') === 'env' ? words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) : words[0]
    const name = (program ?? '').replace(/^.*\//, '')
    if (name !== '' && !POSIX_SHELLS.has(name)) {
      j.sink.part(`SHELL = ${shell.value}`, `recipes run with ${name}, not a POSIX shell: their lines are read as shell text anyway`, here)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Targets: prerequisites first, then the recipe, each target once per make process.

function build(run: Run, target: string, inherited: readonly MakeTargetVariable[], via: readonly string[], depth: number, makefile = false): void {
  if (run.built.has(target) || run.building.has(target) || run.j.sink.done) return
  if (depth > MAX_DEPTH) {
    // Not read as lines: the recipes from here on go with the part, for the destructive words in them.
    const why = `the prerequisite chain is more than ${MAX_DEPTH} targets deep; what ${target} and its prerequisites run is not read line by line `
      + '(their recipes are given here)'
    run.j.sink.part(`make ${target}\n${reachableText(run, target)}`, why, { file: run.file, via })
    run.built.add(target)
    return
  }
  // A target being built is skipped when reached again: make drops a circular dependency too.
  run.building.add(target)
  try {
    const plan = planTarget(run, target, via, makefile)
    const own = [...patternVariables(run, target), ...(run.recipes.targetVariables.get(target) ?? [])]
    const scope = [...inherited, ...own]
    const passed = [...inherited, ...own.filter((v) => !v.private)]
    for (const step of plan) {
      if (depth > 0 && isIntermediate(run, target, step)) run.intermediates.push(target)
      for (const p of step.order) build(run, p, passed, [...via, `make ${shellWord(p)}`], depth + 1)
      if (step.recipe && step.recipe.length > 0 && !(step.rule?.grouped && run.groups.has(step.rule))) {
        if (step.rule?.grouped) run.groups.add(step.rule)
        runRecipe(run, target, step, scope, via)
      }
    }
  } finally {
    run.building.delete(target)
    run.built.add(target)
  }
}

/**
 * How make makes `target`: the steps it takes (several for a double-colon target, none for a plain
 * file). A `makefile` without a rule is no error: make just reads it (or skips a missing `-include`).
 */
function planTarget(run: Run, target: string, via: readonly string[], makefile: boolean): Step[] {
  const rules = run.recipes.rules.get(target) ?? []
  const root = run.j.ctx.root
  for (const r of rules) {
    if (!r.unresolvedPrerequisites) continue
    const why = `some prerequisites of ${target} are computed at run time; what they run is not known`
    run.j.sink.part(`${target}: ${r.writtenPrerequisites ?? ''}`, why, { file: relPath(root, r.file), line: r.line, via })
  }
  if (rules.some((r) => r.doubleColon)) return rules.filter((r) => r.doubleColon).map((r) => stepOf(target, [r], r, run.recipes))
  const withRecipe = rules.findLast((r) => r.recipe !== undefined)
  // make lists the prerequisites of the rule with the recipe first, then the others in reading order.
  const ordered = withRecipe ? [withRecipe, ...rules.filter((r) => r !== withRecipe)] : rules
  if (withRecipe) return [stepOf(target, ordered, withRecipe, run.recipes)]
  const explicit = stepOf(target, ordered, undefined, run.recipes)
  if (!run.parsed.phony.has(target)) {
    const implicit = findPatternRule(run, target, 0)
    if (implicit) return [withPattern(explicit, implicit)]
  }
  if (rules.length > 0 || makefile || run.parsed.phony.has(target) || fileExists(run, target)) return [explicit]
  const fallback = run.recipes.rules.get('.DEFAULT')?.findLast((r) => r.recipe !== undefined)
  if (fallback) return [{ recipe: fallback.recipe, order: [], normal: [], all: [], orderOnly: [], stem: '', rule: fallback }]
  // make stops at the first missing prerequisite: one part says so (a goal is always named).
  if (via.length <= run.inv.via.length + 1 || !run.missingReported) {
    run.missingReported = true
    run.j.sink.part(`make ${target}`, `make has no rule to make ${target} and it is no file here: make stops there`, { file: run.file, via })
  }
  return []
}

/**
 * Whether make treats `target` as an intermediate file: made by a pattern rule, not there yet,
 * and mentioned nowhere as a target or prerequisite (unless `.INTERMEDIATE` says so, or
 * `.SECONDARY`/`.PRECIOUS` keeps it).
 */
function isIntermediate(run: Run, target: string, step: Step): boolean {
  const rules = run.recipes.rules
  const listed = (special: string): boolean | undefined => {
    const list = rules.get(special)
    if (!list) return undefined
    // `.SECONDARY:` with no prerequisites keeps every intermediate file.
    if (special === '.SECONDARY' && list.some((r) => r.prerequisites.length === 0)) return true
    return list.some((r) => r.prerequisites.some((p) => p === target || patternStem(p, target) !== undefined))
  }
  if (listed('.SECONDARY') || listed('.PRECIOUS') || listed('.NOTINTERMEDIATE')) return false
  if (rules.get('.INTERMEDIATE')?.some((r) => r.prerequisites.includes(target))) return true
  if (!step.rule || !run.recipes.patternRules.includes(step.rule) || fileExists(run, target)) return false
  if (!run.mentioned) {
    run.mentioned = new Set(rules.keys())
    for (const list of rules.values()) for (const r of list) for (const p of [...r.prerequisites, ...r.orderOnly]) run.mentioned.add(p)
  }
  return !run.mentioned.has(target)
}

/**
 * The recipes a target and its prerequisites run, expanded with make's defaults only, up to
 * MAX_HIDDEN characters; a target already given by an earlier part is not given again.
 */
function reachableText(run: Run, target: string): string {
  const scope = (run.base ??= baseScope(run))
  const out: string[] = []
  let size = 0
  const seen = run.hidden
  const queue = [target]
  for (let k = 0; k < queue.length && size < MAX_HIDDEN && seen.size < MAX_TARGETS_HIDDEN && queue.length < 10 * MAX_TARGETS_HIDDEN; k++) {
    const name = queue[k]!
    if (seen.has(name)) continue
    seen.add(name)
    for (const r of run.recipes.rules.get(name) ?? []) {
      for (const l of r.recipe ?? []) {
        const text = run.recipes.variables.expandRecipe(l.text, scope).value
        out.push(text)
        size += text.length + 1
      }
      queue.push(...r.prerequisites, ...r.orderOnly)
    }
  }
  return out.join('\n').slice(0, MAX_HIDDEN)
}

/** One step from a target's rules: the prerequisites of `ordered`, the recipe of `withRecipe`. */
function stepOf(target: string, ordered: readonly MakeRule[], withRecipe: MakeRule | undefined, recipes: MakeRecipes): Step {
  const order: string[] = []
  const all: string[] = []
  const orderOnlyAll: string[] = []
  let stem: string | undefined
  for (const r of ordered) {
    const ruleStem = r.staticPattern === undefined ? undefined : patternStem(r.staticPattern, target)
    const fill = (list: readonly string[]): string[] => (ruleStem === undefined ? [...list] : list.map((p) => p.replace('%', ruleStem)))
    const normal = fill(r.prerequisites)
    const orderOnly = fill(r.orderOnly)
    all.push(...normal)
    orderOnlyAll.push(...orderOnly)
    order.push(...normal, ...orderOnly)
    if (r === withRecipe && ruleStem !== undefined) stem = ruleStem
  }
  const normal = [...new Set(all)]
  return {
    recipe: withRecipe?.recipe,
    order: [...new Set(order)],
    normal,
    all,
    orderOnly: [...new Set(orderOnlyAll)].filter((p) => !normal.includes(p)),
    stem: stem ?? suffixStem(target, recipes.suffixes),
    ...(withRecipe ? { rule: withRecipe } : {}),
  }
}

/** `$*` of an explicit rule: the target without a known suffix, else empty. */
function suffixStem(target: string, suffixes: readonly string[]): string {
  const suffix = suffixes.find((s) => target.endsWith(s) && target.length > s.length)
  return suffix === undefined ? '' : target.slice(0, -suffix.length)
}

/** The stem when `name` matches a `%` pattern, else undefined. */
function patternStem(pattern: string, name: string): string | undefined {
  const pct = pattern.indexOf('%')
  if (pct === -1) return pattern === name ? '' : undefined
  const prefix = pattern.slice(0, pct)
  const suffix = pattern.slice(pct + 1)
  if (name.length < prefix.length + suffix.length || !name.startsWith(prefix) || !name.endsWith(suffix)) return undefined
  return name.slice(prefix.length, name.length - suffix.length)
}

interface PatternMatch {
  readonly rule: MakeRule
  readonly stem: string
  readonly normal: readonly string[]
  readonly orderOnly: readonly string[]
}

/**
 * The pattern rule make would use for `target` (a user's `%.o: %.c`; make's built-in rules are not
 * modelled): of the rules whose target pattern matches, shortest stem first, the first whose
 * prerequisites exist, are targets, or can be made by another pattern rule.
 */
function findPatternRule(run: Run, target: string, chain: number): PatternMatch | undefined {
  const matches: PatternMatch[] = []
  for (const rule of run.recipes.patternRules) {
    if (rule.recipe === undefined) continue
    for (const pattern of rule.targets) {
      const match = matchPattern(rule, pattern, target)
      if (match) {
        matches.push(match)
        break
      }
    }
  }
  matches.sort((a, b) => a.stem.length - b.stem.length)
  return matches.find((m) => m.normal.every((p) => p !== target && canMake(run, p, chain)))
}

/** A pattern matched as make does: a pattern without `/` is matched against the file name, the directory put back after. */
function matchPattern(rule: MakeRule, pattern: string, target: string): PatternMatch | undefined {
  const slash = target.lastIndexOf('/')
  const dir = pattern.includes('/') || slash === -1 ? '' : target.slice(0, slash + 1)
  const stem = patternStem(pattern, target.slice(dir.length))
  if (stem === undefined || (stem === '' && pattern.includes('%'))) return undefined
  const fill = (list: readonly string[]): string[] => list.map((p) => (p.includes('%') ? dir + p.replace('%', stem) : p))
  return { rule, stem: dir + stem, normal: fill(rule.prerequisites), orderOnly: fill(rule.orderOnly) }
}

function canMake(run: Run, name: string, chain: number): boolean {
  if (run.recipes.rules.has(name) || fileExists(run, name)) return true
  return chain < MAX_CHAIN && findPatternRule(run, name, chain + 1) !== undefined
}

/** A target's explicit prerequisites after a pattern rule's, with the pattern rule's recipe. */
function withPattern(explicit: Step, m: PatternMatch): Step {
  const normal = [...new Set([...m.normal, ...explicit.normal])]
  return {
    recipe: m.rule.recipe,
    order: [...new Set([...m.normal, ...m.orderOnly, ...explicit.order])],
    normal,
    all: [...m.normal, ...explicit.all],
    orderOnly: [...new Set([...m.orderOnly, ...explicit.orderOnly])].filter((p) => !normal.includes(p)),
    stem: m.stem,
    rule: m.rule,
  }
}

/** Whether a file is there, in the make's directory and inside the root. */
function fileExists(run: Run, name: string): boolean {
  const abs = resolve(run.inv.dir, name)
  const rel = relative(run.j.ctx.root, abs)
  return !rel.startsWith('..') && !isAbsolute(rel) && pathExists(abs)
}

/** Pattern-specific variables for `target`, the longest stem first so that the closest match wins. */
function patternVariables(run: Run, target: string): MakeTargetVariable[] {
  const found: Array<{ v: MakeTargetVariable; stem: number }> = []
  for (const v of run.recipes.patternVariables) {
    const stem = patternStem(v.pattern, target) ?? patternStem(v.pattern, target.slice(target.lastIndexOf('/') + 1))
    if (stem !== undefined) found.push({ v, stem: stem.length })
  }
  return found.sort((a, b) => b.stem - a.stem).map((f) => f.v)
}

// ---------------------------------------------------------------------------------------------
// Recipe lines: expanded, split into the commands make hands to the shell, sub-makes followed.

function runRecipe(run: Run, target: string, step: Step, layers: readonly MakeTargetVariable[], via: readonly string[]): void {
  const recipe = step.recipe!
  // Most lines hold no reference at all: the scope is made only for the ones that do.
  let scope: Map<string, Variable> | undefined
  const scoped = (): Map<string, Variable> => (scope ??= scopeOf(run, target, step, layers))
  const vars = run.recipes.variables
  const root = run.j.ctx.root
  // .ONESHELL: the whole recipe is one script, expanded at once.
  const units = run.recipes.oneShell ? [{ text: recipe.map((l) => l.text).join('\n'), file: recipe[0]!.file, line: recipe[0]!.line }] : recipe
  for (const unit of units) {
    const at: LineAt = { cwd: run.cwd, file: relPath(root, unit.file), line: unit.line, via }
    const e = unit.text.includes('$') ? vars.expandRecipe(unit.text, scoped()) : { value: unit.text, unknown: [] }
    for (const u of e.unknown) run.j.sink.part(unknownText(run, u.text), u.why, at)
    const commands = run.recipes.oneShell ? [oneShellScript(e.value)] : commandLines(e.value)
    for (const command of commands) {
      if (command.trim() === '') continue
      run.j.sink.line(command, at)
      if (MAKE_WORD.test(command)) followSubMakes(run, command, scoped(), at)
    }
  }
}

/** An unknown reference's text, with the variable's definition when it has one (where destructive words may hide). */
function unknownText(run: Run, reference: string): string {
  const name = /^\$[({]([^\s:$(){}]+)[)}]$/.exec(reference)?.[1]
  const v = name === undefined ? undefined : run.recipes.variables.lookup(name)
  return v && v.value !== '' ? `${reference} (${name} = ${v.value})` : reference
}

/**
 * The commands of one expanded recipe line: make hands each newline-separated part (a newline
 * after a backslash continues it) to its own shell, without the leading `@`, `-`, `+` and blanks.
 */
function commandLines(text: string): string[] {
  return splitLines(text).map(stripPrefix).filter((c) => c !== '')
}

/** A .ONESHELL recipe: one script, each line's `@`, `-`, `+` removed (for a POSIX shell, as make does). */
function oneShellScript(text: string): string {
  return splitLines(text).map(stripPrefix).join('\n')
}

/** Splits at newlines that are not escaped by a backslash. */
function splitLines(text: string): string[] {
  const out: string[] = []
  let start = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\\') continue
    out.push(text.slice(start, i))
    start = i + 1
  }
  out.push(text.slice(start))
  return out
}

function stripPrefix(line: string): string {
  return line.replace(/^[ \t@+-]+/, '')
}

/** The variables a recipe line sees: make's defaults, the table, inherited, pattern and target values, the automatic ones. */
function scopeOf(run: Run, target: string, step: Step, layers: readonly MakeTargetVariable[]): Map<string, Variable> {
  const vars = run.recipes.variables
  const scope = new Map(run.base ??= baseScope(run))
  for (const d of layers) {
    if (vars.isCommandLine(d.name) && !d.override) continue
    const current = scope.get(d.name) ?? vars.lookup(d.name)
    const next = layered(current, d, (text) => vars.expandRecipe(text, scope).value)
    if (next) scope.set(d.name, next)
  }
  for (const [name, value] of automaticVariables(target, step)) scope.set(name, { value, flavor: 'simple' })
  return scope
}

/** What every recipe of one make process sees beneath the table: make's defaults and MAKEFILE_LIST. */
function baseScope(run: Run): Map<string, Variable> {
  const scope = new Map<string, Variable>()
  for (const [name, value] of MAKE_DEFAULTS) if (!run.recipes.variables.lookup(name)) scope.set(name, { value, flavor: 'recursive' })
  scope.set('MAKEFILE_LIST', { value: run.parsed.files.map((f) => relative(run.inv.dir, f) || f).join(' '), flavor: 'simple' })
  return scope
}

/** A target-specific definition over the value it meets; undefined when it leaves that value as is (`?=`). */
function layered(current: Readonly<Variable> | undefined, d: MakeTargetVariable, expand: (text: string) => string): Variable | undefined {
  switch (d.op) {
    case ':=':
      return { value: d.value, flavor: 'simple' }
    case '+=':
      if (!current) return { value: d.value, flavor: 'recursive' }
      if (current.flavor === 'simple') return { value: `${current.value} ${expand(d.value)}`, flavor: 'simple' }
      return { value: `${current.value} ${d.value}`, flavor: current.flavor }
    case '?=':
      return current ? undefined : { value: d.value, flavor: 'recursive' }
    case '!=':
      return { value: '', flavor: 'unknown' }
    default:
      return { value: d.value, flavor: 'recursive' }
  }
}

/** `$@`, `$<`, `$^`, `$+`, `$?`, `$|`, `$*`, `$%` and their `D`/`F` forms. */
function automaticVariables(target: string, step: Step): Map<string, string> {
  const member = /^([^(]+)\(([^)]+)\)$/.exec(target)
  const base: Array<[string, string[]]> = [
    ['@', [member ? member[1]! : target]],
    ['%', member ? [member[2]!] : []],
    ['<', step.normal.slice(0, 1)],
    ['^', [...step.normal]],
    ['+', [...step.all]],
    // Every prerequisite may be newer than the target (make -B says so too).
    ['?', [...step.normal]],
    ['|', [...step.orderOnly]],
    ['*', step.stem === '' ? [] : [step.stem]],
  ]
  const out = new Map<string, string>()
  for (const [name, words] of base) {
    out.set(name, words.join(' '))
    out.set(`${name}D`, words.map((w) => (w.includes('/') ? w.slice(0, w.lastIndexOf('/')) || '/' : '.')).join(' '))
    out.set(`${name}F`, words.map((w) => w.slice(w.lastIndexOf('/') + 1)).join(' '))
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Sub-makes: a line that runs make again, found by the shell parser, followed into that make.

interface MakeCall {
  readonly words: readonly string[]
  /** The directory the shell is in when it runs make, relative to the make's directory. */
  readonly cd: string
  readonly env: readonly MakeDefinition[]
}

interface Unfollowed {
  readonly text: string
  readonly why: string
}

/** A line that may run make: only those are parsed as shell to find the calls. */
const MAKE_WORD = /(^|[^\w.-])g?make($|[^\w.-])/

function followSubMakes(run: Run, command: string, scope: ReadonlyMap<string, Variable>, at: LineAt): void {
  const calls: Array<MakeCall | Unfollowed> = []
  try {
    walkList(parseShell(command).commands, { cd: '.', loop: new Map() }, calls, command)
  } catch (error) {
    // unbash recovers from bad input itself; this keeps a surprise from hiding the line's sub-makes.
    run.j.sink.part(command, `the line could not be searched for the make calls it runs (${(error as Error)?.message ?? String(error)})`, at)
    return
  }
  for (const call of calls) {
    if ('why' in call) {
      run.j.sink.part(call.text, call.why, at)
      continue
    }
    const args = makeArguments(call.words)
    for (const why of args.unknown) run.j.sink.part(command, why, at)
    const dir = resolve(run.inv.dir, call.cd, ...args.directories)
    const own = args.variables
    const inv: Invocation = {
      dir,
      file: args.files[0],
      goals: args.goals,
      commandLine: [...run.inv.commandLine.filter((d) => !own.some((o) => o.name === d.name)), ...own],
      env: [...exportedEnv(run, scope), ...call.env],
      via: [...at.via, subMakeText(run.inv.dir, dir, args)],
      level: run.inv.level + 1,
      origin: { file: at.file, ...(at.line !== undefined ? { line: at.line } : {}) },
    }
    invoke(run.j, inv)
  }
}

/** `make -C lib clean V=1`: how a sub-make shows in `via`. */
function subMakeText(from: string, dir: string, args: MakeArguments): string {
  const rel = relative(from, dir).split(sep).join('/')
  const variables = args.variables.map((v) => `${v.name}${v.op}${v.value}`)
  const words = [...(rel ? ['-C', rel] : []), ...args.files.flatMap((f) => ['-f', f]), ...variables, ...args.goals]
  return ['make', ...words.map(shellWord)].join(' ')
}

/**
 * The environment a recipe hands a sub-make, expanded in the recipe's scope: the exported
 * variables, and the ones make itself got from its environment (make passes those on unasked).
 */
function exportedEnv(run: Run, scope: ReadonlyMap<string, Variable>): MakeDefinition[] {
  const out: MakeDefinition[] = []
  const vars = run.recipes.variables
  const names = new Set([...run.recipes.exported, ...run.inv.env.map((d) => d.name)])
  if (run.recipes.exportAll) for (const name of vars.names()) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) names.add(name)
  for (const name of names) {
    if (PRESET_NAMES.has(name)) continue
    if (vars.isCommandLine(name) || !(scope.has(name) || vars.lookup(name))) continue
    const e = vars.expandRecipe(`$(${name})`, scope)
    if (e.unknown.length === 0) out.push({ name, op: '=', value: e.value.replace(/\$/g, '$$$$') })
  }
  return out
}

interface ShellState {
  cd: string | undefined
  readonly loop: ReadonlyMap<string, string | undefined>
}

function walkList(statements: readonly Statement[], state: ShellState, out: Array<MakeCall | Unfollowed>, source: string): void {
  for (const s of statements) walkNode(s.command, state, out, source)
}

/** Walks one shell node; `cd` moves `state` for what follows in the same list, as the shell does. */
type ShellNode = Statement['command'] | CompoundList['commands'][number]['command']

function walkNode(node: ShellNode, state: ShellState, out: Array<MakeCall | Unfollowed>, source: string): void {
  const copy = (): ShellState => ({ cd: state.cd, loop: state.loop })
  switch (node.type) {
    case 'AndOr':
      for (const c of node.commands) walkNode(c, state, out, source)
      return
    case 'Pipeline':
      for (const c of node.commands) walkNode(c, copy(), out, source)
      return
    case 'Command':
      return walkCommand(node, state, out, source)
    case 'Subshell':
    case 'BraceGroup':
      return walkList(node.body.commands, node.type === 'Subshell' ? copy() : state, out, source)
    case 'Redirected':
      return walkNode(node.command, state, out, source)
    case 'If':
      walkList(node.clause.commands, copy(), out, source)
      walkList(node.then.commands, copy(), out, source)
      for (const e of node.elif) walkList(e.then.commands, copy(), out, source)
      if (node.else) walkList(node.else.commands, copy(), out, source)
      return
    case 'While':
      return walkList(node.body.commands, copy(), out, source)
    case 'Case':
      for (const item of node.items) walkList(item.body.commands, copy(), out, source)
      return
    case 'For':
      return walkFor(node, state, out, source)
    default:
      return
  }
}

/** `for d in a b; do $(MAKE) -C $$d; done`: the body once per word when the words are known. */
function walkFor(node: Extract<Statement['command'], { type: 'For' }>, state: ShellState, out: Array<MakeCall | Unfollowed>, source: string): void {
  const name = node.name.value
  const words = node.wordlist?.map((w) => wordValue(w, state.loop))
  const known = words !== undefined && words.every((w): w is string => w !== undefined)
  const rounds = known ? words.flatMap((w) => w.split(/\s+/)).filter((w) => w !== '').slice(0, MAX_LOOP_WORDS) : [undefined]
  for (const value of rounds) {
    const loop = new Map(state.loop)
    loop.set(name, value)
    walkList(node.body.commands, { cd: state.cd, loop }, out, source)
  }
}

/** Commands that run the command after them; the options of theirs that take a value. */
const WRAPPERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['exec', ['-a']], ['command', []], ['nice', ['-n']], ['nohup', []], ['time', ['-f', '-o']], ['env', ['-u', '--unset']],
  ['sudo', ['-u', '-g', '-h', '-p', '-C']], ['doas', ['-u']],
])

function walkCommand(node: Command, state: ShellState, out: Array<MakeCall | Unfollowed>, source: string): void {
  const words = [node.name, ...node.suffix].filter((w): w is Word => w !== undefined && w.type === 'Word')
  const values = words.map((w) => wordValue(w, state.loop))
  const env: MakeDefinition[] = []
  for (const a of node.prefix) {
    if (a.type === 'Assignment' && a.value.type === 'Word') {
      const value = wordValue(a.value, state.loop)
      if (value !== undefined) env.push({ name: a.name, op: '=', value: value.replace(/\$/g, '$$$$') })
    }
  }
  const k = skipWrappers(values, env)
  if (k === undefined) return
  const head = values[k]
  if (head === 'cd' && k === 0) {
    const target = values[1]
    if (target === undefined || target.startsWith('~') || target === '-') state.cd = undefined
    else if (isAbsolute(target)) state.cd = target
    else if (state.cd !== undefined) state.cd = posix.normalize(posix.join(state.cd, target))
    return
  }
  if (!isMakeName(head)) return
  const text = source.slice(node.pos, node.end)
  const rest = values.slice(k + 1)
  if (state.cd === undefined) out.push({ text, why: 'runs make in a directory that is known only when the line runs' })
  else if (rest.some((w) => w === undefined)) out.push({ text, why: 'runs make with words that are known only when the line runs' })
  else out.push({ words: rest as string[], cd: state.cd, env })
}

/**
 * The index of the command a wrapper runs (`env V=1 make`, `nice -n 5 make`, `sudo make`), the
 * wrapper's `VAR=value` words added to `env`; undefined when the wrapper only asks about it (`command -v make`).
 */
function skipWrappers(values: ReadonlyArray<string | undefined>, env: MakeDefinition[]): number | undefined {
  let k = 0
  for (let valued = WRAPPERS.get(baseName(values[k])); valued && k < values.length; valued = WRAPPERS.get(baseName(values[k]))) {
    const wrapper = baseName(values[k])
    k++
    for (; k < values.length; k++) {
      const w = values[k] ?? ''
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w)
      if (m && wrapper === 'env') env.push({ name: m[1]!, op: '=', value: m[2]!.replace(/\$/g, '$$$$') })
      else if (wrapper === 'command' && (w === '-v' || w === '-V')) return undefined
      else if (valued.includes(w)) k++
      else if (!w.startsWith('-') || w === '-') break
    }
  }
  return k
}

function baseName(word: string | undefined): string {
  return (word ?? '').replace(/^.*\//, '')
}

function isMakeName(word: string | undefined): boolean {
  const name = baseName(word)
  return name === 'make' || name === 'gmake'
}

/** A shell word's value when it is known statically (quotes removed, loop variables put in), else undefined. */
function wordValue(word: Word, loop: ReadonlyMap<string, string | undefined>): string | undefined {
  if (!word.parts) return word.value.startsWith('~') ? undefined : word.value
  return partsValue(word.parts, loop)
}

function partsValue(parts: NonNullable<Word['parts']>, loop: ReadonlyMap<string, string | undefined>): string | undefined {
  let out = ''
  for (const p of parts) {
    let v: string | undefined
    if (p.type === 'Literal' || p.type === 'SingleQuoted') v = p.value
    else if (p.type === 'DoubleQuoted') v = partsValue(p.parts, loop)
    else if (p.type === 'SimpleExpansion') v = loop.get(p.text.slice(1))
    else if (p.type === 'ParameterExpansion' && !p.operation && !p.prefix && !p.index) v = loop.get(p.parameter)
    if (v === undefined) return undefined
    out += v
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// make's own command line: the call's words and a sub-make's.

interface MakeArguments {
  readonly goals: string[]
  readonly variables: MakeDefinition[]
  /** `-C` directories, in order (each relative to the one before). */
  readonly directories: string[]
  readonly files: string[]
  /** Why some words make what runs unknown (`--eval`, `VAR!=cmd`). */
  readonly unknown: string[]
}

/** Options that take a value in the next word (or attached): `-C dir`, `-f file`, ... */
const VALUED_SHORT = new Set(['C', 'f', 'I', 'o', 'W', 'E'])
const VALUED_LONG = new Set([
  '--directory', '--file', '--makefile', '--include-dir', '--old-file', '--assume-old', '--new-file', '--assume-new', '--what-if', '--eval',
])
const ASSIGNMENT = /^([^\s=:+?!]+)(:::=|::=|:=|\+=|\?=|!=|=)(.*)$/s

function makeArguments(words: readonly string[]): MakeArguments {
  const out: MakeArguments = { goals: [], variables: [], directories: [], files: [], unknown: [] }
  let options = true
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    if (options && w === '--') {
      options = false
      continue
    }
    if (options && w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=')
      const name = eq === -1 ? w : w.slice(0, eq)
      if (!VALUED_LONG.has(name)) continue
      option(out, name, eq === -1 ? words[++i] : w.slice(eq + 1))
      continue
    }
    if (options && w.startsWith('-') && w.length > 1) {
      i = shortOptions(out, words, i)
      continue
    }
    const m = ASSIGNMENT.exec(w)
    if (m) assignment(out, m[1]!, m[2]!, m[3]!)
    else out.goals.push(w)
  }
  return out
}

/** `-sC lib`, `-Clib`, `-j4`, `-k`: flags, then at most one option that takes a value. Returns the last word index used. */
function shortOptions(out: MakeArguments, words: readonly string[], i: number): number {
  const w = words[i]!
  for (let c = 1; c < w.length; c++) {
    const flag = w[c]!
    if (VALUED_SHORT.has(flag)) {
      const attached = w.slice(c + 1)
      const value = attached !== '' ? attached : words[++i]
      option(out, `-${flag}`, value)
      return i
    }
    // `-j 4`, `-l 2.5`: an optional number in the next word.
    if ((flag === 'j' || flag === 'l') && c === w.length - 1 && /^\d+(\.\d+)?$/.test(words[i + 1] ?? '')) return i + 1
    if (flag === 'j' || flag === 'l' || flag === 'O') return i
  }
  return i
}

function option(out: MakeArguments, name: string, value: string | undefined): void {
  if (value === undefined) return
  if (name === '-C' || name === '--directory') out.directories.push(value)
  else if (name === '-f' || name === '--file' || name === '--makefile') out.files.push(value)
  else if (name === '-E' || name === '--eval') {
    out.unknown.push(`make evaluates ${JSON.stringify(value)} as makefile text before it reads the makefile (--eval)`)
  }
}

function assignment(out: MakeArguments, name: string, op: string, value: string): void {
  if (op === '!=') {
    out.unknown.push(`make runs \`${value}\` when it starts, to set ${name} (${name}!=...)`)
    out.variables.push({ name, op: '=', value: '' })
    return
  }
  const i = out.variables.findIndex((v) => v.name === name)
  if (i !== -1) out.variables.splice(i, 1)
  out.variables.push({ name, op, value })
}
