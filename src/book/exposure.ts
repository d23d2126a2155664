/**
 * How a recipe book becomes agent tools, for every agent surface (the dsh adapter, the MCP server):
 * which recipes are offered (hooks are not, unless configured), one tool per command when they
 * are few and fit the token budget, else one dispatcher tool with the `op` grammar
 * (dispatcher.ts); and the tool descriptions (with the plan's word on which asks, from approval.ts).
 * Harness-free: each surface wraps the plan in its own tool type. The budget keeps the tool
 * definitions within a context budget while every offered command stays reachable: by its own
 * tool, or by name through the dispatcher. What a call of a planned tool does is run-tool.ts's.
 */
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import type * as Approval from './approval.js'
import type { Config } from './config.js'
import type { Verdict } from './risk/index.js'
import type { Recipe } from './recipe.js'
import { RecipeBook, RESERVED_TOOL_NAMES } from './recipe-book.js'
import { dispatchTasks, dispatcherDescription } from './dispatcher.js'
import { missingExecutable, missingRunnerNote, onPath } from './runners.js'

/** The dispatcher tool's preferred name (the recipe-tool contract's). */
export const DISPATCHER_NAME = 'recipe'


export const ARGS_DESCRIPTION = 'Optional extra words, one argument each (quoted, never shell code): ["--watch"], ["VAR=1"].'
export const OP_DESCRIPTION = 'The task, then its arguments as words, split as a shell splits them (no ;, |, &&, > or $(...)): "test", "build --release", "web/test --watch", "make:build VERSION=2".'
/** The dispatcher's optional `args`: words appended after the op's own, for words that hold spaces or quotes. */
export const OP_ARGS_DESCRIPTION = 'Optional words appended after the op\'s, one argument per item.'

/**
 * Tokens the per-recipe tools may cost together before the dispatcher takes over. The bundle's
 * budget is 2,000 tokens of tool definitions; the three curated tools take about 500 of them.
 */
export const TOOLS_TOKEN_BUDGET = 1_200

/**
 * Characters per token of a tool definition (name, description, JSON schema), measured with
 * the o200k_base BPE tokenizer on the definitions dsh sends (test/e2e/budget.test.mjs): about
 * 3.6; 3.2 errs on the side of the dispatcher.
 */
export const CHARS_PER_TOKEN = 3.2

/**
 * Characters of a tool definition besides its name and description: the `args` parameter's schema
 * (a list of strings: 46 characters more than the shell-text string it was, measured at 170).
 */
const TOOL_OVERHEAD_CHARS = 216

/** Description text of one recipe (its first line), cut to this many characters in tool text. */
const DOC_CHARS = 140

/** The gate's reason in a tool description, cut to this many characters (the refusal says it whole). */
const RISK_CHARS = 200


export interface ExposureOptions {
  /** Offer lifecycle scripts and pre/post hooks too (default: they stay in the book, not in the tools). */
  exposeHooks?: boolean
}

/** The recipes an agent is offered: all but hooks, unless hooks are asked for. */
export function offeredRecipes(recipes: readonly Recipe[], options: ExposureOptions = {}): Recipe[] {
  return options.exposeHooks ? [...recipes] : recipes.filter((r) => r.hook === undefined)
}

const requireHere = createRequire(import.meta.url)
let approval: typeof Approval | undefined
/**
 * The gate (approval.ts and the risk readers behind it), loaded by the first plan that judges a
 * recipe, not with this module: the package main exports the plan, and most of its users scan.
 */
function gate(): typeof Approval {
  return (approval ??= requireHere('./approval.js') as typeof Approval)
}

/** Tools per recipe or one dispatcher: per recipe when configured so, or when they are few and fit the budget. */
export function effectiveExposure(
  config: Pick<Config, 'exposure' | 'dispatcherThreshold'>,
  recipes: readonly Recipe[],
  missingRunners: ReadonlySet<string> = new Set(),
): 'tools' | 'dispatcher' {
  if (config.exposure !== 'auto') return config.exposure
  if (recipes.length > config.dispatcherThreshold) return 'dispatcher'
  return estimatedToolTokens(recipes, missingRunners) > TOOLS_TOKEN_BUDGET ? 'dispatcher' : 'tools'
}

/** The estimated token cost of one tool per recipe (chars / CHARS_PER_TOKEN). */
export function estimatedToolTokens(recipes: readonly Recipe[], missingRunners: ReadonlySet<string> = new Set()): number {
  let chars = 0
  for (const r of recipes) chars += TOOL_OVERHEAD_CHARS + 24 + recipeToolDescription(r, undefined, missingRunners.has(r.runner)).length
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

/**
 * The runners of these recipes that are not installed here: a runner counts as missing only when
 * a recipe's command line starts with it (a third-party recipe may name a runner and run something else).
 */
export function missingRunnersOf(recipes: readonly Recipe[], env: NodeJS.ProcessEnv = process.env): Set<string> {
  const missing = new Set<string>()
  for (const runner of new Set(recipes.map((r) => r.runner))) {
    if (!onPath(runner, env) && recipes.some((r) => r.runner === runner && missingExecutable(r.command, env) === runner)) missing.add(runner)
  }
  return missing
}

/** One planned tool: a command of its own, or the dispatcher over the offered part of the book. */
export type PlannedTool =
  | {
    kind: 'recipe'; name: string; recipe: Recipe; description: string
    /** The gate's verdict on a call without extra words; its reason is why the tool asks before running. */
    verdict: Verdict
    /** The verdict's reason when it asks (the description says it). */
    risk?: string
    signature: string
  }
  | { kind: 'dispatcher'; name: string; book: RecipeBook; description: string; signature: string }

export interface PlanOptions {
  /** Environment whose PATH decides which runners are missing (default process.env). */
  env?: NodeJS.ProcessEnv
  /** Absolute scan root the book was read from (default: `config.root` from the working directory). */
  root?: string
}

/**
 * The tools a book gets. `taken` names tools that exist already (built-ins, other plugins', the
 * surface's own): no planned tool takes one of them.
 */
export function planTools(
  book: RecipeBook,
  config: Pick<Config, 'exposure' | 'dispatcherThreshold' | 'naming'> & { exposeHooks?: boolean; root?: string },
  taken: Iterable<string> = [],
  options: PlanOptions = {},
): PlannedTool[] {
  // Hooks stay in the book, not in the tools (unless configured); runners are checked once per plan.
  const offered = offeredRecipes(book.entries(), { exposeHooks: config.exposeHooks })
  if (offered.length === 0) return []
  const root = options.root ?? resolve(config.root ?? '.')
  const reserved = new Set([...RESERVED_TOOL_NAMES, ...taken])
  const missing = missingRunnersOf(offered, options.env)
  if (effectiveExposure(config, offered, missing) === 'tools') {
    // Names over the whole book, so a tool keeps its name whether hooks are offered or not.
    const names = book.assignToolNames(config.naming.style, reserved)
    return offered.map((recipe) => {
      const verdict = gate().plannedVerdict(book, recipe, root, true) ?? gate().UNJUDGED
      const risk = verdict.destructive ? gate().reasonClause(verdict) : undefined
      const runnerMissing = missing.has(recipe.runner)
      return {
        kind: 'recipe',
        name: names.get(recipe.id)!,
        recipe,
        description: recipeToolDescription(recipe, risk, runnerMissing),
        verdict,
        ...(risk ? { risk } : {}),
        signature: JSON.stringify([recipe, risk, runnerMissing]),
      }
    })
  }
  let name = DISPATCHER_NAME
  for (let n = 2; reserved.has(name); n++) name = `${DISPATCHER_NAME}_${n}`
  const shown = offered.length === book.size ? book : new RecipeBook(offered)
  // Judged against the whole book (a body may call a hook), and only for the tasks the description shows.
  const asks = (recipe: Recipe) => gate().plannedVerdict(book, recipe, root, true)?.destructive === true
  const description = dispatcherDescription(dispatchTasks(shown), asks, missing)
  return [{ kind: 'dispatcher', name, book: shown, description, signature: JSON.stringify([offered, [...missing], description]) }]
}

/** Ends a clause as a sentence. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

function firstLine(text: string, max = DOC_CHARS): string {
  const line = text.split('\n')[0]!.trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/** A per-recipe tool's description: what runs, where it is declared, what it does, how to pass input. */
export function recipeToolDescription(recipe: Recipe, risk?: string, runnerMissing = false): string {
  const where = recipe.line ? `${recipe.file}:${recipe.line}` : recipe.file
  const lines = [`Runs \`${recipe.command}\`${recipe.cwd !== '.' ? ` in ${recipe.cwd}` : ''} (${recipe.implied ? `implied by ${recipe.file}` : where}).`]
  if (recipe.description) lines.push(firstLine(recipe.description))
  if (recipe.parameters.length) {
    const params = recipe.parameters.map((p) => `${p.variadic ?? ''}${p.name}${p.default !== undefined ? `=${p.default}` : ''}`)
    lines.push(`Parameters, in order in args: ${params.join(' ')}`)
  }
  if (recipe.variables.length) lines.push(`Variables, as VAR=value in args: ${recipe.variables.slice(0, 8).join(', ')}${recipe.variables.length > 8 ? ', ...' : ''}`)
  if (risk) lines.push(`Asks a person for approval first: ${sentence(firstLine(risk, RISK_CHARS))}`)
  if (runnerMissing) lines.push(missingRunnerNote(recipe.runner, recipe.install))
  return lines.join('\n')
}
