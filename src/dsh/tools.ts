/**
 * The harness tools of a recipe book: each planned tool (exposure.ts: one per recipe, or one
 * dispatcher) as a dsh tool definition. `adapter.ts` registers them and keeps them in step with the book.
 *
 * A call's `args` are words (a list of strings), each quoted onto the command line; the dispatcher's
 * `op` is split into words the same way. What a call does is book/run-tool.ts `runPlannedTool`,
 * which the adapter drives (it asks dsh's approval before the body runs); here its outcome becomes
 * what dsh expects of a tool: the value, or a refusal thrown with its text.
 */
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import { ARGS_DESCRIPTION, OP_ARGS_DESCRIPTION, OP_DESCRIPTION, renderRun, type PlannedTool, type RecipeToolValue } from '../book/exposure.js'
import type { ToolOutcome } from '../book/run-tool.js'
import { refusalText } from './approval.js'

export { renderRun, recipeToolDescription, RENDER_STREAM_CHARS, type RecipeToolValue } from '../book/exposure.js'

/** Runs one call of a planned tool (the adapter binds it to the book, the harness shell and dsh's approval). */
export type CallTool = (tool: PlannedTool, args: unknown, exec: ToolExecution) => Promise<ToolOutcome>

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
 * A call's outcome as dsh takes it: the value, or thrown with what to do instead. Arguments that are
 * not words and an op that names no task throw what resolving threw (ArgsError, DispatchError).
 */
export function harnessValue(outcome: ToolOutcome): RecipeToolValue {
  switch (outcome.kind) {
    case 'ran':
      return outcome.value
    case 'unresolved':
      throw outcome.error
    case 'refused':
      throw new Error(outcome.reason)
    case 'unconfirmed':
      // Reached only when no `tools/pre-execute` ask was made for this call (a listener short-circuited the gate).
      throw new Error(refusalText(outcome.ask.need, 'no person was asked to approve this call'))
  }
}

/** A planned tool as a harness tool; `call` decides and runs each call. */
export function harnessTool(tool: PlannedTool, call: CallTool): ToolDefinition {
  const execute = async (args: unknown, exec: ToolExecution) => harnessValue(await call(tool, args, exec)) as never
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
