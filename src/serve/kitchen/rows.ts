/**
 * One task as the board shows it: the kitchen's derived view (derive's `deriveTask`) folded into
 * the six states a person reads (waiting, cooking, needs a decision, done, failed, closed), its
 * cook's model and the fallbacks its runs went through, its branch and commits ahead, the last
 * entries of its current run, and its verify result. Pure: the record, the view, the run's tail and
 * the branch facts come in. Texts are kept raw here; `jsonRow` escapes them for the API and the
 * pages mark them (text.ts), so each reader gets the cook's words made safe its own way.
 */
import { visible, visibleLine } from '../../base/visible-text.js'
import { modelName, type Outcome, type TaskRecord, type TaskView } from '../../kitchen/domain.js'
import type { RunEntry } from './run-lines.js'

export const BOARD_STATES = ['waiting', 'cooking', 'needs_decision', 'done', 'failed', 'closed'] as const
export type BoardState = (typeof BOARD_STATES)[number]

export const STATE_LABEL: Record<BoardState, string> = {
  waiting: 'Waiting', cooking: 'Cooking', needs_decision: 'Needs a decision', done: 'Done', failed: 'Failed', closed: 'Closed',
}

/** What git says of a task's branch (git-read.ts); every field optional: not known yet, or not there. */
export interface BranchFacts {
  tip?: string
  /** Where the tip was read: the cook's clone (newer than the project's until the kitchen brings it back), or the project. */
  source?: 'clone' | 'project'
  baseTip?: string
  ahead?: number
  /** Why the facts could not be read (the project is not registered, git failed). */
  problem?: string
}

export interface Fallback {
  run: number
  model: string
  error: string
}

/** A verify result as the kitchen records it: the task's last `verified` event (chef_result's verify, the merge queue's test). */
export interface VerifyResult {
  passed: boolean
  command: string
  at: number
}

export interface TaskRow {
  id: string
  title: string
  project: string
  state: BoardState
  /** What the state is about, in the kitchen's words and the cook's (an activity, a summary, a question). */
  detail: string
  since: number | null
  /** The model of the current or last run (the next one's while waiting). */
  model: string | null
  /** The task's candidates in order: the first is the task's model, the rest its fallbacks. */
  models: string[]
  /** Runs that ended on a provider error, oldest first: the fallbacks the task went through. */
  fallbacks: Fallback[]
  branch: string
  baseBranch: string
  ahead: number | null
  tip: string | null
  tipSource: 'clone' | 'project' | null
  /** Why git could not say (the project is not registered, its base branch is gone, git failed). */
  branchProblem: string | null
  /** The current (last claimed) run and its last entries. */
  run: number | null
  lines: RunEntry[]
  verify: VerifyResult | null
  /** Messages waiting for the cook. */
  pending: number
  createdAt: number | null
  /** A cook process of this task is running (seen by its stdout on the run file). */
  live: boolean
}

/** The six board states from the kitchen's derived state. A stopped task waits for a message. */
export function boardState(view: TaskView): BoardState {
  const s = view.state
  if (s.kind === 'queued') return 'waiting'
  if (s.kind === 'cooking') return 'cooking'
  if (s.kind === 'closed') return 'closed'
  switch (s.outcome.kind) {
    case 'done': return 'done'
    case 'needs_decision':
    case 'blocked': return 'needs_decision'
    case 'failed': return 'failed'
    case 'stopped': return 'waiting'
  }
}

const QUEUED: Record<string, string> = {
  new: 'queued for a cook', message: 'queued: a message relaunches it', 'interrupted-launch': 'queued: its launch was interrupted and is made again',
  fallback: 'queued: the next model takes over after a provider error',
}

function outcomeDetail(o: Outcome): string {
  switch (o.kind) {
    case 'done': return o.reported ? o.summary : `ended without a report: ${o.summary}`
    case 'needs_decision': return o.question
    case 'blocked': return `blocked: ${o.reason}`
    case 'failed': return `failed (${o.cause}): ${o.reason}`
    case 'stopped': return 'stopped; a message (/chef send) starts it again'
  }
}

/** The detail line of a state, raw; no duration in it (the page shows `since`), so it changes only when the task does. */
export function stateDetail(view: TaskView): string {
  const s = view.state
  switch (s.kind) {
    case 'queued': return QUEUED[s.why] ?? `queued (${s.why})`
    case 'cooking': return s.activity.text
    case 'idle': return outcomeDetail(s.outcome)
    case 'closed': return s.discarded ? 'closed, its work discarded' : 'closed'
  }
}

function fallbacksOf(rec: TaskRecord): Fallback[] {
  const out: Fallback[] = []
  for (const r of rec.runs) {
    if (r.fold.providerError !== undefined && r.fold.settledAt !== undefined) {
      out.push({ run: r.n, model: r.fold.model ? modelName(r.fold.model) : 'an unknown model', error: r.fold.providerError })
    }
  }
  return out
}

/** The last claimed run of a task, or undefined before its first launch. */
export function currentRun(rec: TaskRecord): number | undefined {
  for (let i = rec.runs.length - 1; i >= 0; i--) if (rec.runs[i]!.claimed) return rec.runs[i]!.n
  return undefined
}

function sinceOf(view: TaskView): number | null {
  const s = view.state
  if (s.kind === 'cooking' || s.kind === 'idle') return s.since
  if (s.kind === 'closed') return s.at
  return view.spec.createdAt ?? null
}

export function taskRow(rec: TaskRecord, view: TaskView, lines: readonly RunEntry[], facts: BranchFacts): TaskRow {
  const spec = rec.spec
  return {
    id: spec.id, title: spec.title, project: spec.project, state: boardState(view), detail: stateDetail(view), since: sinceOf(view),
    model: view.model ?? null, models: spec.models.map((p) => p.model), fallbacks: fallbacksOf(rec),
    branch: spec.branch, baseBranch: spec.baseBranch,
    ahead: facts.ahead ?? null, tip: facts.tip ?? null, tipSource: facts.source ?? null, branchProblem: facts.problem ?? null,
    run: currentRun(rec) ?? null, lines: [...lines], verify: lastVerify(rec), pending: view.pending, createdAt: spec.createdAt ?? null,
    live: view.live !== undefined,
  }
}

/** The task's last `verified` event, as the row shows it; null before the chef verified it. */
export function lastVerify(rec: TaskRecord): VerifyResult | null {
  for (let i = rec.log.length - 1; i >= 0; i--) {
    const e = rec.log[i]!
    if (e.type === 'verified') return { passed: e.passed, command: e.command, at: e.at }
  }
  return null
}

/** Open tasks first, then the newest first: what a person looks for on a busy board. */
export function byBoardOrder(a: TaskRow, b: TaskRow): number {
  const closed = Number(a.state === 'closed') - Number(b.state === 'closed')
  if (closed !== 0) return closed
  const age = (b.createdAt ?? 0) - (a.createdAt ?? 0)
  return age !== 0 ? age : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/** An entry with its text escaped for JSON readers (a terminal, a log): control and bidi characters shown. */
export function jsonEntry(e: RunEntry): RunEntry {
  return { ...e, text: visible(e.text) }
}

/** The row for the API: every text a cook, a model or a person wrote has its control and bidi characters escaped. */
export function jsonRow(row: TaskRow): TaskRow {
  return {
    ...row,
    title: visibleLine(row.title), detail: visible(row.detail), model: row.model === null ? null : visibleLine(row.model),
    models: row.models.map(visibleLine), fallbacks: row.fallbacks.map((f) => ({ ...f, model: visibleLine(f.model), error: visible(f.error) })),
    branch: visibleLine(row.branch), baseBranch: visibleLine(row.baseBranch), lines: row.lines.map(jsonEntry),
    branchProblem: row.branchProblem === null ? null : visible(row.branchProblem),
    verify: row.verify && { ...row.verify, command: visibleLine(row.verify.command) },
  }
}
