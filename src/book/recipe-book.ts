/**
 * The RecipeBook: gathers recipes from collectors, dedupes them (first wins), keeps them in
 * source order then file order, and assigns deterministic tool names.
 */
import { createRequire } from 'node:module'
import { BUILTIN_SOURCES, type Recipe } from './recipe.js'
import type { NamingStyle } from './config.js'

/**
 * Names a tool must never take: the harness reserves `run_code`, and the headless tree's
 * built-in tools own the rest (measured on dsh 0.1.0-rc.8).
 */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  'run_code',
  'bash', 'create_goal', 'edit', 'exit_plan_mode', 'get_goal', 'glob', 'grep', 'interrupt_agent',
  'job_kill', 'job_list', 'job_output', 'list_agents', 'ralph', 'read', 'read_image', 'send_message',
  'skill', 'str_replace_editor', 'subagent', 'subagent_fork', 'todo_write', 'update_goal', 'web_search',
  'workflow', 'write',
])

export const MAX_TOOL_NAME = 64

/** A name that is its own sanitized form (`build`, `pnpm`, `test_unit`). */
const CLEAN_NAME = /^[a-z0-9]+(?:_[a-z0-9]+)*$/

/** Lowercase `[a-z0-9_]` with runs of anything else folded to one underscore. */
export function sanitizeName(text: string): string {
  if (CLEAN_NAME.test(text)) return text
  // Plain ASCII names (nearly all of them) skip Unicode normalization.
  const folded = (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKD')).toLowerCase().replace(/[^a-z0-9]+/g, '_')
  let start = 0
  let end = folded.length
  while (start < end && folded.charCodeAt(start) === 95) start++
  while (end > start && folded.charCodeAt(end - 1) === 95) end--
  return start === 0 && end === folded.length ? folded : folded.slice(start, end)
}

// node:crypto is required on first use: loading it (and the stream modules it needs) costs a
// scan's start several milliseconds, and only names cut to fit need a hash.
const nodeRequire = createRequire(import.meta.url)

function shortHash(text: string): string {
  return (nodeRequire('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(text).digest('hex').slice(0, 8)
}

/** Keeps a name within 64 characters, with a hash of the whole so that cut names stay distinct. */
function fitLength(name: string, reserve = 0): string {
  const max = MAX_TOOL_NAME - reserve
  if (name.length <= max) return name
  return `${name.slice(0, max - 9).replace(/_+$/, '')}_${shortHash(name)}`
}

/** The tool-name prefix of a recipe in scoped style: the runner that runs it (make, pnpm, just, ...). */
export function toolPrefix(recipe: Recipe): string {
  return sanitizeName(recipe.runner) || sanitizeName(recipe.source) || 'cmd'
}

/** The unprefixed base of a recipe's tool name: scope (package, module, namespace) then name. */
export function toolBase(recipe: Recipe): string {
  const name = sanitizeName(recipe.name)
  const scope = recipe.scope ? sanitizeName(recipe.scope) : ''
  const base = name === '' ? `task_${shortHash(`${recipe.scope ?? ''}\0${recipe.name}`)}` : name
  // Names that already carry their scope (`mod::recipe`, `pkg/bin/x`) don't repeat it.
  if (!scope || base.startsWith(`${scope}_`)) return base
  return `${scope}_${base}`
}

/** The name a recipe asks for, before collisions are resolved. */
export function preferredToolName(recipe: Recipe, style: NamingStyle): string {
  const base = toolBase(recipe)
  return fitLength(style === 'scoped' ? `${toolPrefix(recipe)}_${base}` : base)
}

export class RecipeBook {
  readonly #recipes = new Map<string, Recipe>()
  readonly #sourceRank: Map<string, number>
  /** Each source's recipes in arrival (file) order, kept as they are added: the order needs no pass over the book. */
  readonly #bySource = new Map<string, Recipe[]>()
  /** entries() until the next change. */
  #ordered: Recipe[] | undefined

  /** `sourceOrder` ranks sources; unknown sources (third-party collectors) follow in arrival order. */
  constructor(recipes: Iterable<Recipe> = [], sourceOrder: readonly string[] = BUILTIN_SOURCES) {
    this.#sourceRank = new Map(sourceOrder.map((s, i) => [s, i]))
    this.addAll(recipes)
  }

  /** Adds a recipe unless one with the same id is already there; returns whether it was added. */
  add(recipe: Recipe): boolean {
    if (this.#recipes.has(recipe.id)) return false
    this.#recipes.set(recipe.id, recipe)
    let bucket = this.#bySource.get(recipe.source)
    if (bucket === undefined) {
      if (!this.#sourceRank.has(recipe.source)) this.#sourceRank.set(recipe.source, this.#sourceRank.size)
      this.#bySource.set(recipe.source, (bucket = []))
    }
    bucket.push(recipe)
    this.#ordered = undefined
    return true
  }

  addAll(recipes: Iterable<Recipe>): number {
    let added = 0
    // A collector's list indexed: an iterator per recipe costs more than the add in a large book.
    if (Array.isArray(recipes)) for (let i = 0; i < recipes.length; i++) added += this.add(recipes[i]) ? 1 : 0
    else for (const r of recipes) if (this.add(r)) added++
    return added
  }

  /** Removes every recipe of a source (a collector's contribution being replaced). */
  removeSource(source: string): number {
    const bucket = this.#bySource.get(source)
    if (bucket === undefined) return 0
    for (const r of bucket) this.#recipes.delete(r.id)
    this.#bySource.delete(source)
    this.#ordered = undefined
    return bucket.length
  }

  get size(): number {
    return this.#recipes.size
  }

  get(id: string): Recipe | undefined {
    return this.#recipes.get(id)
  }

  /** Recipes in source order, then the order their collector yielded them (file order). */
  entries(): Recipe[] {
    return this.#inOrder().slice()
  }

  /** entries() without the copy, for the book's own passes. */
  #inOrder(): readonly Recipe[] {
    if (!this.#ordered) {
      // The buckets (each in insertion, file, order) in source order: no sort of thousands of
      // recipes, and the same order a stable sort by source rank gives.
      const rank = (source: string) => this.#sourceRank.get(source) ?? Number.MAX_SAFE_INTEGER
      const sources = [...this.#bySource.keys()].sort((a, b) => rank(a) - rank(b))
      // One source's bucket serves as it is: every change of the book drops #ordered, and no caller keeps it.
      this.#ordered = sources.length === 1 ? this.#bySource.get(sources[0]!)! : sources.flatMap((source) => this.#bySource.get(source)!)
    }
    return this.#ordered
  }

  [Symbol.iterator](): IterableIterator<Recipe> {
    return this.entries()[Symbol.iterator]()
  }

  /**
   * Deterministic tool names by recipe id. In order, each recipe takes its preferred name, or
   * the first free `name_2`, `name_3`, ... when the name is taken or reserved.
   */
  assignToolNames(style: NamingStyle = 'scoped', reserved: Iterable<string> = RESERVED_TOOL_NAMES): Map<string, string> {
    const { recipes, names } = this.namedEntries(style, reserved)
    const byId = new Map<string, string>()
    for (let i = 0; i < recipes.length; i++) byId.set(recipes[i]!.id, names[i]!)
    return byId
  }

  /**
   * entries() with the tool name of each (assignToolNames's, at the same index): for a pass over the
   * whole book in order (a report), without a lookup by id per recipe.
   */
  namedEntries(style: NamingStyle = 'scoped', reserved: Iterable<string> = RESERVED_TOOL_NAMES): { recipes: Recipe[]; names: string[] } {
    const taken = new Set<string>(reserved)
    const wanted = preferredNames(style)
    const recipes = this.#inOrder()
    const names: string[] = []
    for (let i = 0; i < recipes.length; i++) {
      const want = wanted(recipes[i]!)
      let name = want
      for (let n = 2; taken.has(name); n++) {
        const suffix = `_${n}`
        name = `${fitLength(want, suffix.length)}${suffix}`
      }
      taken.add(name)
      names.push(name)
    }
    return { recipes: recipes.slice(), names }
  }
}

/**
 * preferredToolName for one naming pass over many recipes. A source's recipes share a runner and a
 * workspace's scripts a scope per package: each one's sanitized form (with its `_`) is made once, and
 * the name is put together as toolBase and preferredToolName do, piece for piece. Names are not
 * remembered: a large Makefile's are all different, so the lookups would only add to the pass.
 */
function preferredNames(style: NamingStyle): (recipe: Recipe) => string {
  const scopes = new Map<string, { clean: string; prefix: string }>()
  let runner: string | undefined
  let source: string | undefined
  let prefix = ''
  return (recipe) => {
    const name = sanitizeName(recipe.name)
    let base = name === '' ? `task_${shortHash(`${recipe.scope ?? ''}\0${recipe.name}`)}` : name
    if (recipe.scope) {
      let scope = scopes.get(recipe.scope)
      if (scope === undefined) {
        const clean = sanitizeName(recipe.scope)
        scopes.set(recipe.scope, (scope = { clean, prefix: `${clean}_` }))
      }
      // Names that already carry their scope (`mod::recipe`, `pkg/bin/x`) don't repeat it.
      if (scope.clean !== '' && !base.startsWith(scope.prefix)) base = scope.prefix + base
    }
    if (style !== 'scoped') return fitLength(base)
    if (recipe.runner !== runner || recipe.source !== source) {
      runner = recipe.runner
      source = recipe.source
      prefix = `${toolPrefix(recipe)}_`
    }
    return fitLength(prefix + base)
  }
}
