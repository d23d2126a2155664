/**
 * How a recipe book becomes agent tools, for every agent surface (the dsh adapter, the MCP server):
 * which recipes are offered (hooks are not, unless configured), one tool per command when they
 * are few and fit the token budget, else one dispatcher tool with the `op` grammar
 * (dispatcher.ts); the tool descriptions; which call asks for confirmation and why; a missing
 * runner's refusal; and the text a model reads back from a run. Harness-free: each surface wraps
 * the plan in its own tool type. The budget keeps the tool definitions within a context budget
 * while every offered command stays reachable: by its own tool, or by name through the dispatcher.
 */
import type { Config } from './config.js'
import type { RunResult } from './execute.js'
import { commandWithArgs, type Recipe } from './recipe.js'
import { RecipeBook, RESERVED_TOOL_NAMES } from './recipe-book.js'
import { dispatchTasks, dispatcherDescription, resolveOp, taskToken } from './plugin/dispatcher.js'
import { classifyRecipeRisk } from './plugin/risk.js'
import { missingExecutable, missingRunnerNote, onPath } from './runners.js'

export { installHint, missingRunnerNote, missingRunnerRefusal } from './runners.js'
// The dispatcher's grammar is harness-free too; other surfaces take it from here.
export { DispatchError, dispatchTasks, dispatcherDescription, PROMPT_TASK_CHARS, resolveOp, taskToken, type DispatchTask } from './plugin/dispatcher.js'

/** The dispatcher tool's preferred name (the recipe-tool contract's). */
export const DISPATCHER_NAME = 'recipe'

/** Characters of each stream the model sees; the whole capture stays in the result value. */
export const RENDER_STREAM_CHARS = 16_000

export const ARGS_DESCRIPTION = 'Optional shell arguments appended verbatim, e.g. "--watch" or "VAR=1".'
export const OP_DESCRIPTION = 'The task, then arguments appended verbatim: "test", "build --release", "web/test --watch", "make:build VERSION=2".'

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

/** A tool call's result value: the run, where it ran, and which task it was. */
export interface RecipeToolValue extends RunResult {
  /** Working directory, relative to the scan root. */
  cwd: string
  /** The task as the dispatcher names it (`runner:task`). */
  task: string
}

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
  | { kind: 'recipe'; name: string; recipe: Recipe; description: string; /** Why it asks before running, when it does. */ risk?: string; signature: string }
  | { kind: 'dispatcher'; name: string; book: RecipeBook; description: string; signature: string }

export interface PlanOptions {
  /** Environment whose PATH decides which runners are missing (default process.env). */
  env?: NodeJS.ProcessEnv
}

/**
 * The tools a book gets. `taken` names tools that exist already (built-ins, other plugins', the
 * surface's own): no planned tool takes one of them.
 */
export function planTools(
  book: RecipeBook,
  config: Pick<Config, 'exposure' | 'dispatcherThreshold' | 'naming'> & { exposeHooks?: boolean },
  taken: Iterable<string> = [],
  options: PlanOptions = {},
): PlannedTool[] {
  // Hooks stay in the book, not in the tools (unless configured); runners are checked once per plan.
  const offered = offeredRecipes(book.entries(), { exposeHooks: config.exposeHooks })
  if (offered.length === 0) return []
  const reserved = new Set([...RESERVED_TOOL_NAMES, ...taken])
  const missing = missingRunnersOf(offered, options.env)
  if (effectiveExposure(config, offered, missing) === 'tools') {
    // Names over the whole book, so a tool keeps its name whether hooks are offered or not.
    const names = book.assignToolNames(config.naming.style, reserved)
    return offered.map((recipe) => {
      const risk = classifyRecipeRisk(recipe, recipe.command).reason
      const runnerMissing = missing.has(recipe.runner)
      return {
        kind: 'recipe',
        name: names.get(recipe.id)!,
        recipe,
        description: recipeToolDescription(recipe, risk, runnerMissing),
        risk,
        signature: JSON.stringify([recipe, risk, runnerMissing]),
      }
    })
  }
  let name = DISPATCHER_NAME
  for (let n = 2; reserved.has(name); n++) name = `${DISPATCHER_NAME}_${n}`
  const shown = offered.length === book.size ? book : new RecipeBook(offered)
  const description = dispatcherDescription(dispatchTasks(shown), (recipe) => classifyRecipeRisk(recipe, recipe.command).destructive, missing)
  return [{ kind: 'dispatcher', name, book: shown, description, signature: JSON.stringify([offered, [...missing]]) }]
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
  if (risk) lines.push(`Asks a person for approval first: it ${risk}.`)
  if (runnerMissing) lines.push(missingRunnerNote(recipe.runner, recipe.install))
  return lines.join('\n')
}

/** The recipe and command a call of a planned tool would run; undefined when a dispatcher op doesn't resolve. */
export function plannedCommand(tool: PlannedTool, args: unknown): { recipe: Recipe; command: string } | undefined {
  if (tool.kind === 'recipe') {
    const extra = typeof (args as { args?: unknown })?.args === 'string' ? (args as { args: string }).args : undefined
    return { recipe: tool.recipe, command: commandWithArgs(tool.recipe, extra) }
  }
  try {
    const { task, tail } = resolveOp((args as { op?: unknown })?.op, dispatchTasks(tool.book))
    return { recipe: task.recipe, command: commandWithArgs(task.recipe, tail) }
  } catch {
    return undefined
  }
}

/** What a destructive call would run and why it needs a person: `{ command, reason }`, or undefined. */
export function confirmationNeed(recipe: Recipe, command: string): { command: string; reason: string } | undefined {
  const risk = classifyRecipeRisk(recipe, command)
  return risk.destructive ? { command, reason: risk.reason! } : undefined
}

/** Why this exact call needs a person's confirmation (`` `cmd` deletes ... ``), or undefined. */
export function confirmationReason(recipe: Recipe, command: string): string | undefined {
  const need = confirmationNeed(recipe, command)
  return need ? `\`${need.command}\` ${need.reason}` : undefined
}

export function toolValue(recipe: Recipe, result: RunResult): RecipeToolValue {
  return {
    task: `${recipe.runner}:${taskToken(recipe)}`,
    command: result.command,
    cwd: recipe.cwd,
    ok: result.ok,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    killed: result.killed,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  }
}

function cut(text: string, label: string): string {
  if (text.length <= RENDER_STREAM_CHARS) return text
  const dropped = text.length - RENDER_STREAM_CHARS
  return `[... ${dropped} earlier characters of ${label} not shown ...]\n${text.slice(-RENDER_STREAM_CHARS)}`
}

/** The model-facing text: the command, how it ended, then each stream (tail-truncated with a marker). */
export function renderRun(value: RecipeToolValue): string {
  const status = value.timedOut
    ? '[killed: timed out]'
    : value.killed
      ? '[killed: cancelled]'
      : value.exitCode === null
        ? '[killed by signal]'
        : `[exit code: ${value.exitCode}]`
  const head = `$ ${value.command}${value.cwd !== '.' ? `    (in ${value.cwd})` : ''}\n${status} (${(value.durationMs / 1000).toFixed(1)} s)`
  const parts = [head]
  if (value.stdout) parts.push(`stdout:\n${cut(value.stdout, 'stdout').replace(/\n$/, '')}`)
  if (value.stderr) parts.push(`stderr:\n${cut(value.stderr, 'stderr').replace(/\n$/, '')}`)
  if (!value.stdout && !value.stderr) parts.push('(no output)')
  return parts.join('\n')
}
