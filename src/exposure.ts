/**
 * How a recipe book is shown to an agent, for any surface (the harness tools, an MCP server):
 * which recipes are offered, one tool per recipe or one dispatcher, and the tool descriptions.
 * Harness-free. The choice keeps the tool definitions within a context budget while every
 * offered command stays reachable: by its own tool, or by name through the dispatcher.
 */
import type { Config } from './config.js'
import type { Recipe } from './recipe.js'
import { INSTALL_HINTS } from './runners.js'

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

/** Characters of a tool definition besides its name and description: the `args` parameter's schema. */
const TOOL_OVERHEAD_CHARS = 170

/** Description text of one recipe (its first line), cut to this many characters in tool text. */
const DOC_CHARS = 140

export interface ExposureOptions {
  /** Offer lifecycle scripts and pre/post hooks too (default: they stay in the book, not in the tools). */
  exposeHooks?: boolean
}

/** The recipes an agent is offered: all but hooks, unless hooks are asked for. */
export function offeredRecipes(recipes: readonly Recipe[], options: ExposureOptions = {}): Recipe[] {
  return options.exposeHooks ? [...recipes] : recipes.filter((r) => r.hook === undefined)
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

function firstLine(text: string, max = DOC_CHARS): string {
  const line = text.split('\n')[0]!.trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/** The sentence a tool carries when its runner is not installed: which one, and how to install it. */
export function missingRunnerNote(runner: string): string {
  return `Warning: ${runner} is not installed here, so this fails until someone installs it (${installHint(runner)}).`
}

export function installHint(runner: string): string {
  return INSTALL_HINTS[runner] ?? `install ${runner}`
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
  if (risk) lines.push(`Asks a person for approval first: it ${risk}.`)
  if (runnerMissing) lines.push(missingRunnerNote(recipe.runner))
  return lines.join('\n')
}
