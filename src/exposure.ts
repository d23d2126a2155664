/**
 * How a recipe book becomes agent tools, for every agent surface (the dsh adapter, the MCP server):
 * one tool per command up to the threshold, else one dispatcher tool with the `op` grammar
 * (dispatcher.ts); the tool descriptions; which call asks for confirmation and why; and the text a
 * model reads back from a run. Harness-free: each surface wraps the plan in its own tool type.
 */
import type { Config } from './config.js'
import type { RunResult } from './execute.js'
import { commandWithArgs, type Recipe } from './recipe.js'
import { RESERVED_TOOL_NAMES, type RecipeBook } from './recipe-book.js'
import { dispatchTasks, dispatcherDescription, resolveOp, taskToken } from './plugin/dispatcher.js'
import { classifyRecipeRisk } from './plugin/risk.js'

/** The dispatcher tool's preferred name (the recipe-tool contract's). */
export const DISPATCHER_NAME = 'recipe'

/** Characters of each stream the model sees; the whole capture stays in the result value. */
export const RENDER_STREAM_CHARS = 16_000

export const ARGS_DESCRIPTION = 'Extra shell arguments appended to the command verbatim, e.g. "VERSION=2.0.0" or "--watch". Optional.'
export const OP_DESCRIPTION = 'The task, then arguments appended verbatim: "test", "build --release", "web/test --watch", "make:build VERSION=2".'

/** A tool call's result value: the run, where it ran, and which task it was. */
export interface RecipeToolValue extends RunResult {
  /** Working directory, relative to the scan root. */
  cwd: string
  /** The task as the dispatcher names it (`runner:task`). */
  task: string
}

/** Which exposure a book gets. */
export function effectiveExposure(config: Pick<Config, 'exposure' | 'dispatcherThreshold'>, size: number): 'tools' | 'dispatcher' {
  if (config.exposure !== 'auto') return config.exposure
  return size > config.dispatcherThreshold ? 'dispatcher' : 'tools'
}

/** One planned tool: a command of its own, or the dispatcher over the whole book. */
export type PlannedTool =
  | { kind: 'recipe'; name: string; recipe: Recipe; description: string; /** Why it asks before running, when it does. */ risk?: string; signature: string }
  | { kind: 'dispatcher'; name: string; book: RecipeBook; description: string; signature: string }

/**
 * The tools a book gets. `taken` names tools that exist already (built-ins, other plugins', the
 * surface's own): no planned tool takes one of them.
 */
export function planTools(book: RecipeBook, config: Pick<Config, 'exposure' | 'dispatcherThreshold' | 'naming'>, taken: Iterable<string> = []): PlannedTool[] {
  if (book.size === 0) return []
  const reserved = new Set([...RESERVED_TOOL_NAMES, ...taken])
  if (effectiveExposure(config, book.size) === 'tools') {
    const names = book.assignToolNames(config.naming.style, reserved)
    return book.entries().map((recipe) => {
      const risk = classifyRecipeRisk(recipe, recipe.command).reason
      return { kind: 'recipe', name: names.get(recipe.id)!, recipe, description: recipeToolDescription(recipe, risk), risk, signature: JSON.stringify([recipe, risk]) }
    })
  }
  let name = DISPATCHER_NAME
  for (let n = 2; reserved.has(name); n++) name = `${DISPATCHER_NAME}_${n}`
  const description = dispatcherDescription(dispatchTasks(book), (recipe) => classifyRecipeRisk(recipe, recipe.command).destructive)
  return [{ kind: 'dispatcher', name, book, description, signature: JSON.stringify(book.entries()) }]
}

/** What the tool description says about a recipe (the seed's format). */
export function recipeToolDescription(recipe: Recipe, risk?: string): string {
  const where = recipe.line ? `${recipe.file}:${recipe.line}` : recipe.file
  const lines = [`Project ${recipe.source} command "${taskToken(recipe)}" (from ${where}).`]
  if (recipe.description) lines.push(recipe.description)
  lines.push(`Run: ${recipe.command}${recipe.cwd !== '.' ? ` (in ${recipe.cwd})` : ''}`)
  if (recipe.parameters.length) {
    const params = recipe.parameters.map((p) => `${p.variadic ?? ''}${p.name}${p.default !== undefined ? `=${p.default}` : ''}`)
    lines.push(`Parameters: ${params.join(' ')} (pass values in order via "args")`)
  }
  if (recipe.variables.length) lines.push(`Acceptable variables: ${recipe.variables.join(', ')} (pass as VAR=value via "args")`)
  if (recipe.prerequisites.length) lines.push(`Prerequisites: ${recipe.prerequisites.join(', ')}`)
  if (recipe.aliases.length) lines.push(`Aliases: ${recipe.aliases.join(', ')}`)
  if (risk) lines.push(`Asks for approval before it runs: it ${risk}.`)
  lines.push('Additional shell arguments can be appended through the "args" parameter.')
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

/** Why this exact call needs a person's confirmation (`` `cmd` deletes ... ``), or undefined. */
export function confirmationReason(recipe: Recipe, command: string): string | undefined {
  const risk = classifyRecipeRisk(recipe, command)
  return risk.destructive ? `\`${command}\` ${risk.reason}` : undefined
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
