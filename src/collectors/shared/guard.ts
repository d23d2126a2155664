/**
 * The guard a collector runs under: a time budget held by the wall clock (runGuarded), the limits
 * every scan keeps (sizes, counts, MAX_DEPTH), and the problems the file helpers (`fs.ts`) meet on
 * the way (a FIFO, an oversized or unreadable manifest, a member outside the root, a path too
 * deep). Collectors are synchronous, so one guard is active at a time; the helpers consult it
 * without any collector passing it around, and a collector written tomorrow gets the same
 * protection by calling the helpers.
 */
import { Script } from 'node:vm'
import { observedRealpath } from './observe.js'
import type { Recipe } from '../../book/recipe.js'

/** Largest manifest read (package.json, Cargo.toml, a Makefile, an include...). */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024
/** Recipes one collector may list in one scan. */
export const MAX_RECIPES = 20_000
/** Prerequisites listed per recipe. */
export const MAX_PREREQUISITES = 1_000
/** Directories one scan may list while matching globs. */
export const MAX_DIRECTORIES = 50_000
/** Diagnostics one collector may report in one scan (a broken 8 MiB manifest can have one per line). */
export const MAX_DIAGNOSTICS = 1_000
/** Default wall-clock budget of one collector (a scan runs several in turn). */
export const DEFAULT_BUDGET_MS = 10_000
/**
 * Deepest a path may lie below the scan root for a collector to resolve it, read it or list it.
 * A real-path call costs the square of a path's depth (the C library asks for every prefix), so a
 * chain of 2,000 nested directories made one call cost half a second and a crawl of it minutes;
 * real repositories nest a few dozen levels at most.
 */
export const MAX_DEPTH = 64

export interface GuardProblem {
  /** Absolute path of the file or directory concerned. */
  readonly path: string
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export interface ScanGuard {
  readonly root: string
  readonly budgetMs: number
  readonly deadline: number
  /** Set once the deadline passed: the helpers then answer as if nothing more were there. */
  expired: boolean
  readonly problems: GuardProblem[]
  /** Keys of problems already reported, so that a file read from several places is reported once. */
  readonly reported: Set<string>
  /** Directories listed for glob matching so far (MAX_DIRECTORIES). */
  directories: number
  directoriesCapped: boolean
  /** Real path of the root, computed on first use. */
  realRoot?: string
  /** Components of the root's path, computed on first use (tooDeep). */
  rootDepth?: number
  /** The pass before the wall clock (runGuarded): ended as soon as the collector starts on its input. */
  firstPass: boolean
  /** That pass was ended: the work runs again under the clock. */
  armed: boolean
  /** Directory entries listed in the first pass. */
  listed: number
}

let active: ScanGuard | undefined

/** A user's text shortened for a message: a pattern of 10,000 braces must not become a 10,000-character diagnostic. */
export function preview(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text
}

/** The guard of the collector running now, if any. */
export function activeGuard(): ScanGuard | undefined {
  return active
}

export interface GuardedResult<T> {
  value: T
  guard: ScanGuard
}

/** A monotonic clock in milliseconds; not `performance.now()`, whose first use loads perf_hooks at a scan's start. */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/**
 * The end of a budget that is spent winding down: from `budget - windDown` the helpers answer
 * "nothing more", so a collector returns what it found; at the budget it is stopped wherever it
 * is (stopAfterMs). A quarter of a short budget, at most a second of a long one.
 */
export function windDownMs(budgetMs: number): number {
  return Math.min(1_000, budgetMs / 4)
}

/** The least time between the wind-down and the stop: a busy machine can leave a process unscheduled for tens of milliseconds. */
const LEAST_WIND_DOWN_MS = 250

/** When the wall clock stops a collector: at its budget, and never sooner than LEAST_WIND_DOWN_MS into the wind-down (budgets under 1 s). */
export function stopAfterMs(budgetMs: number): number {
  return Math.max(budgetMs, budgetMs - windDownMs(budgetMs) + LEAST_WIND_DOWN_MS)
}

/** Thrown by runGuarded when the wall clock stopped the work at its budget (nothing it found is kept). */
export class BudgetStop extends Error {
  override name = 'BudgetStop'
  /** The guard of the work it stopped: the problems met until then. */
  guard?: ScanGuard
}

// V8's own watchdog: vm's `timeout` ends the script's execution wherever it is (a loop, a regular
// expression, a library's parser) once the time is up; the function runs inside a script so that
// it is under it. The function is handed over through a global slot, as a script sees only globals.
const SLOT = Symbol.for('command-scout.guarded')
let stopScript: Script | undefined
function underWallClock<T>(fn: () => T, ms: number): T {
  stopScript ??= new Script(`globalThis[Symbol.for('command-scout.guarded')]()`, { filename: 'command-scout-guard' })
  const slot = globalThis as unknown as Record<symbol, (() => void) | undefined>
  const previous = slot[SLOT]
  // Whether `fn` returned: a watchdog thread that a busy machine starts late can find its time up
  // after the script ended, and report a timeout for work that was done.
  let done = false
  let value: T
  slot[SLOT] = () => {
    value = fn()
    done = true
  }
  try {
    stopScript.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)), displayErrors: false })
    return value!
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      if (done) return value!
      throw new BudgetStop(`stopped at its time budget`)
    }
    throw error
  } finally {
    slot[SLOT] = previous
  }
}

/** Entries a collector may list before its work counts as reading input (see runGuarded). */
const LISTED_BEFORE_CLOCK = 1_000

/** Thrown into a collector's first pass (see runGuarded) when it starts on its input: the pass is done again under the clock. */
const ARM = Symbol('command-scout.arm-the-clock')

/**
 * Called by the file helpers when the running collector reads a file, or lists more than a few
 * directories' worth of entries: from here on, its input decides how long it runs, so it must be
 * under the wall clock. In a first pass (see runGuarded) this ends the pass; otherwise nothing.
 */
export function startsOnInput(listed = 0): void {
  const g = active
  if (!g?.firstPass) return
  g.listed += listed
  if (listed > 0 && g.listed <= LISTED_BEFORE_CLOCK) return
  g.armed = true
  throw ARM
}

function freshGuard(root: string, budgetMs: number, start: number, firstPass: boolean): ScanGuard {
  return {
    root,
    budgetMs,
    deadline: start + budgetMs - windDownMs(budgetMs),
    expired: false,
    problems: [],
    reported: new Set(),
    directories: 0,
    directoriesCapped: false,
    firstPass,
    armed: false,
    listed: 0,
  }
}

/**
 * Runs `fn` (one collector's work) under a fresh guard, held to `budgetMs` by the wall clock: the
 * helpers answer "nothing more" for the last part of the budget (windDownMs), and at the budget
 * itself (stopAfterMs) the work is stopped wherever it is (BudgetStop), a loop, a parser or a
 * regular expression included, so no input keeps a collector past its budget.
 *
 * The clock is V8's own watchdog (vm's `timeout`), a thread started and joined per call: cheap
 * alone, but a scan runs a dozen collectors, most of which find nothing, and on a busy machine
 * each start and join waits for the scheduler. So a collector first runs without it, until it
 * starts on its input (its first file read, or a large listing: `startsOnInput`, called by the
 * helpers, ends that pass at once); a collector that finds nothing to read is done by then, in
 * microseconds, with nothing its input could make slow. One that starts on its input runs again,
 * from the start, under the clock. Nested calls keep the outer guard, so a collector that calls
 * another shares its budget.
 */
export function runGuarded<T>(root: string, budgetMs: number, fn: () => T): GuardedResult<T> {
  if (active) return { value: fn(), guard: active }
  const start = nowMs()
  const first = freshGuard(root, budgetMs, start, true)
  active = first
  let value: T | undefined
  try {
    value = fn()
  } catch (error) {
    if (error !== ARM && !first.armed) throw error
  } finally {
    active = undefined
  }
  if (!first.armed) return { value: value as T, guard: first }
  // The work again, from the start, under the clock (what the first pass found is not kept: a
  // collector may have caught the end of its pass and returned something partial).
  const guard = freshGuard(root, budgetMs, start, false)
  active = guard
  try {
    return { value: underWallClock(fn, stopAfterMs(budgetMs) - (nowMs() - start)), guard }
  } catch (error) {
    if (error instanceof BudgetStop) {
      guard.expired = true
      error.guard = guard
    }
    throw error
  } finally {
    active = undefined
  }
}

/** Whether the running collector is past its budget (always false outside a guard). */
export function outOfTime(): boolean {
  const g = active
  if (!g) return false
  if (!g.expired && nowMs() > g.deadline) g.expired = true
  return g.expired
}

/** Records a problem with a path once per scan (no-op outside a guard: the helper still refuses). */
export function reportProblem(path: string, message: string, severity: 'error' | 'warning' = 'error', key = `${path}\0${message}`): void {
  const g = active
  if (!g || g.reported.has(key)) return
  g.reported.add(key)
  g.problems.push({ path, message, severity })
}

/** The second separator Windows paths may use (none elsewhere, where a backslash is a character of a name). */
const BACKSLASH = process.platform === 'win32' ? 92 : 47

/** Path components of an absolute path ('/' is none). */
function components(path: string): number {
  let n = 0
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c === 47 || c === BACKSLASH) n++
  }
  const last = path.charCodeAt(path.length - 1)
  return path.length > 1 && (last === 47 || last === BACKSLASH) ? n - 1 : n
}

/**
 * Whether `path` (absolute) lies more than MAX_DEPTH directories below the active guard's root
 * (or, outside a guard, more than MAX_DEPTH plus a root's usual depth below /); reported once per
 * scan, so a collector that skips it says why.
 */
export function tooDeep(path: string): boolean {
  const g = active
  const limit = MAX_DEPTH + (g ? (g.rootDepth ??= components(g.root)) : 32)
  // Each component takes a separator: a path no longer than the limit can't have more (the usual case, without a scan of the path).
  if (path.length <= limit || components(path) <= limit) return false
  if (g) reportProblem(g.root, `has directories more than ${MAX_DEPTH} levels deep (MAX_DEPTH); nothing below that depth is read, resolved or listed`, 'warning', 'depth')
  return true
}

/** The real path of the active guard's root (or of `root`), falling back to it when it can't be resolved. */
export function realRoot(root: string): string {
  const g = active
  if (g && g.root === root) return (g.realRoot ??= safeRealpath(root) ?? root)
  return safeRealpath(root) ?? root
}

function safeRealpath(path: string): string | undefined {
  try {
    return observedRealpath(path)
  } catch {
    return undefined
  }
}

/** Prerequisites listed over all of one collector's recipes. */
export const MAX_TOTAL_PREREQUISITES = 200_000
/** Characters of one recipe's description (a doc comment or a script's command line). */
export const MAX_DESCRIPTION = 8 * 1024
/** Characters one collector's recipes may add up to (names, commands, descriptions, lists). */
export const MAX_OUTPUT_CHARS = 32 * 1024 * 1024

/** Characters of a list, as JSON would quote and separate them. */
function listChars(list: readonly string[]): number {
  // Indexed: a for-of allocates an iterator per list, in code that runs once per recipe.
  let n = 0
  for (let i = 0; i < list.length; i++) n += list[i]!.length + 4
  return n
}

function recipeChars(r: Recipe): number {
  const texts = r.name.length + r.command.length + r.description.length + r.file.length + r.cwd.length + (r.scope?.length ?? 0)
  return texts + listChars(r.prerequisites) + listChars(r.variables) + listChars(r.aliases)
}

/**
 * The limits every collector's result keeps, whatever the collector: at most MAX_RECIPES recipes,
 * MAX_PREREQUISITES prerequisites each and MAX_TOTAL_PREREQUISITES in all, descriptions up to
 * MAX_DESCRIPTION characters, MAX_OUTPUT_CHARS in all. Returns the kept recipes and the messages
 * to report (each names the limit). `found`: how many recipes there are, when `recipes` stops one past MAX_RECIPES.
 */
export function boundRecipes(recipes: readonly Recipe[], source: string, found = recipes.length): { recipes: Recipe[]; messages: string[] } {
  const messages: string[] = []
  const kept: Recipe[] = []
  let prerequisites = 0
  let chars = 0
  let cutLists = 0
  let cutDescriptions = 0
  let outOfRoom = false
  for (const original of recipes) {
    if (kept.length >= MAX_RECIPES) {
      messages.push(`the ${source} collector found ${found} commands, over the limit of ${MAX_RECIPES} per source (MAX_RECIPES); only the first ${MAX_RECIPES} are listed`)
      break
    }
    let r = original
    const room = Math.max(0, Math.min(MAX_PREREQUISITES, MAX_TOTAL_PREREQUISITES - prerequisites))
    if (r.prerequisites.length > room || r.description.length > MAX_DESCRIPTION) {
      const copy: Record<string, unknown> = { ...r }
      if (r.prerequisites.length > room) (copy.prerequisites = Object.freeze(r.prerequisites.slice(0, room))), cutLists++
      if (r.description.length > MAX_DESCRIPTION) (copy.description = `${r.description.slice(0, MAX_DESCRIPTION)} [... cut at ${MAX_DESCRIPTION} characters]`), cutDescriptions++
      r = Object.freeze(copy) as unknown as Recipe
    }
    const size = recipeChars(r)
    if (chars + size > MAX_OUTPUT_CHARS) {
      outOfRoom = true
      break
    }
    chars += size
    prerequisites += r.prerequisites.length
    kept.push(r)
  }
  if (cutLists > 0) {
    messages.push(`${cutLists} ${source} command${cutLists === 1 ? ' has' : 's have'} more prerequisites than are listed (at most ${MAX_PREREQUISITES} each, MAX_PREREQUISITES, and ${MAX_TOTAL_PREREQUISITES} in all, MAX_TOTAL_PREREQUISITES)`)
  }
  if (cutDescriptions > 0) {
    messages.push(`${cutDescriptions} ${source} description${cutDescriptions === 1 ? ' is' : 's are'} longer than ${MAX_DESCRIPTION} characters (MAX_DESCRIPTION) and cut there`)
  }
  if (outOfRoom) {
    messages.push(`the ${source} commands add up to more than ${MAX_OUTPUT_CHARS} characters (MAX_OUTPUT_CHARS); only the first ${kept.length} of ${found} are listed`)
  }
  return { recipes: kept, messages }
}
