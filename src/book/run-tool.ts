/**
 * The run of a planned tool's call, written once for every face (the dsh tools, the MCP server):
 *
 *   resolve   the call's words and, for the dispatcher, its op (exposure.ts `plannedCall`)
 *   decide    approval.ts `decideCall`: a missing runner refuses, a destructive call asks
 *   confirm   the person's yes the face got for this very call (dsh's approval prompt, MCP's `confirm: true`)
 *   run       the face's way (the harness shell, runCommand)
 *   value     what the model reads back (exposure.ts `toolValue`)
 *
 * Harness-free: the face injects how to run and whether the call was confirmed, and words the
 * outcome its own way. A face that asks before the tool's body runs (dsh's `tools/pre-execute`)
 * prepares the call there (`prepareCall`) and hands that preparation in, so a call is resolved and
 * judged once.
 */
import { decideCall, type AskDecision, type Decision, type GateWhere } from './approval.js'
import type { RunResult } from './execute.js'
import { plannedCall, toolValue, type PlannedCall, type PlannedTool, type RecipeToolValue } from './exposure.js'

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
