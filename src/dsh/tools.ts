/**
 * The harness tools of a recipe book: each planned tool (exposure.ts: one per recipe, or one
 * dispatcher) as a dsh tool definition. `adapter.ts` registers them and keeps them in step with the book.
 *
 * A call's `args` are words (a list of strings), each quoted onto the command line; the dispatcher's
 * `op` is split into words the same way. Before a command runs, the adapter's gate sees the call:
 * a destructive call runs only when a person approved this very call (adapter.ts).
 */
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import type { RunResult } from '../book/execute.js'
import {
  ARGS_DESCRIPTION, missingRunnerRefusal, OP_ARGS_DESCRIPTION, OP_DESCRIPTION, plannedCall, renderRun, toolValue,
  type PlannedCall, type PlannedTool, type RecipeToolValue,
} from '../book/exposure.js'
import type { Recipe } from '../book/recipe.js'

export { renderRun, recipeToolDescription, RENDER_STREAM_CHARS, type RecipeToolValue } from '../book/exposure.js'

/** Runs a command for a tool call (the adapter binds it to the harness shell). */
export type RunRecipe = (recipe: Recipe, command: string, exec: ToolExecution) => Promise<RunResult>

/** The last check before a call runs: throws, with the reason, when the call may not run. */
export type CallGate = (call: PlannedCall, exec: ToolExecution) => void

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

const output = {
  schema: OUTPUT_SCHEMA,
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: renderRun(value as RecipeToolValue) }],
}

const WORDS = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const

/**
 * A planned tool as a harness tool. Arguments that are not words, an op that names no task and a
 * runner that is not installed are refused with what to do instead; then the gate decides.
 */
export function harnessTool(tool: PlannedTool, run: RunRecipe, gate: CallGate = () => {}): ToolDefinition {
  const execute = async (args: unknown, exec: ToolExecution) => {
    // plannedCall throws ArgsError (why the args are not words) or DispatchError (the task list).
    const call = plannedCall(tool, args)
    const missing = missingRunnerRefusal(call.recipe, call.command)
    if (missing) throw new Error(missing)
    gate(call, exec)
    return toolValue(call.recipe, await run(call.recipe, call.command, exec)) as never
  }
  if (tool.kind === 'recipe') {
    return defineTool({
      name: tool.name,
      description: tool.description,
      parameters: { args: WORDS(ARGS_DESCRIPTION) },
      output: output as never,
      execute: execute as never,
    }) as unknown as ToolDefinition
  }
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters: { op: { type: 'string', required: true, description: OP_DESCRIPTION }, args: WORDS(OP_ARGS_DESCRIPTION) },
    output: output as never,
    execute: execute as never,
  }) as unknown as ToolDefinition
}
