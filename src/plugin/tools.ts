/**
 * The harness tools of a recipe book: one tool per recipe, or one dispatcher tool. Definitions
 * only; `adapter.ts` registers them and keeps them in step with the book.
 */
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import type { RunResult } from '../execute.js'
import { commandWithArgs, type Recipe } from '../recipe.js'
import { dispatchTasks, dispatcherDescription, resolveOp, taskToken } from './dispatcher.js'
import type { RecipeBook } from '../recipe-book.js'
import { recipeToolDescription } from '../exposure.js'
import { missingExecutable, missingRunnerMessage } from '../runners.js'

export { recipeToolDescription }

/** Runs a command for a tool call (the adapter binds it to the harness shell). */
export type RunRecipe = (recipe: Recipe, command: string, exec: ToolExecution) => Promise<RunResult>

/** Characters of each stream the model sees; the whole capture stays in the result value. */
export const RENDER_STREAM_CHARS = 16_000

/** A tool call's result value: the run, where it ran, and which task it was. */
export interface RecipeToolValue extends RunResult {
  /** Working directory, relative to the scan root. */
  cwd: string
  /** The task as the dispatcher names it (`runner:task`). */
  task: string
}

const ARGS_DESCRIPTION = 'Optional shell arguments appended verbatim, e.g. "--watch" or "VAR=1".'

/** The result value's schema (the seed's `{ command, ok, exitCode, stdout, stderr, killed, durationMs }` plus where and what). */
const OUTPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    task: { type: 'string', required: true },
    command: { type: 'string', required: true },
    cwd: { type: 'string', required: true },
    ok: { type: 'boolean', required: true },
    exitCode: { required: true, oneOf: [{ type: 'integer' }, { type: 'null' }] },
    stdout: { type: 'string', required: true },
    stderr: { type: 'string', required: true },
    killed: { type: 'boolean', required: true },
    timedOut: { type: 'boolean', required: true },
    durationMs: { type: 'integer', required: true },
  },
} as const

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

function toValue(recipe: Recipe, result: RunResult): RecipeToolValue {
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

const output = {
  schema: OUTPUT_SCHEMA,
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: renderRun(value as RecipeToolValue) }],
}

/** One tool for one recipe. `risk` (when destructive) and a missing runner are announced in the description. */
export function recipeTool(name: string, recipe: Recipe, run: RunRecipe, risk?: string, runnerMissing = false): ToolDefinition {
  return defineTool({
    name,
    description: recipeToolDescription(recipe, risk, runnerMissing),
    parameters: { args: { type: 'string', description: ARGS_DESCRIPTION } },
    output: output as never,
    async execute(args: { args?: string }, exec: ToolExecution) {
      const command = commandWithArgs(recipe, args.args)
      const missing = missingExecutable(recipe.command)
      if (missing) throw new Error(missingRunnerMessage(missing, command))
      const result = await run(recipe, command, exec)
      return toValue(recipe, result) as never
    },
  }) as unknown as ToolDefinition
}

/** The command a per-recipe tool call would run (for approval). */
export function recipeToolCommand(recipe: Recipe, args: unknown): string {
  const extra = typeof (args as { args?: unknown })?.args === 'string' ? (args as { args: string }).args : undefined
  return commandWithArgs(recipe, extra)
}

/** The single dispatcher tool over a whole book. */
export function dispatcherTool(name: string, book: RecipeBook, run: RunRecipe, asksApproval?: (recipe: Recipe) => boolean, missingRunners: ReadonlySet<string> = new Set()): ToolDefinition {
  const tasks = dispatchTasks(book)
  return defineTool({
    name,
    description: dispatcherDescription(tasks, asksApproval, missingRunners),
    parameters: {
      op: {
        type: 'string',
        required: true,
        description: 'The task, then arguments appended verbatim: "test", "build --release", "web/test --watch", "make:build VERSION=2".',
      },
    },
    output: output as never,
    async execute(args: { op: string }, exec: ToolExecution) {
      const { task, tail } = resolveOp(args.op, tasks)
      const command = commandWithArgs(task.recipe, tail)
      const missing = missingExecutable(task.recipe.command)
      if (missing) throw new Error(missingRunnerMessage(missing, command))
      const result = await run(task.recipe, command, exec)
      return toValue(task.recipe, result) as never
    },
  }) as unknown as ToolDefinition
}

/** The recipe and command a dispatcher call would run, or undefined when the op doesn't resolve. */
export function dispatcherCommand(book: RecipeBook, args: unknown): { recipe: Recipe; command: string } | undefined {
  try {
    const { task, tail } = resolveOp((args as { op?: unknown })?.op, dispatchTasks(book))
    return { recipe: task.recipe, command: commandWithArgs(task.recipe, tail) }
  } catch {
    return undefined
  }
}
