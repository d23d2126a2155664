/**
 * Pure decisions of the kitchen: the task state derived from its files, the model of each run, the
 * tick's plan, and the close verdict. No file system, clock or process table inside: records, the live cooks and `now`
 * come in as arguments.
 */
import { claim } from './texts.js'
import {
  modelName,
  type Dispatched, type FailureCause, type KitchenConfig, type LiveCook, type LiveMap, type LogEvent, type Millis, type Notice,
  type Outcome, type Profile, type RunNo, type RunRecord, type TaskRecord, type TaskState, type TaskView,
  type TaskId, type TaskSpec, type TriedModel,
} from '../domain.js'

export type { LiveCook, LiveMap, Notice, TaskView, TriedModel }

export type DeriveConfig = Pick<KitchenConfig, 'models'>

// ---------------------------------------------------------------- one run

type Verdict =
  | { kind: 'interrupted'; run: RunNo; claimAt?: Millis }
  | { kind: 'final'; run: RunNo; outcome: Outcome; endedAt: Millis; provider?: TriedModel }

interface LogFacts {
  stops: Map<number, Millis>
  launchFailed: Map<number, { at: Millis; reason: string }>
  notified: Set<number>
  /** The last stop or hold, which holds the task until a newer message. */
  hold?: { at: Millis; run: RunNo }
  closed?: { at: Millis; discarded: boolean }
}

function logFacts(log: readonly LogEvent[], claimed: Set<number>): LogFacts {
  const f: LogFacts = { stops: new Map(), launchFailed: new Map(), notified: new Set() }
  for (const e of log) {
    switch (e.type) {
      case 'stop':
        // Kitchens from before `hold` logged a hold as a stop of a run that was never claimed.
        if (claimed.has(e.run)) f.stops.set(e.run, e.at)
        f.hold = { at: e.at, run: e.run }
        break
      case 'hold':
        f.hold = { at: e.at, run: e.run }
        break
      case 'notified':
        f.notified.add(e.run)
        break
      case 'launch_failed':
        f.launchFailed.set(e.run, { at: e.at, reason: e.reason })
        break
      case 'closed':
        f.closed = { at: e.at, discarded: e.discarded }
        break
    }
  }
  return f
}

function joinReason(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p.trim() !== '').join(': ')
}

function verdict(n: RunNo, run: RunRecord | undefined, f: LogFacts, candidate: Profile | undefined): Verdict {
  const lf = f.launchFailed.get(n)
  const failed = (reason: string, cause: FailureCause, endedAt: Millis): Verdict => ({ kind: 'final', run: n, outcome: { kind: 'failed', reason, cause }, endedAt })
  if (!run || !run.claimed) {
    if (lf) return failed(lf.reason, 'launch', lf.at)
    return { kind: 'interrupted', run: n }
  }
  const fold = run.fold
  const output = run.size > 0
  // A run file that can't be read is that run's problem, named, whatever its size says.
  if (fold.readError && fold.settledAt === undefined && !f.stops.has(n)) return failed(joinReason(fold.readError, run.errTail), 'crash', fold.lastAt ?? run.mtimeMs)
  if (!output) {
    // A launch that produced no output: the event, else a non-empty err file, else an interrupted launch.
    if (f.stops.has(n)) return { kind: 'final', run: n, outcome: { kind: 'stopped' }, endedAt: f.stops.get(n)! }
    if (lf) return failed(joinReason(lf.reason, run.errTail), 'launch', lf.at)
    if (run.errSize > 0) return failed(run.errTail || 'the cook exited with no output', 'launch', run.mtimeMs)
    return { kind: 'interrupted', run: n, claimAt: run.mtimeMs }
  }
  // The run has output: a launch_failed event for it is ignored, the run's own outcome wins.
  if (fold.settledAt === undefined) {
    if (f.stops.has(n)) return { kind: 'final', run: n, outcome: { kind: 'stopped' }, endedAt: f.stops.get(n)! }
    const reported = fold.report ? `it had reported ${fold.report.status}: ${fold.report.summary}` : undefined
    return failed(joinReason(fold.readError ?? 'the cook exited before settling', fold.runnerError, reported, run.errTail), 'crash', fold.lastAt ?? run.mtimeMs)
  }
  const endedAt = fold.settledAt
  const r = fold.report
  // A cook that settles because it was stopped (a runner that ends its turn on SIGTERM) was stopped;
  // a report made before the stop still wins.
  if (!r && f.stops.has(n)) return { kind: 'final', run: n, outcome: { kind: 'stopped' }, endedAt: f.stops.get(n)! }
  if (r) {
    const outcome: Outcome =
      r.status === 'done' ? { kind: 'done', summary: r.summary, reported: true }
      : r.status === 'needs_decision' ? { kind: 'needs_decision', question: r.summary }
      : r.status === 'blocked' ? { kind: 'blocked', reason: r.summary }
      : { kind: 'failed', reason: r.summary, cause: 'report' }
    return { kind: 'final', run: n, outcome, endedAt }
  }
  if (fold.providerError !== undefined) {
    const model = fold.model ? modelName(fold.model) : candidate?.model ?? 'the default model'
    return { ...failed(fold.providerError, 'provider', endedAt), provider: { run: n, model, error: fold.providerError } } as Verdict
  }
  return { kind: 'final', run: n, outcome: { kind: 'done', summary: fold.lastText || 'the cook ended without a report or a final message', reported: false }, endedAt }
}

// ---------------------------------------------------------------- one task

/**
 * Derives a task's state. `live` is its cook process when the owner knows one. With no frozen
 * candidates, `config.models.default` of this moment gives the model.
 */
export function deriveTask(record: TaskRecord, live: LiveCook | undefined, now: Millis, config: DeriveConfig): TaskView {
  const { spec } = record
  const claimed = new Set<number>()
  const runs = new Map<number, RunRecord>()
  let last = 0
  for (const r of record.runs) {
    runs.set(r.n, r)
    if (r.claimed) claimed.add(r.n)
    if (r.n > last) last = r.n
  }
  const f = logFacts(record.log, claimed)
  for (const n of f.launchFailed.keys()) if (n > last) last = n

  // Walk the runs in order: verdicts, provider failures, and each run's candidate.
  const candidates = spec.models
  const fallbackList = candidates.length > 0 ? candidates : config.models.default.slice(0, 1)
  let providerFailures = 0
  const candidateOf = (failuresBefore: number): Profile | undefined =>
    fallbackList.length === 0 ? undefined : fallbackList[Math.min(failuresBefore, fallbackList.length - 1)]
  const verdicts: Verdict[] = []
  const tried: TriedModel[] = []
  let lastNotified = 0
  for (const n of f.notified) if (n > lastNotified) lastNotified = n
  for (let n = 1; n <= last; n++) {
    if (!runs.has(n) && !f.launchFailed.has(n)) continue
    const cand = candidateOf(providerFailures)
    const v = verdict(n as RunNo, runs.get(n), f, cand)
    verdicts.push(v)
    if (v.kind === 'final' && v.provider) {
      providerFailures++
      if (n > lastNotified) tried.push(v.provider)
    }
  }
  const lastV = verdicts.at(-1)
  const pending = record.inbox.length
  const modelOf = (n: number, cand: Profile | undefined) => {
    const fold = runs.get(n)?.fold
    return fold?.model ? modelName(fold.model) : cand?.model
  }
  /** The candidate of run `n`: its index is the number of earlier provider failures, the last stays. */
  const candidateForRun = (n: number): Profile | undefined =>
    candidateOf(verdicts.filter((v) => v.run < n && v.kind === 'final' && v.provider).length)
  const view = (state: TaskState, nextRun: number): TaskView => {
    const candidate = candidateForRun(nextRun)
    // The model shown: the next run's while queued, else the run's own (from its file, else its candidate).
    const shown = state.kind === 'queued' ? candidate?.model
      : state.kind === 'closed' || state.run === undefined ? undefined
      : modelOf(state.run, candidateForRun(state.run))
    const out: TaskView = { id: spec.id, spec, state, nextRun: nextRun as RunNo, pending, tried }
    if (candidate) out.candidate = candidate
    if (shown !== undefined) out.model = shown
    if (live) out.live = live
    return out
  }

  if (f.closed) return view({ kind: 'closed', at: f.closed.at, discarded: f.closed.discarded }, last + 1)

  // A run file not read to its end yet says nothing final: the task stays in flight (no notice, no
  // launch) until the kitchen has caught up with it, a few ticks for a very large file.
  const reading = record.runs.find((r) => r.partial)
  if (reading && !live) {
    const since = reading.fold.startedAt ?? reading.mtimeMs
    return view({ kind: 'cooking', run: reading.n, since, activity: { text: 'the kitchen is still reading its run file', since } }, last + 1)
  }

  if (live) {
    const r = runs.get(live.run)
    if (!r || r.fold.settledAt === undefined) {
      const since = r?.fold.startedAt ?? r?.mtimeMs ?? now
      return view({ kind: 'cooking', run: live.run, since, activity: r?.fold.activity ?? { text: 'starting', since } }, live.run)
    }
    // A settled cook that is still exiting: the task derives from its files; the plan waits for the exit.
  }

  const hold = f.hold && f.hold.run >= last ? f.hold : undefined
  // A message written in the same millisecond as the stop or hold counts as newer: the event came first.
  const newerThanHold = hold ? record.inbox.filter((m) => m.at >= hold.at).length : pending

  if (!lastV) {
    if (hold && newerThanHold === 0) return view({ kind: 'idle', run: undefined, since: hold.at, outcome: { kind: 'stopped' } }, 1)
    return view({ kind: 'queued', why: 'new' }, 1)
  }

  if (lastV.kind === 'interrupted') {
    if (hold && newerThanHold === 0) {
      const prev = [...verdicts].reverse().find((v) => v.kind === 'final')
      return view({ kind: 'idle', run: prev?.run, since: hold.at, outcome: { kind: 'stopped' } }, lastV.run)
    }
    return view({ kind: 'queued', why: 'interrupted-launch' }, lastV.run)
  }

  const { outcome, endedAt } = lastV
  const idle = (o: Outcome): TaskView => {
    const v = view({ kind: 'idle', run: lastV.run, since: endedAt, outcome: o }, lastV.run + 1)
    if (o.kind !== 'stopped' && !f.notified.has(lastV.run)) {
      const ran = ranOf(runs.get(lastV.run)?.fold)
      v.notice = { task: spec.id, title: spec.title, run: lastV.run, outcome: o, tried, ...(v.model ? { model: v.model } : {}), ...(ran ? { ran } : {}) }
    }
    return v
  }
  if (hold) {
    if (newerThanHold > 0) return view({ kind: 'queued', why: 'message' }, last + 1)
    // A stop of this run ended it as stopped; a hold of the next run keeps this run's outcome but holds
    // the task, which derives as stopped because nothing will run.
    if (hold.run > lastV.run) return view({ kind: 'idle', run: lastV.run, since: hold.at, outcome: { kind: 'stopped' } }, last + 1)
    return idle(outcome)
  }
  if (outcome.kind === 'failed' && outcome.cause === 'provider' && providerFailures < candidates.length) {
    return view({ kind: 'queued', why: 'fallback' }, last + 1)
  }
  const lf = outcome.kind === 'failed' && outcome.cause === 'launch' ? f.launchFailed.get(lastV.run) : undefined
  // After a launch failure only a message newer than the failure retries, else the launch would loop.
  const resuming = lf ? record.inbox.filter((m) => m.at > lf.at).length : pending
  if (resuming > 0) return view({ kind: 'queued', why: 'message' }, last + 1)
  return idle(outcome)
}

/** The tool calls of a run as its notice carries them; undefined for a run that ran none. */
function ranOf(fold: RunRecord['fold'] | undefined): Notice['ran'] {
  if (!fold?.toolCalls) return undefined
  return { toolCalls: fold.toolCalls, failedCalls: fold.failedCalls ?? 0, calls: fold.calls ?? [] }
}

/** Whether any run of the task has delivered the brief (a user message reached the session). */
export function briefDelivered(record: TaskRecord): boolean {
  return record.runs.some((r) => r.fold.prompted)
}

// ---------------------------------------------------------------- the tick's plan

export type PromptKind = 'brief' | 'messages' | 'existing' | 'fallback'

export type Action =
  /**
   * Launch `run`: write its prompt (`brief`: the brief plus pending messages; `messages`: only the
   * messages; `existing`: the prompt file of an interrupted launch, plus newer messages; `fallback`:
   * the fallback prompt), claim, spawn on `candidate`.
   */
  | {
    kind: 'launch'
    task: TaskId
    run: RunNo
    prompt: PromptKind
    why: 'new' | 'message' | 'interrupted-launch' | 'fallback'
    candidate?: Profile
    fallback?: { failed: TriedModel; next?: Profile }
  }
  /** Unlink the empty claim of `run` (older than reclaimAfterMs), before the launch of the same run. */
  | { kind: 'reclaim'; task: TaskId; run: RunNo }
  /** Signal the cook's process group: `stop` escalates a stop, `stuck` ends a settled cook that lingers. */
  | { kind: 'signal'; task: TaskId; pid: number; run: RunNo; signal: 'SIGTERM' | 'SIGKILL'; why: 'stop' | 'stuck' }
  | { kind: 'remove-worktree'; task: TaskId }
  | { kind: 'notify'; task: TaskId; run: RunNo; notice: Notice }

export interface Plan {
  views: TaskView[]
  actions: Action[]
  /** Cook slots in use after the plan: live cooks, fresh claims of other owners, and the launches. */
  busy: number
  cap: number
}

export type PlanConfig = Pick<KitchenConfig, 'models' | 'maxCooks' | 'reclaimAfterMs' | 'exitGraceMs' | 'killGraceMs'>

const QUEUE_ORDER = { 'interrupted-launch': 0, fallback: 1, message: 2, new: 3 } as const

/**
 * The tick's decisions. Every action is idempotent for the owner that runs it: a launch claims with
 * O_EXCL, a signal re-checks the cook's identity, a worktree removal accepts a missing path, a notice
 * dedupes by task and run. Launches fill the free slots up to `config.maxCooks`: interrupted launches
 * first (they held a slot), then fallbacks, then messages, then new tasks, each oldest first.
 */
export function plan(records: readonly TaskRecord[], live: LiveMap, now: Millis, config: PlanConfig): Plan {
  const views: TaskView[] = []
  const actions: Action[] = []
  const queued: { view: TaskView; record: TaskRecord; order: number }[] = []
  let busy = live.size
  for (const record of records) {
    const cook = live.get(record.id)
    const view = deriveTask(record, cook, now, config)
    views.push(view)
    const s = view.state
    if (s.kind === 'closed') {
      if (record.worktreeExists) actions.push({ kind: 'remove-worktree', task: view.id })
      continue
    }
    if (cook) {
      const run = record.runs.find((r) => r.n === cook.run)
      const stopAt = record.log.findLast((e) => e.type === 'stop' && e.run === cook.run)?.at
      if (run?.fold.settledAt !== undefined) {
        const quiet = now - (run.fold.lastAt ?? run.fold.settledAt)
        if (quiet >= config.exitGraceMs + config.killGraceMs) {
          actions.push({ kind: 'signal', task: view.id, pid: cook.pid, run: cook.run, signal: 'SIGKILL', why: 'stuck' })
        } else if (quiet >= config.exitGraceMs) {
          actions.push({ kind: 'signal', task: view.id, pid: cook.pid, run: cook.run, signal: 'SIGTERM', why: 'stuck' })
        }
      } else if (stopAt !== undefined && now - stopAt >= config.killGraceMs) {
        actions.push({ kind: 'signal', task: view.id, pid: cook.pid, run: cook.run, signal: 'SIGKILL', why: 'stop' })
      }
    }
    if (s.kind === 'queued' && !cook) {
      const claim = s.why === 'interrupted-launch' ? record.runs.find((r) => r.n === view.nextRun && r.claimed) : undefined
      // A fresh empty claim may be another owner's launch in flight: it holds a slot, and waits.
      if (claim && now - claim.mtimeMs < config.reclaimAfterMs) busy++
      else queued.push({ view, record, order: QUEUE_ORDER[s.why] })
    }
    if (s.kind === 'idle' && view.notice) actions.push({ kind: 'notify', task: view.id, run: view.notice.run, notice: view.notice })
  }
  queued.sort((a, b) => a.order - b.order || (a.view.spec.createdAt ?? 0) - (b.view.spec.createdAt ?? 0))
  for (const { view, record } of queued) {
    if (busy >= config.maxCooks) break
    busy++
    const why = (view.state as { why: 'new' | 'message' | 'interrupted-launch' | 'fallback' }).why
    const run = record.runs.find((r) => r.n === view.nextRun)
    if (why === 'interrupted-launch' && run?.claimed) actions.push({ kind: 'reclaim', task: view.id, run: view.nextRun })
    const prompt: PromptKind = why === 'fallback' ? 'fallback'
      : why === 'interrupted-launch' && run?.hasPrompt ? 'existing'
      : briefDelivered(record) ? 'messages' : 'brief'
    const launch: Action = { kind: 'launch', task: view.id, run: view.nextRun, prompt, why }
    if (view.candidate) launch.candidate = view.candidate
    if (why === 'fallback' && view.tried.length > 0) {
      launch.fallback = view.candidate ? { failed: view.tried.at(-1)!, next: view.candidate } : { failed: view.tried.at(-1)! }
    }
    actions.push(launch)
  }
  return { views, actions, busy, cap: config.maxCooks }
}

// ---------------------------------------------------------------- close

/** Git facts about a task's worktree and branch, computed by the caller for close (never on the tick). */
export interface CloseFacts {
  worktreeExists: boolean
  /** Uncommitted or untracked changes in the worktree. */
  dirty: boolean
  /** Commits on the task branch that the base branch does not have. */
  ahead: number
  /** The branch tip is an ancestor of the base branch, of a remote-tracking ref (as of the last fetch), or neither. */
  landed: 'base' | 'remote' | false
  /** The worktree's HEAD is the task branch (not detached, not another branch, no rebase in progress). */
  onBranch: boolean
  /** What HEAD is instead, for the message: `detached at 1a2b3c4`, `branch main`, `a rebase in progress`. */
  head?: string
  /** A few of the uncommitted changes, for the message. */
  changes?: readonly string[]
  /**
   * Why the clone's branch was not brought back into the project (its history was rewritten since
   * the kitchen reported it, or git refused): closing would lose what only the clone holds.
   */
  notBack?: string
}

export type CloseVerdict =
  | { ok: true; deleteBranch: boolean }
  | { ok: false; code: 'KITCHEN_TASK_CLOSED' | 'KITCHEN_CLOSE_REFUSED'; reasons: string[]; message: string }

/**
 * Whether `chef_close` may close the task. Unless `discard`: a task queued with an undelivered
 * message, a dirty worktree, commits on neither the base branch nor a remote-tracking ref, and a
 * worktree whose HEAD is not the task branch are refused. A cooking task is refused even with
 * `discard`: its cook would keep writing into a removed worktree, so it is stopped first. The branch
 * is deleted only when it landed on the base branch, or when discarding. Messages use the branch
 * stored in task.json, never the project's current prefix.
 */
export function closeVerdict(view: TaskView, facts: CloseFacts, discard: boolean): CloseVerdict {
  const { id, spec } = view
  const branch = spec.branch
  if (view.state.kind === 'closed') return { ok: false, code: 'KITCHEN_TASK_CLOSED', reasons: ['closed'], message: `${id} is already closed` }
  if (view.state.kind === 'cooking' || view.live) {
    const r = `${id} is cooking; stop it with chef_stop ${id}, then close it`
    return { ok: false, code: 'KITCHEN_CLOSE_REFUSED', reasons: [r], message: r }
  }
  if (discard) return { ok: true, deleteBranch: true }
  const reasons: string[] = []
  if (view.state.kind === 'queued' && view.pending > 0) {
    reasons.push(`${id} has ${view.pending} undelivered message${view.pending === 1 ? '' : 's'}; let the cook take ${view.pending === 1 ? 'it' : 'them'}`)
  }
  if (facts.worktreeExists && facts.dirty) {
    const which = facts.changes && facts.changes.length > 0 ? ` (${facts.changes.slice(0, 5).map((c) => claim(c, 80)).join(', ')})` : ''
    reasons.push(`the clone of ${id} has uncommitted changes${which} on ${branch}; commit them there`)
  }
  if (facts.worktreeExists && !facts.onBranch) reasons.push(`the clone of ${id} is not on its branch ${branch} (HEAD: ${claim(facts.head ?? 'elsewhere', 80)}), so commits made there would be lost; check out ${branch} there`)
  if (facts.notBack) reasons.push(`${claim(facts.notBack, 300)}, so the clone holds work the project does not`)
  if (facts.landed === false) {
    reasons.push(`branch ${branch} has ${facts.ahead} commit${facts.ahead === 1 ? '' : 's'} on neither ${spec.baseBranch} nor a remote-tracking branch; merge or push ${branch}`)
  }
  if (reasons.length > 0) {
    return { ok: false, code: 'KITCHEN_CLOSE_REFUSED', reasons, message: `${id} is not closed: ${reasons.join('; ')}. Or close it with discard: true to drop the work.` }
  }
  return { ok: true, deleteBranch: facts.landed === 'base' }
}

/** Where a task stands right after its dispatch, from its view after the dispatch's tick. */
export function dispatched(spec: TaskSpec, v: TaskView | undefined): Dispatched {
  const base = { task: spec.id, branch: spec.branch }
  const s = v?.state
  if (s?.kind === 'cooking') return { ...base, state: 'cooking', run: s.run }
  if (s?.kind === 'idle' && s.outcome.kind === 'failed' && s.outcome.cause === 'launch') return { ...base, state: 'failed', reason: s.outcome.reason }
  // A quick cook can end before the dispatch's tick reads the kitchen again: its run was launched.
  if (s?.kind === 'idle' && s.run !== undefined) return { ...base, state: 'cooking', run: s.run }
  if (s?.kind === 'queued') return { ...base, state: 'queued' }
  return { ...base, state: 'idle' }
}
