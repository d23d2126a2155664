/**
 * The harness tools of a recipe book: each planned tool (exposure.ts: one per recipe, or one
 * dispatcher) as a dsh tool definition. `adapter.ts` registers them and keeps them in step with the book.
 */
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import type { RunResult } from '../execute.js'
import { ARGS_DESCRIPTION, missingRunnerRefusal, OP_DESCRIPTION, plannedCommand, renderRun, toolValue, type PlannedTool, type RecipeToolValue } from '../exposure.js'
import type { Recipe } from '../recipe.js'
import { dispatchTasks, resolveOp } from './dispatcher.js'

export { renderRun, recipeToolDescription, RENDER_STREAM_CHARS, type RecipeToolValue } from '../exposure.js'

/** Runs a command for a tool call (the adapter binds it to the harness shell). */
export type RunRecipe = (recipe: Recipe, command: string, exec: ToolExecution) => Promise<RunResult>

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

/** A planned tool as a harness tool. A call whose runner is not installed is refused with how to install it. */
export function harnessTool(tool: PlannedTool, run: RunRecipe): ToolDefinition {
  if (tool.kind === 'recipe') {
    return defineTool({
      name: tool.name,
      description: tool.description,
      parameters: { args: { type: 'string', description: ARGS_DESCRIPTION } },
      output: output as never,
      async execute(args: { args?: string }, exec: ToolExecution) {
        const { recipe, command } = plannedCommand(tool, args)!
        const missing = missingRunnerRefusal(recipe, command)
        if (missing) throw new Error(missing)
        return toolValue(recipe, await run(recipe, command, exec)) as never
      },
    }) as unknown as ToolDefinition
  }
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters: { op: { type: 'string', required: true, description: OP_DESCRIPTION } },
    output: output as never,
    async execute(args: { op: string }, exec: ToolExecution) {
      const target = plannedCommand(tool, args)
      // An op that doesn't resolve: resolveOp's error lists the available tasks.
      if (!target) resolveOp(args.op, dispatchTasks(tool.book))
      const missing = missingRunnerRefusal(target!.recipe, target!.command)
      if (missing) throw new Error(missing)
      return toolValue(target!.recipe, await run(target!.recipe, target!.command, exec)) as never
    },
  }) as unknown as ToolDefinition
}
