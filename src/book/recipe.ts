/**
 * The Recipe value: one runnable command a repository declares, as a collector found it.
 * Recipes are plain frozen data so that they serialize to JSON as they are.
 */

/** The built-in collectors' sources, in the book's default order (the collector table's rows). */
export { BUILTIN_SOURCES, type BuiltinSource } from '../base/collector-table.js'

/** A declared parameter of a recipe (a just recipe's parameters, for example). */
export interface RecipeParameter {
  readonly name: string
  /** The default value as written in the manifest, when there is one. */
  readonly default?: string
  /** `+` takes one or more values, `*` zero or more. */
  readonly variadic?: '+' | '*'
}

export interface Recipe {
  /** Stable identity: `source:name` at the root, `source:cwd:name` below it. Dedupe key of the book. */
  readonly id: string
  /** The collector that found it: a built-in source or a third-party collector's name. */
  readonly source: string
  /** The executable that runs it (make, npm, pnpm, yarn, bun, just, deno, cargo, task, ...). */
  readonly runner: string
  /** The name the runner knows (script name, `mod::recipe`, `ns:task`, `bin/name` for cargo). */
  readonly name: string
  /** The full shell command line, without extra arguments. */
  readonly command: string
  /** POSIX path of the working directory relative to the scan root; `.` for the root. */
  readonly cwd: string
  readonly description: string
  /** POSIX path of the manifest relative to the scan root. */
  readonly file: string
  /** 1-based line of the definition, where known. */
  readonly line?: number
  readonly prerequisites: readonly string[]
  /** Variables the recipe references, offered as `VAR=value` hints. */
  readonly variables: readonly string[]
  readonly parameters: readonly RecipeParameter[]
  /** Qualifier that tool names carry: workspace package, just module path, Taskfile namespace, cargo package. */
  readonly scope?: string
  /** Other names the runner accepts for it. */
  readonly aliases: readonly string[]
  /** Inserted between the command and extra arguments (`--` for `npm run`). */
  readonly argsSeparator?: string
  /**
   * True when no line of the manifest declares it and the runner provides it for what the manifest
   * is (`go build ./...` for a Go module, `cargo build` for a Cargo.toml); absent for declared commands.
   */
  readonly implied?: true
  /**
   * It runs around other commands rather than on its own (an npm lifecycle script such as
   * `postinstall`, or `prebuild` beside `build`): what it runs around. Listed with `--all`, not
   * offered as a harness tool unless configured.
   */
  readonly hook?: string
  /**
   * How to get the runner when it is the project's own (a Python entry point, on PATH once the
   * project is installed) rather than a tool the runner table knows; said when it is missing.
   */
  readonly install?: string
}

/** What a collector supplies; everything optional has a default. */
export interface RecipeInput {
  source: string
  runner: string
  name: string
  command: string
  cwd?: string
  description?: string
  file: string
  line?: number
  prerequisites?: readonly string[]
  variables?: readonly string[]
  parameters?: readonly RecipeParameter[]
  scope?: string
  aliases?: readonly string[]
  argsSeparator?: string
  implied?: boolean
  hook?: string
  install?: string
  id?: string
}

export class RecipeError extends Error {
  override name = 'RecipeError'
}

function toPosix(path: string): string {
  // Most paths are already clean (collectors build them with relPosix): skip the rewrites.
  if (path !== '' && !path.includes('\\') && !path.endsWith('/') && !path.startsWith('./')) return path
  const p = path.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '')
  return p === '' ? '.' : p
}

export function recipeId(source: string, cwd: string, name: string): string {
  return cwd === '.' ? `${source}:${name}` : `${source}:${cwd}:${name}`
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
const EMPTY: readonly never[] = Object.freeze([])
function frozenCopy<T>(list: readonly T[] | undefined): readonly T[] {
  // A list by slice, not a spread: the spread walks it through an iterator in code that runs once per
  // recipe. Any other iterable a collector of another package hands over, as before.
  if (list === undefined || list.length === 0) return EMPTY
  return Object.freeze(Array.isArray(list) ? list.slice() : [...list])
}

/** A field a collector must fill: a string with more than blanks in it. */
function requireText(value: unknown, key: string): void {
  if (typeof value !== 'string' || value.trim() === '') throw new RecipeError(`recipe field "${key}" must be a non-empty string (got ${JSON.stringify(value)})`)
}

/** Builds a frozen Recipe, checking the fields a collector must fill. */
export function createRecipe(input: RecipeInput): Recipe {
  // Each field by name, in this order (a loop over the names read them by a computed key, the slow
  // kind of property read in code that runs once per recipe).
  requireText(input.source, 'source')
  requireText(input.runner, 'runner')
  requireText(input.name, 'name')
  requireText(input.command, 'command')
  requireText(input.file, 'file')
  if (input.line !== undefined && (!Number.isInteger(input.line) || input.line < 1)) {
    throw new RecipeError(`recipe field "line" must be a positive integer (got ${input.line})`)
  }
  const cwd = toPosix(input.cwd ?? '.')
  if (cwd.startsWith('/') || cwd === '..' || cwd.startsWith('../')) {
    throw new RecipeError(`recipe cwd must be relative to the scan root (got "${input.cwd}")`)
  }
  // Built by assignment rather than conditional spreads, and with one shared frozen empty list:
  // a 1,000-package scan makes thousands of recipes, and this is about 3 times faster.
  const recipe: Mutable<Recipe> = {
    id: input.id ?? recipeId(input.source, cwd, input.name),
    source: input.source,
    runner: input.runner,
    name: input.name,
    command: input.command,
    cwd,
    description: (input.description ?? '').trim(),
    file: toPosix(input.file),
  } as Mutable<Recipe>
  if (input.line !== undefined) recipe.line = input.line
  recipe.prerequisites = frozenCopy(input.prerequisites)
  recipe.variables = frozenCopy(input.variables)
  recipe.parameters = input.parameters?.length ? Object.freeze(input.parameters.map((p) => Object.freeze({ ...p }))) : EMPTY
  if (input.scope) recipe.scope = input.scope
  recipe.aliases = frozenCopy(input.aliases)
  if (input.argsSeparator) recipe.argsSeparator = input.argsSeparator
  if (input.implied) recipe.implied = true
  if (input.hook) recipe.hook = input.hook
  if (input.install) recipe.install = input.install
  return Object.freeze(recipe)
}

/**
 * `{ ...shared, ...own }`, field by field: V8 (Node 20) adds a property to an object made by a spread
 * on a slow path, about 10 microseconds a call where this takes a fraction of one, and a workspace
 * makes one per package.
 */
function joined(shared: Omit<RecipeInput, keyof OwnRecipeFields | 'id'>, own: OwnRecipeFields): RecipeInput {
  return {
    source: shared.source, runner: shared.runner, name: own.name, command: own.command, cwd: shared.cwd, description: own.description,
    file: shared.file, line: own.line, prerequisites: shared.prerequisites, variables: shared.variables, parameters: shared.parameters,
    scope: shared.scope, aliases: shared.aliases, argsSeparator: shared.argsSeparator, implied: shared.implied, hook: own.hook, install: shared.install,
  }
}

/** The fields that differ between the recipes of one recipeMaker. */
export type OwnRecipeFields = Pick<RecipeInput, 'name' | 'command' | 'description' | 'line' | 'hook'>

/**
 * createRecipe for a run of recipes that share all but their name, command, description, line and
 * hook (the scripts of one package.json): the first is made by createRecipe itself, which checks
 * the shared fields too, and each later one checks only its own. The recipes are the ones
 * createRecipe makes, field for field and in its order; a workspace of thousands of packages makes
 * tens of thousands of them, and checking and normalizing the same cwd and file each time was most of the cost.
 */
export function recipeMaker(shared: Omit<RecipeInput, keyof OwnRecipeFields | 'id'>): (own: OwnRecipeFields) => Recipe {
  let first: Recipe | undefined
  return (own) => {
    if (first === undefined) return (first = createRecipe(joined(shared, own)))
    const { name, command } = own
    requireText(name, 'name')
    requireText(command, 'command')
    const line = own.line
    if (line !== undefined && (!Number.isInteger(line) || line < 1)) throw new RecipeError(`recipe field "line" must be a positive integer (got ${line})`)
    const recipe: Mutable<Recipe> = {
      id: recipeId(first.source, first.cwd, name),
      source: first.source,
      runner: first.runner,
      name,
      command,
      cwd: first.cwd,
      description: (own.description ?? '').trim(),
      file: first.file,
    } as Mutable<Recipe>
    if (line !== undefined) recipe.line = line
    // The shared lists are frozen already: the first recipe's serve them all.
    recipe.prerequisites = first.prerequisites
    recipe.variables = first.variables
    recipe.parameters = first.parameters
    if (first.scope !== undefined) recipe.scope = first.scope
    recipe.aliases = first.aliases
    if (first.argsSeparator !== undefined) recipe.argsSeparator = first.argsSeparator
    if (first.implied) recipe.implied = true
    if (own.hook) recipe.hook = own.hook
    if (first.install !== undefined) recipe.install = first.install
    return Object.freeze(recipe)
  }
}

/** A problem found in the user's files: reported, never thrown. */
export interface Diagnostic {
  readonly source: string
  /** POSIX path relative to the scan root. */
  readonly file: string
  readonly line?: number
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export function createDiagnostic(d: { source: string; file: string; line?: number; message: string; severity?: 'error' | 'warning' }): Diagnostic {
  return Object.freeze({
    source: d.source,
    file: toPosix(d.file),
    ...(d.line !== undefined ? { line: d.line } : {}),
    message: d.message,
    severity: d.severity ?? 'error',
  })
}
