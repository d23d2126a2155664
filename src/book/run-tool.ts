/**
 * A call of a planned tool, written once for every face (the dsh tools, the MCP server):
 *
 *   resolve   the call's words and, for the dispatcher, its op (`plannedCall`)
 *   decide    approval.ts `decideCall`: a missing runner refuses, a destructive call asks
 *   confirm   the person's yes the face got for this very call (dsh's approval prompt, MCP's `confirm: true`)
 *   run       the face's way (the harness shell, runCommand)
 *   value     what the model reads back (`toolValue`, `renderRun`)
 *
 * A call's arguments are words, never shell text: each is quoted onto the command line, so a model
 * can't chain a second command onto a harmless one. Harness-free: the face injects how to run and
 * whether the call was confirmed, and words the outcome its own way. A face that asks before the
 * tool's body runs (dsh's `tools/pre-execute`) prepares the call there (`prepareCall`) and hands that
 * preparation in, so a call is resolved and judged once.
 */
import { decideCall, type AskDecision, type Decision, type GateWhere } from './approval.js'
import { dispatchTasks, resolveOp, taskToken } from './dispatcher.js'
import type { RunResult } from './execute.js'
import type { PlannedTool } from './exposure.js'
import type { Recipe } from './recipe.js'
import { callWords, commandWithWords } from './risk/index.js'

// What `plannedCall` throws for an op that names no task.
export { DispatchError } from './dispatcher.js'

/** A call resolved and decided, or why its arguments make no call. */
export type PreparedCall =
  | {
    readonly kind: 'unresolved'
    /** Why: the args are not words (ArgsError), or the op names no task (DispatchError, which lists them). */
    readonly reason: string
    /** What resolving threw, for a face that passes the error on as it is. */
    readonly error: unknown
  }
  | { readonly kind: 'resolved'; readonly call: PlannedCall; readonly decision: Decision }

/** How a call ended: it ran, or why not. */
export type ToolOutcome =
  | { readonly kind: 'ran'; readonly call: PlannedCall; readonly value: RecipeToolValue }
  | Extract<PreparedCall, { kind: 'unresolved' }>
  /** The decision refused it (its runner is not installed): `reason` says which and how to install it. */
  | { readonly kind: 'refused'; readonly call: PlannedCall; readonly reason: string }
  /** It asks, and this call has no person's yes. */
  | { readonly kind: 'unconfirmed'; readonly call: PlannedCall; readonly ask: AskDecision }

/** What a face gives a run. */
export interface RunToolFace {
  /** Runs the call's command line in its recipe's directory. */
  run(call: PlannedCall): Promise<RunResult>
  /** Whether this very call has a person's yes; asked only when its decision asks. */
  confirmed(call: PlannedCall, ask: AskDecision): boolean | Promise<boolean>
  /** The call as the face prepared it already, for these arguments; prepared now when absent. */
  prepared?: PreparedCall
}

/** Resolves a planned tool's arguments to its call and decides it. Never throws. */
export function prepareCall(tool: PlannedTool, args: unknown, where: GateWhere): PreparedCall {
  let call: PlannedCall
  try {
    call = plannedCall(tool, args)
  } catch (error) {
    return { kind: 'unresolved', reason: (error as Error)?.message ?? String(error), error }
  }
  return { kind: 'resolved', call, decision: decideCall(call, where) }
}

/** Runs one call of a planned tool, when it may run; the outcome says what happened. Throws only what `face.run` throws. */
export async function runPlannedTool(tool: PlannedTool, args: unknown, where: GateWhere, face: RunToolFace): Promise<ToolOutcome> {
  const prepared = face.prepared ?? prepareCall(tool, args, where)
  if (prepared.kind === 'unresolved') return prepared
  const { call, decision } = prepared
  if (decision.kind === 'refuse') return { kind: 'refused', call, reason: decision.reason }
  if (decision.kind === 'ask' && (await face.confirmed(call, decision)) !== true) return { kind: 'unconfirmed', call, ask: decision }
  return { kind: 'ran', call, value: toolValue(call.recipe, await face.run(call)) }
}

/** Characters of each stream the model sees; the whole capture stays in the result value. */
export const RENDER_STREAM_CHARS = 16_000

/** A tool call's result value: the run, where it ran, and which task it was. */
export interface RecipeToolValue extends RunResult {
  /** Working directory, relative to the scan root. */
  cwd: string
  /** The task as the dispatcher names it (`runner:task`). */
  task: string
}

/** A call of a planned tool: the recipe, the call's extra words, and the command line with them quoted. */
export interface PlannedCall {
  recipe: Recipe
  words: string[]
  command: string
}

/**
 * The call a planned tool's arguments make. Throws DispatchError when a dispatcher op names no
 * task (its message lists them), ArgsError when the arguments are not plain words (it says why).
 */
export function plannedCall(tool: PlannedTool, args: unknown): PlannedCall {
  const given = (args ?? {}) as { args?: unknown; op?: unknown }
  if (tool.kind === 'recipe') return callOf(tool.recipe, callWords(given.args))
  // The whole op is words first, so `build; rm -rf src` is refused for its `;`, not as an unknown task `build;`.
  if (typeof given.op === 'string') callWords(given.op)
  const { task, tail } = resolveOp(given.op, dispatchTasks(tool.book))
  return callOf(task.recipe, [...callWords(tail), ...callWords(given.args)])
}

/** A recipe called with these words. */
export function callOf(recipe: Recipe, words: readonly string[]): PlannedCall {
  return { recipe, words: [...words], command: commandWithWords(recipe, words) }
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
