/**
 * The guard a collector runs under: a time budget, the limits every scan keeps, and the problems
 * the file helpers (`fs.ts`) meet on the way (a FIFO, an oversized or unreadable manifest, a member
 * outside the root). Collectors are synchronous, so one guard is active at a time; the helpers
 * consult it without any collector passing it around, and a collector written tomorrow gets the
 * same protection by calling the helpers.
 */
import { observedRealpath } from './observe.js'
import type { Recipe } from '../src/recipe.js'

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
 * Runs `fn` (one collector's work) under a fresh guard. Nested calls keep the outer guard, so a
 * collector that calls another shares its budget.
 */
export function runGuarded<T>(root: string, budgetMs: number, fn: () => T): GuardedResult<T> {
  if (active) return { value: fn(), guard: active }
  const guard: ScanGuard = {
    root,
    budgetMs,
    deadline: nowMs() + budgetMs,
    expired: false,
    problems: [],
    reported: new Set(),
    directories: 0,
    directoriesCapped: false,
  }
  active = guard
  try {
    return { value: fn(), guard }
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
  return r.name.length + r.command.length + r.description.length + r.file.length + r.cwd.length + (r.scope?.length ?? 0) + listChars(r.prerequisites) + listChars(r.variables) + listChars(r.aliases)
}

/**
 * The limits every collector's result keeps, whatever the collector: at most MAX_RECIPES recipes,
 * MAX_PREREQUISITES prerequisites each and MAX_TOTAL_PREREQUISITES in all, descriptions up to
 * MAX_DESCRIPTION characters, MAX_OUTPUT_CHARS in all. Returns the kept recipes and the messages
 * to report (each names the limit).
 */
export function boundRecipes(recipes: readonly Recipe[], source: string): { recipes: Recipe[]; messages: string[] } {
  const messages: string[] = []
  const kept: Recipe[] = []
  let prerequisites = 0
  let chars = 0
  let cutLists = 0
  let cutDescriptions = 0
  let outOfRoom = false
  for (const original of recipes) {
    if (kept.length >= MAX_RECIPES) {
      messages.push(`the ${source} collector found ${recipes.length} commands, over the limit of ${MAX_RECIPES} per source (MAX_RECIPES); only the first ${MAX_RECIPES} are listed`)
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
    messages.push(`the ${source} commands add up to more than ${MAX_OUTPUT_CHARS} characters (MAX_OUTPUT_CHARS); only the first ${kept.length} of ${recipes.length} are listed`)
  }
  return { recipes: kept, messages }
}
