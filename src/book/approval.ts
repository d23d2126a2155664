/**
 * Which call runs at once, which asks a person first, and which is refused: the one decision that
 * every face maps to its own way of asking (the dsh face to dsh's approval prompt, the MCP server
 * to `"confirm": true`). Harness-free: what a person is asked and what a refusal says are text here;
 * how a person is reached stays in the face.
 *
 * The kinds of call:
 * - a discovered command called with words (a planned tool, a dispatcher op): `decideCall`. A
 *   runner that is not installed refuses it, confirmed or not; the destructive gate (book/risk
 *   `judgeRecipeCall`) judges the call with its words, and a destructive one asks.
 * - a command line of its own (dsh's `bash`): `decideShellCommand`, judged by `judgeCommand` where the
 *   line runs (it follows a recipe the line invokes by its runner command).
 * - a curated recipe run: curated/confirm.ts `decideRecipeRun` returns this module's Decision. Its
 *   rule reads the recipe's declared risk and mark, which are the curated layer's own schema (that
 *   layer sits above the book); the validator holds the declared risk to what the commands do.
 *
 * The plan's word (a tool's description says it asks, the dispatcher marks a task) is the same gate
 * on a call without words, judged once per book (`plannedVerdict`); the call is judged again when
 * it is made. A judgement that fails asks rather than running unjudged (`guardedJudgement`).
 */
import { missingRunnerRefusal } from './runners.js'
import type { Recipe } from './recipe.js'
import type { RecipeBook } from './recipe-book.js'
import { judgeCommand, judgeRecipeCall, sharedReading, type SharedReading, type Verdict } from './risk/index.js'

/** Why a call needs a person's yes, in parts each face words its own way. */
export interface ApprovalNeed {
  /** The command line that would run. */
  command: string
  /** What it does and why that needs a yes, as one clause (`` `rm -rf src` deletes `src`, which git tracks ``). */
  reason: string
  /** Why it is gated, when that is not "it is destructive" (a curated recipe of risk medium). */
  why?: string
  /** The question for the person, when it is worded apart from `reason`. */
  ask?: string
}

/** Runs without asking. */
export interface RunDecision {
  readonly kind: 'run'
}

/** Runs only with a person's yes for this very call. */
export interface AskDecision {
  readonly kind: 'ask'
  readonly need: ApprovalNeed
  /** What a face that takes the yes as an argument of the call (MCP's `"confirm": true`) answers without it. */
  readonly confirmRefusal: string
}

/** Never runs, confirmed or not (its runner is not installed): `reason` says why and what to do. */
export interface RefuseDecision {
  readonly kind: 'refuse'
  readonly reason: string
}

export type Decision = RunDecision | AskDecision | RefuseDecision

export const RUN: RunDecision = Object.freeze({ kind: 'run' })

/** Where a call is judged: the scan root, and the book, so that a body that calls another recipe is followed. */
export interface GateWhere {
  readonly root: string
  readonly book?: RecipeBook
}

/** A discovered command called with words (exposure.ts `PlannedCall`). */
export interface CommandCall {
  readonly recipe: Recipe
  readonly words: readonly string[]
  /** The command line with the words quoted onto it. */
  readonly command: string
}

/** A discovered command's call: refused when its runner is missing, asks when the gate judges it destructive, else runs. */
export function decideCall(call: CommandCall, where: GateWhere, env: NodeJS.ProcessEnv = process.env): Decision {
  // A runner that is not installed can't run it, confirmed or not: no person is asked about it.
  const missing = missingRunnerRefusal(call.recipe, call.command, env)
  if (missing) return { kind: 'refuse', reason: missing }
  // Judged now, with this call's words: words can make a harmless tool destructive (`make clean DIR=src`).
  return verdictDecision(call.command, callVerdict(call, where.root, where.book))
}

/** A command line of its own (dsh's `bash`), run in `cwd`: asks when the gate judges it destructive. */
export function decideShellCommand(command: string, where: GateWhere & { readonly cwd?: string }): Decision {
  if (command.trim() === '') return RUN
  return verdictDecision(command, guardedJudgement(() => judgeCommand(command, where)))
}

/** The decision a verdict makes for a command line: a destructive one asks, with the gate's reason. */
export function verdictDecision(command: string, verdict: Verdict): Decision {
  if (!verdict.destructive) return RUN
  const reason = reasonClause(verdict)
  return {
    kind: 'ask',
    // The person is told the command line and the gate's reason (which names the line and the word).
    need: { command, reason, ask: `\`${command}\` needs your approval: ${reason}.` },
    confirmRefusal: [
      `Not run: \`${command}\` needs a person's yes: ${reason}.`,
      'To run it, ask the user, and call again with "confirm": true once they agreed. Do not look for another way around this check.',
    ].join('\n'),
  }
}

/** The gate's verdict on this very call, judged now (manifests and scripts are read again). */
export function callVerdict(call: CommandCall, root: string, book?: RecipeBook): Verdict {
  return guardedJudgement(() => judgeRecipeCall(call.recipe, call.words, book ? { root, book } : { root }))
}

/**
 * A judgement that fails closed: the gate never throws on bad input, but should it fail, the call
 * asks a person rather than running unjudged, and the reason says so.
 */
export function guardedJudgement(judge: () => Verdict): Verdict {
  try {
    return judge()
  } catch (error) {
    const reason = `what it runs could not be judged (${(error as Error)?.message ?? error}), so it asks first`
    return { destructive: true, findings: [{ command: '', reason, kind: 'unknown' }], reason }
  }
}

/** Said when a destructive verdict comes without a reason (the gate always gives one). */
const UNSAID_REASON = 'it may delete, overwrite, publish or deploy something that can\'t be undone'

/** The gate's reason as one clause to go after a colon: its closing period dropped. */
export function reasonClause(verdict: Pick<Verdict, 'reason'>): string {
  return (verdict.reason ?? UNSAID_REASON).trim().replace(/\.$/, '')
}

// ---------------------------------------------------------------------------------------------
// The plan's word: each offered recipe judged without words, once per book, for its description.

/** Verdicts of the plan, per book and recipe: the judge reads manifests, and a plan is made on every book change. */
const planVerdicts = new WeakMap<RecipeBook, Map<string, Verdict>>()

/** Path facts (git's tracked files, .gitignore rules) one book's plan shares across its judgements. */
const planReadings = new WeakMap<RecipeBook, SharedReading>()

/**
 * Shell lines one plan may judge (each body line, nested shell and script counts one). A body is
 * read from its manifests, and a plan is made when a session starts: a package script is a few
 * lines, one target of a 4,000-line Makefile can be 1,300. Past this, the rest of the tools are
 * described without the gate's word, and each call is judged when it is made, as every call is.
 * Counted in lines rather than time, so that the same book always gets the same plan.
 */
export const PLAN_JUDGING_LINES = 4_000

/** Said of a tool the plan had no time to judge: the call is judged when it is made. */
export const UNJUDGED: Verdict = Object.freeze({ destructive: false, findings: [], unjudged: true })

/** The gate's verdict on a recipe called without words, remembered for as long as this book lives; undefined once the plan's work is spent. */
export function plannedVerdict(book: RecipeBook, recipe: Recipe, root: string, bounded = false): Verdict | undefined {
  let verdicts = planVerdicts.get(book)
  if (!verdicts) planVerdicts.set(book, (verdicts = new Map()))
  let verdict = verdicts.get(recipe.id)
  const shared = planReadings.get(book) ?? sharedReading()
  planReadings.set(book, shared)
  if (verdict || (bounded && shared.lines >= PLAN_JUDGING_LINES)) return verdict
  verdicts.set(recipe.id, (verdict = guardedJudgement(() => judgeRecipeCall(recipe, [], { root, book, shared }))))
  return verdict
}
