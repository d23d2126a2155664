/**
 * Every text the kitchen writes: wake lines (with what the kitchen saw beside a cook's claim), the
 * restart prefix, the board and the widget, the integration snapshot, the answers of add project,
 * dispatch, send, stop, result (and its first line when something failed) and close, the lease's
 * refusals, the chef's `/chef` answers, a project's commands, verify's lines, the cook prompts, the
 * merge queue's lines, the open tasks' overlapping changes, and result's diff.
 * Pure functions of derived views and facts; a few lines with pointers, never dumps.
 *
 * What a cook wrote (its summary, question, activity, commit subjects, file names, error output)
 * and what the chef's model wrote (titles, notes) is data, never one of the kitchen's own lines: it
 * is folded to one line, cut to a length and has its control and bidi characters escaped
 * (`claim`) wherever it sits inside a line, and in the answer of result it comes after the
 * kitchen's own facts, marked as the cook's words. So no summary can forge a line like "Branch ...:
 * 3 commits ahead, landed" or "Verify ... passed", and no ESC or OSC sequence reaches a terminal.
 */
import { formatsSentence } from '../../base/collector-table.js'
import { shellWord } from '../../base/quote.js'
import { visible, visibleLine } from '../../base/visible-text.js'
import type { MergeEnd, MergeEntry, Overlap } from '../merge-queue.js'
import {
  oneLine,
  type BrokenTask, type Dispatched, type Lease, type Millis, type Notice, type Outcome, type ProjectSpec, type SendResult, type Standing,
  type StopResult, type TaskView, type TriedModel,
} from '../domain.js'

export { oneLine }

/** Text from outside the kitchen inside one of its lines: whitespace folded, cut to `max`, escaped. */
export function claim(text: string, max: number): string {
  return visibleLine(oneLine(text, max))
}

/** A kitchen path or name shown in a line: escaped only (it may hold what a person named). */
function shown(text: string): string {
  return visibleLine(text)
}

/** Ends a clause with a period unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}

function triedList(tried: readonly TriedModel[]): string {
  return tried.map((t) => `${claim(t.model, 120)} (${claim(t.error, 160)})`).join('; ')
}

/** One wake line per notice, as the chef reads it. */
export function noticeLine(n: Notice): string {
  const head = `- ${n.task} "${claim(n.title, 80)}"`
  const o = n.outcome
  const fellBack = n.tried.length > 0 && !(o.kind === 'failed' && o.cause === 'provider')
    ? ` It fell back to ${n.model ? claim(n.model, 120) : 'the default model'} after ${n.tried.length === 1 ? 'a provider error' : 'provider errors'} on ${triedList(n.tried)}.`
    : ''
  switch (o.kind) {
    case 'done': {
      const saw = sawText(n)
      // "is done" is the kitchen's word only when what it saw does not say otherwise.
      const verb = o.reported ? (saw.doubt ? 'says it is done' : 'is done') : 'finished without a report'
      return `${head} ${verb}: ${sentence(claim(o.summary, 400))}${saw.text}${fellBack} Review with chef_result ${n.task}.`
    }
    case 'needs_decision':
      return `${head} needs a decision: ${claim(o.question, 400)}${fellBack} Answer with chef_send ${n.task}.`
    case 'blocked':
      return `${head} is blocked: ${sentence(claim(o.reason, 400))}${fellBack} Unblock it with chef_send ${n.task}.`
    case 'failed':
      switch (o.cause) {
        case 'provider':
          return n.tried.length > 1
            ? `${head} failed with a provider error on every candidate model: ${triedList(n.tried)}. chef_send ${n.task} to retry on ${n.model ?? n.tried.at(-1)!.model}, or tell the human.`
            : `${head} failed with a provider error on ${n.model ?? 'the default model'} (${claim(o.reason, 160)}). chef_send ${n.task} to retry, or tell the human.`
        case 'launch':
          return `${head} failed to launch: ${sentence(claim(o.reason, 300))} chef_send ${n.task} to retry.`
        case 'crash':
          return `${head} failed: ${sentence(claim(o.reason, 300))}${fellBack} chef_send ${n.task} to retry, or review with chef_result ${n.task}.`
        case 'report':
          return `${head} failed: ${sentence(claim(o.reason, 400))}${fellBack} Review with chef_result ${n.task}.`
      }
  }
}

/**
 * What the kitchen saw of a finished run, beside the cook's claim: the commits on its branch, the
 * project's test command among its last tool calls, and the tool calls that failed. `doubt` when a
 * fact says the work is not done: no commits, the test failed or was not run, or (with no test
 * command known) its last tool call failed.
 */
export function sawText(n: Pick<Notice, 'ran' | 'seen'>): { text: string; doubt: boolean } {
  const facts: string[] = []
  let doubt = false
  const { seen, ran } = n
  const calls = ran?.calls ?? []
  if (seen?.commits === 'none') {
    facts.push(`no commits on ${shown(seen.branch)}`)
    doubt = true
  } else if (seen?.commits === 'some') facts.push(`new commits on ${shown(seen.branch)}`)
  if (seen?.test) {
    const test = `the test command \`${claim(seen.test, 120)}\``
    const hit = [...calls].reverse().find((c) => c.text.includes(seen.test!))
    if (hit) facts.push(hit.failed === undefined ? `${test} passed` : `${test} failed (${claim(hit.failed, 160)})`)
    else facts.push((ran?.toolCalls ?? 0) > calls.length ? `${test} not among its last ${calls.length} tool calls` : `${test} not run`)
    doubt ||= hit === undefined || hit.failed !== undefined
  } else if (calls.at(-1)?.failed !== undefined) doubt = true
  const failed = [...calls].reverse().find((c) => c.failed !== undefined)
  if (ran && ran.failedCalls > 0) {
    facts.push(`${plural(ran.failedCalls, 'tool call')} failed${failed ? `, the last \`${claim(failed.text, 120)}\` (${claim(failed.failed!, 160)})` : ''}`)
  }
  return { text: facts.length > 0 ? ` The kitchen saw: ${facts.join('; ')}.` : '', doubt }
}

/** `Chef restarted: 1 cook still cooking, 2 runs finished while you were away.` */
export function restartText(cooking: number, finished: number): string {
  const parts: string[] = []
  if (cooking > 0) parts.push(`${plural(cooking, 'cook')} still cooking`)
  if (finished > 0) parts.push(`${plural(finished, 'run')} finished while you were away`)
  return parts.length === 0 ? 'Chef restarted.' : `Chef restarted: ${parts.join(', ')}.`
}

/** One wake message for a batch of notices; the restart prefix goes first when given. */
export function wakeText(notices: readonly Notice[], restart?: string): string {
  const body = [`Kitchen update (${notices.length}):`, ...notices.map(noticeLine)].join('\n')
  return restart ? `${restart}\n\n${body}` : body
}

/** A short duration: `12s`, `4m`, `2h`, `3d`. */
export function duration(ms: Millis): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m`
  if (s < 86400) return `${Math.floor(s / 3600)}h`
  return `${Math.floor(s / 86400)}d`
}

/** The outcome in one line, its words folded, capped at `max` and escaped. */
export function outcomeText(o: Outcome, max = 400): string {
  switch (o.kind) {
    case 'done': return o.reported ? `done: ${claim(o.summary, max)}` : `done (no report): ${claim(o.summary, max)}`
    case 'needs_decision': return `needs decision: ${claim(o.question, max)}`
    case 'blocked': return `blocked: ${claim(o.reason, max)}`
    case 'failed': return `failed (${o.cause}): ${claim(o.reason, max)}`
    case 'stopped': return 'stopped'
  }
}

/** Waiting on the chef or the person: a decision, a block, or a failure. */
export function needsYou(v: TaskView): boolean {
  return v.state.kind === 'idle' && ['needs_decision', 'blocked', 'failed'].includes(v.state.outcome.kind)
}

function mark(v: TaskView): string {
  const s = v.state
  if (s.kind === 'cooking') return '●'
  if (s.kind === 'queued') return '○'
  if (s.kind === 'closed') return '-'
  return needsYou(v) ? '!' : s.outcome.kind === 'done' ? '✓' : '■'
}

/** The state of a task in one line, without its id: `cooking bash: npm test 4m`. */
export function stateText(v: TaskView, now: Millis, max = 100): string {
  const s = v.state
  switch (s.kind) {
    case 'queued': return `queued (${s.why})`
    case 'cooking': return `cooking ${claim(s.activity.text, max)} ${duration(now - s.since)}`
    case 'idle': return `${oneLine(outcomeText(s.outcome, max), max)} ${duration(now - s.since)}`
    case 'closed': return `closed${s.discarded ? ' (discarded)' : ''}`
  }
}

export interface Board {
  now: Millis
  /** Open tasks (closed ones are left out by the caller or here). */
  views: readonly TaskView[]
  busy: number
  cap: number
  projects: readonly ProjectSpec[]
  broken: readonly BrokenTask[]
  /** Config and project error lines. */
  errors: readonly string[]
  /** `rulebookText` of the config, when something is selected. */
  rulebook?: string
}

/** The widget: a header line, then one line per open task. */
export function widgetLines(b: Board): string[] {
  const open = b.views.filter((v) => v.state.kind !== 'closed')
  const waiting = open.filter(needsYou).length
  const head = `chef ${b.busy}/${b.cap} cooks${waiting > 0 ? ` ${waiting} needs you` : ''}${b.broken.length > 0 ? ` ${b.broken.length} broken` : ''}`
  return [head, ...open.map((v) => `${mark(v)} ${v.id} ${stateText(v, b.now, 60)}`)]
}

/** The chef_board text: cooks, projects, rulebook selection, open tasks with state and model, problems. */
export function boardText(b: Board): string {
  const open = b.views.filter((v) => v.state.kind !== 'closed')
  const waiting = open.filter(needsYou).length
  const queued = open.filter((v) => v.state.kind === 'queued').length
  const lines = [`Cooks: ${b.busy}/${b.cap} busy. ${plural(open.length, 'open task')}, ${waiting} need${waiting === 1 ? 's' : ''} you, ${queued} queued.`]
  if (b.projects.length === 0) lines.push('Projects: none yet; register one with chef_add_project.')
  else {
    lines.push('Projects:')
    for (const p of b.projects) lines.push(`- ${p.name}: ${shown(p.path)}, base ${shown(p.baseBranch)}, branches ${shown(p.branchPrefix)}<id>${p.note ? `. ${claim(p.note, 120)}` : ''}`)
  }
  if (b.rulebook) lines.push(b.rulebook)
  if (open.length > 0 || b.broken.length > 0) {
    lines.push('Tasks:')
    for (const v of open) {
      const model = v.model ? ` [${claim(v.model, 80)}]` : ''
      const pending = v.pending > 0 && v.state.kind !== 'queued' ? ` (${plural(v.pending, 'message')} waiting)` : ''
      lines.push(`${mark(v)} ${v.id} "${claim(v.spec.title, 60)}" ${stateText(v, b.now, 120)}${model}${pending}`)
    }
    for (const t of b.broken) lines.push(`? ${shown(t.id)} broken: ${claim(t.reason, 300)}`)
  }
  if (b.errors.length > 0) lines.push('Problems:', ...b.errors.map((e) => `- ${claim(e, 400)}`))
  return lines.join('\n')
}

// ---------------------------------------------------------------- the integration snapshot

/*
 * The integration contract: a versioned snapshot of the open tasks that the kitchen hands to an
 * injected `emit` after each tick when it changed. A snapshot, not a delta, so a consumer converges
 * from any one it receives.
 */

export { COOKS_EVENT, COOKS_REQUEST_EVENT } from '../events.js'

export interface CookTask {
  id: string
  project: string
  title: string
  state: 'queued' | 'cooking' | 'idle'
  run?: number
  since?: number
  /** cooking: one line */
  activity?: string
  /** idle */
  outcome?: { kind: 'done' | 'needs_decision' | 'blocked' | 'failed' | 'stopped'; text: string }
  model?: string
  worktree: string
  branch: string
  taskDir: string
  /** The run file of `run`. */
  transcript?: string
}

export interface CooksSnapshot {
  version: 1
  sessionId: string
  /** off: the kitchen is closed in this session. */
  role: 'owner' | 'read-only' | 'off'
  /** Open tasks only; a task that leaves the list is closed. */
  tasks: CookTask[]
}

/** Where a task's files are, as the store names them. */
export interface CookPaths {
  taskDir(id: string): string
  runFile(id: string, run: number): string
}

export function cooksSnapshot(sessionId: string, role: CooksSnapshot['role'], views: readonly TaskView[], paths: CookPaths): CooksSnapshot {
  const tasks: CookTask[] = []
  if (role !== 'off') {
    for (const v of views) {
      const s = v.state
      if (s.kind === 'closed') continue
      const t: CookTask = {
        id: v.id,
        project: v.spec.project,
        title: claim(v.spec.title, 160),
        state: s.kind,
        worktree: v.spec.worktree,
        branch: v.spec.branch,
        taskDir: paths.taskDir(v.id),
      }
      if (v.model) t.model = claim(v.model, 120)
      if (s.kind === 'cooking') {
        t.run = s.run
        t.since = s.since
        t.activity = claim(s.activity.text, 160)
      } else if (s.kind === 'idle') {
        if (s.run !== undefined) t.run = s.run
        t.since = s.since
        t.outcome = { kind: s.outcome.kind, text: outcomeText(s.outcome) }
      }
      if (t.run !== undefined) t.transcript = paths.runFile(v.id, t.run)
      tasks.push(t)
    }
  }
  return { version: 1, sessionId, role, tasks }
}

// ---------------------------------------------------------------- the lease

/** Who holds a lease, in one phrase: `session abc (pid 42)`. */
export function leaseHolderText(h: Pick<Lease, 'sessionId' | 'pid'>): string {
  return `session ${shown(h.sessionId)} (pid ${h.pid})`
}

/** The refusal of a write after another session took the lease. */
export function leaseLostText(holder: Pick<Lease, 'sessionId' | 'pid'> | undefined): string {
  const who = holder ? leaseHolderText(holder) : 'nobody (the lease could not be taken again)'
  return `the kitchen lease is now held by ${who}; this session is read-only: open the kitchen again, or take it over`
}

// ---------------------------------------------------------------- operation answers

/** The answer of add project. */
export function projectText(p: ProjectSpec): string {
  return `Registered ${p.name}: ${shown(p.path)}, tasks fork from ${shown(p.baseBranch)} on branches ${shown(p.branchPrefix)}.`
}

/** The answer of dispatch: one line per task, then the promise of an update. */
export function dispatchText(
  tasks: readonly (Dispatched & { skipped: readonly { model: string; reason: string }[]; again?: boolean })[],
  busy: number,
  cap: number,
): string {
  const lines = tasks.map((t) => {
    const skipped = t.skipped.length > 0 ? ` Skipped models: ${t.skipped.map((s) => `${claim(s.model, 120)} (${claim(s.reason, 200)})`).join('; ')}.` : ''
    if (t.again) return `${t.task} was dispatched already by the same request (on branch ${t.branch}); nothing new was created for it.`
    switch (t.state) {
      case 'cooking': return `${t.task} is cooking on branch ${t.branch} (${busy}/${cap} cooks busy).${skipped}`
      case 'queued': return `${t.task} is queued on branch ${t.branch}: all ${cap} cooks are busy; it starts when one is free.${skipped}`
      case 'failed': return `${t.task} failed to launch: ${claim(t.reason, 400)}${skipped}`
      case 'idle': return `${t.task} is registered on branch ${t.branch}.${skipped}`
    }
  })
  return `${lines.join('\n')}\nYou will get a kitchen update when a task needs you.`
}

/** What `result` found out about a task's branch and clone: the kitchen's own facts. */
export interface ResultFacts {
  task: string
  title: string
  model?: string
  branch: string
  baseBranch: string
  /** The branch's commit in the project (brought back from the clone by the owner), short. */
  tip?: string
  ahead: number
  /** `<short hash> <subject>` per commit ahead of the base, oldest first (absent: not listed). */
  commits?: readonly string[]
  landed: 'base' | 'remote' | false
  remoteRef?: string
  worktree: string
  worktreeExists: boolean
  dirty: boolean
  /** Changed paths in the clone, as git status names them (a few). */
  changes?: readonly string[]
  /** The branch the clone's HEAD is on (undefined: detached). */
  head?: string
  diffstat: string
  /** Why the branch could not be brought back, or was refused (rewritten history), in the kitchen's words. */
  backProblem?: string
  /** True for a read-only session: the project's branch as the owner last brought it back. */
  asOfOwner?: boolean
  taskDir: string
  runFile?: string
  errFile?: string
  /** Lines of the run file longer than the kitchen keeps, cut. */
  cutLines?: number
}

/** How an outcome reads in the kitchen's own words (the cook's are in `claimLine`). */
function outcomeWord(o: Outcome): string {
  switch (o.kind) {
    case 'done': return o.reported ? 'done' : 'finished without a report'
    case 'needs_decision': return 'needs a decision'
    case 'blocked': return 'blocked'
    case 'failed': return `failed (${o.cause})`
    case 'stopped': return 'stopped'
  }
}

/** The cook's own words about its run, marked as such, on one line. Undefined when it said nothing. */
function claimLine(o: Outcome): string | undefined {
  switch (o.kind) {
    case 'done': return `The cook's ${o.reported ? 'report' : 'last words'} (its claim, not checked): "${claim(o.summary, 600)}"`
    case 'needs_decision': return `The cook asks (its words): "${claim(o.question, 600)}"`
    case 'blocked': return `The cook says it is blocked (its words): "${claim(o.reason, 600)}"`
    case 'failed': return o.cause === 'report' ? `The cook says it failed (its words): "${claim(o.reason, 600)}"` : `Why: ${claim(o.reason, 600)}`
    case 'stopped': return undefined
  }
}

/**
 * The answer of result. The kitchen's facts come first, each on a line of its own: state and model,
 * the branch with its tip, commits ahead and landing, each commit, the clone, the diffstat, provider
 * errors and files. The cook's words come last and apart, on one escaped line marked as its claim
 * (`resultClaim`; a caller that adds facts of its own, such as verify, puts them between).
 */
export function resultText(r: ResultFacts, v: TaskView): string {
  const said = resultClaim(v)
  return said ? `${resultFacts(r, v)}\n${said}` : resultFacts(r, v)
}

/** The cook's own words of a result, on one line marked as its claim; undefined when it said nothing. */
export function resultClaim(v: TaskView): string | undefined {
  return v.state.kind === 'idle' ? claimLine(v.state.outcome) : undefined
}

/** The kitchen's facts of a result (see resultText). */
export function resultFacts(r: ResultFacts, v: TaskView): string {
  const s = v.state
  const run = s.kind === 'idle' || s.kind === 'cooking' ? s.run : undefined
  const state = s.kind === 'idle' ? outcomeWord(s.outcome) : s.kind
  const lines = [`${r.task} "${claim(r.title, 120)}": ${state}${run !== undefined ? ` (run ${run})` : ''}${r.model ? `, model ${claim(r.model, 120)}` : ''}.`]
  lines.push(branchLine(r))
  for (const c of r.commits ?? []) lines.push(`  ${claim(c, 120)}`)
  if (r.commits && r.ahead > r.commits.length) lines.push(`  … and ${r.ahead - r.commits.length} more`)
  if (r.backProblem) lines.push(`Not brought back: ${claim(r.backProblem, 400)}`)
  lines.push(`Clone ${shown(r.worktree)}: ${cloneWords(r)}.`)
  if (r.diffstat) for (const l of r.diffstat.split('\n').slice(0, 60)) lines.push(claim(l, 200))
  if (v.tried.length > 0) lines.push(`Provider errors: ${triedList(v.tried)}.`)
  if (r.cutLines) lines.push(`Run file: ${plural(r.cutLines, 'line')} longer than the kitchen keeps ${r.cutLines === 1 ? 'was' : 'were'} cut.`)
  lines.push(`Files: ${shown(r.taskDir)}${r.runFile ? `, ${shown(r.runFile)}` : ''}${r.errFile ? `, ${shown(r.errFile)}` : ''}`)
  return lines.join('\n')
}

/**
 * The branch in the project: its commits ahead of the base and whether they landed. A branch with no
 * commit of its own has nothing to land, which is said in those words: "landed" would read as work
 * done.
 */
function branchLine(r: ResultFacts): string {
  const owner = r.asOfOwner ? ' (as the owner last brought it back)' : ''
  if (!r.tip) return `Branch ${r.branch}: not in the project: no commits: nothing to land${owner}.`
  if (r.ahead === 0) return `Branch ${r.branch} at ${r.tip}: no commits: nothing to land on ${r.baseBranch}${owner}.`
  const land = r.landed === 'base' ? `landed on ${r.baseBranch}` : r.landed === 'remote' ? `landed on ${shown(r.remoteRef ?? '')} as of the last fetch, not on ${r.baseBranch}` : 'not landed'
  return `Branch ${r.branch} at ${r.tip}: ${plural(r.ahead, 'commit')} ahead of ${r.baseBranch}, ${land}${owner}.`
}

/** How verify's test run ended, as the result's first line reads it. */
export interface VerifyVerdict {
  ok: boolean
  command: string
  exitCode: number | null
  outcome?: 'passed' | 'failed' | 'timed-out' | 'killed'
}

/**
 * The first line of a result when the kitchen's facts say the work is not ready: the test command
 * failed, or a cook that says it is done left no commit. Undefined when nothing failed.
 */
export function resultHeadline(r: Pick<ResultFacts, 'ahead' | 'tip'> & { state: TaskView['state'] }, verified?: VerifyVerdict): string | undefined {
  const problems: string[] = []
  if (verified && !verified.ok) {
    const how = verified.outcome === 'timed-out' ? 'timed out' : verified.outcome === 'killed' ? 'was killed' : `failed (exit ${verified.exitCode ?? 'none'})`
    problems.push(`the test command \`${claim(verified.command, 200)}\` ${how}`)
  }
  const s = r.state
  if (s.kind === 'idle' && s.run !== undefined && s.outcome.kind === 'done' && (!r.tip || r.ahead === 0)) problems.push('no commits: nothing to land')
  return problems.length > 0 ? `Not ready: ${problems.join('; ')}.` : undefined
}

function cloneWords(r: ResultFacts): string {
  if (!r.worktreeExists) return 'gone'
  const on = r.head === undefined ? 'HEAD detached' : r.head === r.branch ? `on ${r.branch}` : `HEAD on ${claim(r.head, 80)}, not on ${r.branch}`
  if (!r.dirty) return `clean, ${on}`
  const paths = (r.changes ?? []).map((c) => claim(c, 80)).join(', ')
  return `uncommitted changes (${paths || 'files'}), ${on}`
}

/** The answer of close: what happened to the worktree and to the branch. */
export function closeText(
  c: { task: string; discarded: boolean; branch: string; baseBranch: string; ended?: number },
  worktree: 'removed' | 'already-gone' | { error: string },
  branch: 'deleted' | 'kept' | 'already-gone' | { error: string },
): string {
  const wt = typeof worktree === 'string' ? (worktree === 'removed' ? 'clone removed' : 'clone already gone') : `clone not removed: ${claim(worktree.error, 300)}`
  const br = typeof branch === 'string'
    ? branch === 'deleted' ? `branch ${c.branch} deleted` : branch === 'kept' ? `branch ${c.branch} kept (not on ${c.baseBranch})` : `branch ${c.branch} already gone`
    : `branch ${c.branch} not deleted: ${claim(branch.error, 300)}`
  const ended = c.ended ? `, ${plural(c.ended, 'leftover process', 'leftover processes')} of its runs ended` : ''
  return `Closed ${c.task}${c.discarded ? ' (discarded)' : ''}: ${wt}, ${br}${ended}.`
}

/**
 * The answer of a dispatch that could not create every task (a full disk): which tasks exist after
 * it (they will launch), which do not, and what to do. A retry of the same dispatch creates only
 * the missing ones.
 */
export function dispatchFailedText(created: readonly { task: string; branch: string }[], total: number, reason: string): string {
  const why = claim(reason, 300)
  if (created.length === 0) return `Nothing was dispatched: ${why}. No task was created; dispatch again once that is fixed.`
  const list = created.map((t) => `${t.task} (${t.branch})`).join(', ')
  return `Only ${created.length} of ${total} tasks ${created.length === 1 ? 'was' : 'were'} created: ${list}; ${created.length === 1 ? 'it launches' : 'they launch'} as usual. The rest failed: ${why}. Send the same dispatch again once that is fixed: the tasks already created are not created twice.`
}

// ---------------------------------------------------------------- the chef's answers: send, stop, board, /chef

/** The answer of send. */
export function sendText(task: string, r: SendResult): string {
  switch (r.kind) {
    case 'steered': return `Sent to ${task}: the cook of run ${r.run} takes it after its current step.`
    case 'after-stop': return `${task} is being stopped (run ${r.run}); the message restarts it once its cook has exited.`
    case 'launched': return `${task} relaunched as run ${r.run} in the same cook session with your message.`
    case 'queued': return `${task} is queued with your message: it relaunches when a cook is free.`
    case 'after-exit': return `${task}'s cook is still exiting; the message relaunches the task once it exits.`
    case 'failed': return `${task} failed to launch: ${claim(r.reason, 400)}`
  }
}

/** The answer of stop; `graceMs` is how long the tree gets between SIGTERM and SIGKILL. */
export function stopText(task: string, r: StopResult, graceMs: number): string {
  switch (r.kind) {
    case 'stopping': return `Stopping ${task} run ${r.run}: its process group and everything it started got SIGTERM, SIGKILL follows after ${Math.round(graceMs / 1000)} s. The clone stays; chef_send relaunches it.`
    case 'held': return `${task} is held: it does not start until you chef_send it.`
    case 'signalled': return `${task} had reported and its cook was still exiting (run ${r.run}); it got SIGTERM.`
    case 'not-cooking': return r.ended
      ? `${task} is not cooking; ${plural(r.ended, 'leftover process', 'leftover processes')} of its runs ${r.ended === 1 ? 'was' : 'were'} ended.`
      : `${task} is not cooking; nothing to stop.`
  }
}

/** The board's first line: the kitchen and this session's standing in its lease, as of now. */
export function boardHeadingText(dir: string, s: Standing): string {
  if (s.kind === 'owner') return `Kitchen ${shown(dir)} (owner).`
  if (s.reason) return `Kitchen ${shown(dir)} (read-only: ${claim(s.reason, 300)}).`
  const holder = s.holder ? ` ${leaseHolderText(s.holder)} holds the lease; /chef takeover takes it over.` : ''
  return `Kitchen ${shown(dir)} (read-only: another session owns it).${holder}`
}

/** How a person opens the live board of the kitchen at `dir` in a browser. */
export function serveLineText(dir: string): string {
  return `Live board in a browser: command-scout serve --kitchen ${visibleLine(shellWord(dir))}`
}

/** The answer of `/chef on` (or takeover): where this session stands, and the tools it has now. */
export function chefOnText(dir: string, s: Standing): string {
  const where = s.kind === 'owner'
    ? `you own the kitchen at ${shown(dir)}`
    : s.holder
      ? `the kitchen at ${shown(dir)} is read-only here: ${leaseHolderText(s.holder)} owns it; /chef takeover takes it over`
      : `the kitchen at ${shown(dir)} is read-only here: ${claim(s.reason ?? 'it cannot be written', 300)}; the board and results can be read`
  return `Chef mode on: ${where}. Tools: chef_add_project, chef_dispatch, chef_board, chef_send, chef_stop, chef_result, chef_close.`
}

export const CHEF_OFF_TEXT = 'Chef mode off. The cooks keep running; /chef on brings the board back.'
export const CHEF_ALREADY_OFF_TEXT = 'Chef mode is already off in this session.'

/** Every form of `/chef`, as a person types it. */
export const CHEF_FORMS_TEXT =
  '/chef on, /chef off, /chef takeover, /chef board, /chef send <id> <message>, /chef stop <id> or /chef close <id> [merge|discard]'

/** A `/chef` argument that is no verb. */
export function chefUsageText(raw: string): string {
  return `Unknown /chef argument "${claim(raw.trim(), 80)}". Use ${CHEF_FORMS_TEXT}.`
}

/** Why a `/chef send|stop|close` line can't run (as `mode.ts` parses it). */
export type ChefLineProblemText =
  | { kind: 'no-task' }
  | { kind: 'bad-task'; given: string }
  | { kind: 'no-message'; task: string }
  | { kind: 'extra'; given: string }
  | { kind: 'merge-and-discard' }

const CHEF_TASK_FORMS = { send: '/chef send <id> <message>', stop: '/chef stop <id>', close: '/chef close <id> [merge|discard]' } as const

/** The refusal of a `/chef send|stop|close` line: why, and what to type. */
export function chefLineProblemText(verb: 'send' | 'stop' | 'close', p: ChefLineProblemText): string {
  const form = CHEF_TASK_FORMS[verb]
  switch (p.kind) {
    case 'no-task': return `/chef ${verb} needs a task id: type ${form} (/chef board lists the tasks).`
    case 'bad-task': return `"${claim(p.given, 80)}" is not a task id like "api-7": type ${form} (/chef board lists the tasks).`
    case 'no-message': return `/chef send ${p.task} needs a message: type /chef send ${p.task} <message>.`
    case 'extra': return `/chef ${verb} takes a task id only, not "${claim(p.given, 80)}": type ${form}.`
    case 'merge-and-discard': return 'merge lands the work and discard throws it away: type /chef close <id> merge or /chef close <id> discard.'
  }
}

/** `/chef send|stop|close` in a session that does not own the kitchen: nothing was written. */
export function chefReadOnlyText(verb: 'send' | 'stop' | 'close', s: Standing): string {
  const why = s.kind === 'owner'
    ? 'its lease was lost'
    : s.holder ? `${leaseHolderText(s.holder)} holds the lease` : claim(s.reason ?? 'it cannot be written', 300)
  return `Not done: this session's kitchen is read-only (${why}), so /chef ${verb} changed nothing. Type /chef takeover to take it over, then /chef ${verb} again.`
}

/** `/chef board` in a session that is not in chef mode. */
export function boardOffText(dir: string): string {
  return `Chef mode is off in this session; /chef on opens the kitchen at ${shown(dir)}.`
}

/** `/chef board` while a session that was in chef mode is still coming back (after a restart). */
export function boardRestoringText(dir: string): string {
  return `Chef mode is coming back in this session: the kitchen at ${shown(dir)} is still opening. Run /chef board again in a moment.`
}

/** Verify ran, but its result could not be written to the task's log. */
export function verifyNotRecordedText(reason: string): string {
  return `Verify result not recorded (the board does not show it): ${claim(reason, 300)}`
}

/** Why verify did not run in a session that does not own the kitchen. */
export const VERIFY_READ_ONLY_TEXT = 'Verify: not run: this session is read-only; the owner of the kitchen verifies.'

// ---------------------------------------------------------------- a project's commands

/**
 * The formats discovery reads, for a sentence that says it found none: every one of them (from the
 * collector table), so a person or a model never concludes from a short list that a format was
 * not looked at.
 */
export const FORMATS_TEXT = formatsSentence('or')

/** A project's test and build commands as discovery found them (see chef/project-commands.ts). */
export interface CommandsFound {
  test?: string
  testFrom?: string
  build?: string
  buildFrom?: string
  /** How many commands it declares in all. */
  count: number
}

/** One line for the chef: `Commands: test: npm test (package.json), build: npm run build (package.json).` */
export function commandsText(c: CommandsFound): string {
  const parts: string[] = []
  if (c.test) parts.push(`test: ${claim(c.test, 200)} (${claim(c.testFrom ?? '', 120)})`)
  if (c.build) parts.push(`build: ${claim(c.build, 200)} (${claim(c.buildFrom ?? '', 120)})`)
  if (parts.length > 0) return `Commands: ${parts.join(', ')}.`
  return c.count > 0
    ? `No test or build command found; ${plural(c.count, 'other command')}.`
    : `No test or build command found: the project declares no commands (none in ${FORMATS_TEXT}).`
}

/** Why a named test command names none of the project's commands, with the names it could use. */
export function namedTestProblemText(named: string, names: readonly string[]): string {
  const choice = names.length > 0
    ? `name one of them (${names.map((n) => claim(n, 80)).join(', ')})`
    : `the project declares none (none in ${FORMATS_TEXT}); name one of its commands`
  return `testCommand "${claim(named.trim(), 200)}" names none of the project's commands; ${choice}, by name or as its command line`
}

/** Why verify found no test command on the base branch. */
export function noTestCommandText(baseBranch: string, named?: string): string {
  return named
    ? `the project's test command "${claim(named, 200)}" names none of the commands ${shown(baseBranch)} declares`
    : `${shown(baseBranch)} declares no test command (no test, tests or check command in ${FORMATS_TEXT}); name one with chef_add_project's testCommand`
}

// ---------------------------------------------------------------- cook prompts

export interface PromptTask {
  id: string
  title: string
  brief: string
  branch: string
  worktree: string
}

/** The first prompt: the brief, then any messages that arrived before it was delivered. */
export function briefPrompt(task: PromptTask, messages: readonly string[]): string {
  const parts = [
    `# Task ${task.id}: ${task.title}`,
    '',
    `You work in ${task.worktree}, a clone of the project of your own, on the branch ${task.branch}. Commit your work on that branch: the kitchen brings it back into the project.`,
    'End the run with exactly one report: done, needs_decision, blocked, or failed, with a short summary.',
    '',
    '## Brief',
    '',
    task.brief.trim(),
  ]
  if (messages.length > 0) parts.push('', ...messagesBody(messages))
  return parts.join('\n') + '\n'
}

/** A relaunch prompt: only the messages, because the session already holds the brief. */
export function messagesPrompt(messages: readonly string[]): string {
  return messagesBody(messages).join('\n') + '\n'
}

function messagesBody(messages: readonly string[]): string[] {
  const head = messages.length === 1 ? '## Message from the chef' : `## Messages from the chef (${messages.length})`
  return [head, '', ...messages.map((m) => m.trim()).join('\n\n---\n\n').split('\n')]
}

/** The prompt of a run after a provider failure: name the failure and continue on the next model. */
export function fallbackPrompt(failedModel: string, error: string, nextModel: string): string {
  return (
    `The previous run on ${failedModel} stopped with a provider error: ${error.trim()}\n` +
    `This run uses ${nextModel}. Continue the task from where it stopped, and end with one report.\n`
  )
}

/** The prompt of a relaunch that has no message: the session holds the task, so it continues. */
const CONTINUE_PROMPT = 'Continue the task from where it stopped, and end with one report.\n'

/**
 * The prompt of a launch. `existing`: the prompt file of an interrupted launch, which is kept and
 * gets the newer messages; else by kind: the brief with the messages, the fallback note with them,
 * or only the messages (or a plain continue when there are none).
 */
export function launchPrompt(
  kind: 'brief' | 'messages' | 'existing' | 'fallback',
  task: PromptTask,
  messages: readonly string[],
  existing: string | undefined,
  fallback?: { failed: { model: string; error: string }; next?: { model: string } },
): string {
  if (existing !== undefined) return messages.length > 0 ? `${existing}\n${messagesPrompt(messages)}` : existing
  if (kind === 'brief') return briefPrompt(task, messages)
  if (kind === 'fallback' && fallback) {
    const p = fallbackPrompt(fallback.failed.model, fallback.failed.error, fallback.next?.model ?? 'the default model')
    return messages.length > 0 ? `${p}\n${messagesPrompt(messages)}` : p
  }
  return messages.length > 0 ? messagesPrompt(messages) : CONTINUE_PROMPT
}

// ---------------------------------------------------------------- verify (chef_result's)

/** Why verify did not run, in the kitchen's words. */
export function verifyNotRunText(why: string): string {
  return `Verify: not run: ${why}.`
}

/** A confined test run, as verify and the merge queue report it. */
interface TestRun {
  outcome: 'passed' | 'failed' | 'timed-out' | 'killed'
  exitCode: number | null
  timeoutMs: number
  seconds: number
  denied: boolean
  tail: readonly string[]
}

/** How a confined test run ended, as a clause ("passed", "failed (exit 2)", ...). */
function testOutcome(v: TestRun): string {
  if (v.outcome === 'passed') return 'passed'
  if (v.outcome === 'timed-out') return `timed out after ${v.timeoutMs} ms`
  if (v.outcome === 'killed') return 'was killed'
  return `failed (exit ${v.exitCode ?? 'none'})`
}

/**
 * What verify did: the command as the base branch declares it, where it ran, how it ended, and the
 * tail of its output (the test's own words, escaped, indented under the kitchen's line).
 */
export function verifyText(v: {
  command: string
  from: string
  baseBranch: string
  clone: string
} & TestRun): string[] {
  const how = testOutcome(v)
  const lines = [`Verify: \`${claim(v.command, 200)}\` (${claim(v.from, 120)} on ${v.baseBranch}) in the clone ${shown(v.clone)}, confined to it, ${how} in ${v.seconds.toFixed(1)} s.`]
  if (v.denied) lines.push('  The sandbox refused a file access outside the clone.')
  if (v.tail.some((l) => l.trim() !== '')) lines.push('Output tail:', ...v.tail.map((l) => `  ${claim(l, 300)}`))
  return lines
}

// ---------------------------------------------------------------- the merge queue, overlaps and a branch's diff

/*
 * The merge queue's lines (chef_close with merge, and the wake after a restart), the overlapping
 * changes of open tasks (at dispatch and in each wake), the test a landing ran, and result's diff.
 * Branch names are git-checked names; file names, test output and diff lines are the repository's
 * and the cooks': escaped, cut, and indented under the kitchen's own line.
 */

function shortCommit(c: string): string {
  return /^[0-9a-f]{40,64}$/.test(c) ? c.slice(0, 10) : shown(c)
}

function fileList(files: readonly string[], max = 8): string {
  const head = files.slice(0, max).map((f) => claim(f, 160)).join(', ')
  return files.length > max ? `${head} and ${files.length - max} more` : head
}

const indented = (l: string) => `  ${claim(l, 400)}`

/** Where an entry's task lands (its branch and base), when the kitchen still knows the task. */
export interface MergeWhere {
  branch: string
  baseBranch: string
}

/** The words an entry's lines share: its task, branch and base as shown, and the call that goes on. */
function entryWords(e: MergeEntry, where: MergeWhere | undefined) {
  const branch = where ? shown(where.branch) : 'its branch'
  return {
    head: `- ${shown(e.task)}`,
    branch,
    base: where ? shown(where.baseBranch) : 'its base branch',
    again: `chef_close {tasks: ["${shown(e.task)}"], merge: true}`,
    untouched: `Nothing of it landed and ${branch} is as it was.`,
    send: `chef_send ${shown(e.task)}`,
  }
}

function landedLines(end: Extract<MergeEnd, { kind: 'landed' }>, w: ReturnType<typeof entryWords>): string[] {
  const brought = `${w.branch} ${end.how === 'rebase' ? 'rebased onto' : 'merged with'} ${w.base} at ${shortCommit(end.onto)}`
  const how = end.already ? `${w.base} had it already` : `${brought} passed the project's test, and ${w.base} was fast-forwarded to ${shortCommit(end.tip)}`
  const closed = end.notClosed ? ` Not closed: ${claim(end.notClosed, 300)}` : end.closed ? ` ${claim(end.closed, 300)}` : ''
  return [`${w.head} landed on ${w.base}: ${how}.${closed}`, ...end.tested.slice(0, 1).map(indented)]
}

function conflictLine(end: Extract<MergeEnd, { kind: 'conflict' }>, w: ReturnType<typeof entryWords>): string {
  const files = `${fileList(end.files)}${end.more ? ` and ${end.more} more` : ''}`
  const verb = end.how === 'rebase' ? 'rebase onto' : 'merge with'
  const them = end.files.length === 1 ? 'it' : 'them'
  return `${w.head} stopped at a conflict: ${w.branch} does not ${verb} ${w.base} (${shortCommit(end.onto)}) cleanly: ${files}. ${w.untouched} ` +
    `Ask its cook to bring ${w.branch} onto ${w.base} and resolve ${them} (${w.send}), then ${w.again}.`
}

/** The lines of one merge-queue entry: how it ended (or where it waits), and what to do next. */
export function mergeEntryLines(e: MergeEntry, where: MergeWhere | undefined): string[] {
  const w = entryWords(e, where)
  const end = e.ended
  if (!end) return [`${w.head} waits in the merge queue${e.open ? ` at its ${e.open} step` : ''}: nothing of it landed yet; ${w.again} goes on from there.`]
  switch (end.kind) {
    case 'landed': return landedLines(end, w)
    case 'conflict': return [conflictLine(end, w)]
    case 'failed':
      return [end.ran
        ? `${w.head} not landed: the project's test failed on ${w.branch} brought onto ${w.base}. ${w.untouched} Have it fixed (${w.send}), then ${w.again}.`
        : `${w.head} not landed: the test could not run on it, and the kitchen lands only what the project's test passed on. ${w.untouched}`,
      ...end.lines.map(indented)]
    case 'refused': return [`${w.head} not merged: ${claim(end.reason, 500)}.`]
    case 'checkout':
      return [`${w.head} not landed: ${w.base} is checked out in ${shown(end.path)} with local changes (${fileList(end.changes, 5)}); ` +
        `the kitchen never moves a checked-out branch under uncommitted work. Commit or stash them there, then ${w.again}.`]
    case 'nothing': return [`${w.head}: no commits: nothing to land.`]
    case 'error': return [`${w.head} not landed: ${claim(end.reason, 400)}. ${w.untouched}`]
    case 'moved': return [`${w.head} not landed: ${w.base} kept moving while it was tested. ${w.untouched} ${w.again} tries again.`]
    case 'not-tried': return [`${w.head} not tried: the queue stopped at ${shown(end.after)}.`]
  }
}

type MergeLines = readonly { entry: MergeEntry; where?: MergeWhere }[]

/** The answer of a merge: how many landed, then each entry. */
export function mergeReportText(entries: MergeLines): string {
  if (entries.length === 0) return 'Merge queue: nothing to report.'
  const landed = entries.filter((x) => x.entry.ended?.kind === 'landed').length
  const head = `Merge queue: ${landed} of ${plural(entries.length, 'task')} landed, one at a time.`
  return [head, ...entries.flatMap((x) => mergeEntryLines(x.entry, x.where))].join('\n')
}

/** The wake after a restart: what the queue did (or where it waits) while no call waited for it. */
export function mergeWakeText(entries: MergeLines): string {
  const head = 'Kitchen update (merge queue): the chef stopped during a merge and came back; the queue as it stands now:'
  return [head, ...entries.flatMap((x) => mergeEntryLines(x.entry, x.where))].join('\n')
}

/** The open tasks that change the same files: told at dispatch and in each wake, before anything is merged. */
export function overlapText(pairs: readonly Overlap[], more = 0): string[] {
  if (pairs.length === 0) return []
  const lines = pairs.map((p) => `- Tasks ${shown(p.a)} and ${shown(p.b)} both change ${fileList(p.files, 5)}: merge one, then the other will need a rebase.`)
  if (more > 0) lines.push(`- and ${plural(more, 'more pair')} of tasks`)
  return ['Overlapping changes:', ...lines]
}

/** The lines of a test the merge queue ran on a branch brought onto its base. */
export function mergeTestText(v: {
  command: string
  from: string
  baseBranch: string
  branch: string
} & TestRun): string[] {
  const how = testOutcome(v)
  const where = `on ${shown(v.branch)} brought onto ${shown(v.baseBranch)}, in a work clone of the kitchen's, confined to it`
  const lines = [`Test: \`${claim(v.command, 200)}\` (${claim(v.from, 120)} on ${shown(v.baseBranch)}) ${where}, ${how} in ${v.seconds.toFixed(1)} s.`]
  if (v.denied) lines.push('The sandbox refused a file access outside the work clone.')
  const tail = v.tail.filter((l) => l.trim() !== '')
  if (v.outcome !== 'passed' && tail.length > 0) lines.push('Output tail:', ...tail.map((l) => claim(l, 300)))
  return lines
}

/** Why the merge queue's test did not run, in the kitchen's words. */
export function mergeTestNotRunText(why: string): string {
  return `Test: not run: ${claim(why, 400)}.`
}

/** The most diff lines a result shows; the rest is on the board. */
export const DIFF_LINES = 400

/** A diff line shown: control characters escaped (tabs kept), cut. */
function diffLine(l: string): string {
  const v = visible(l)
  return v.length > 400 ? `${v.slice(0, 399)}…` : v
}

/** result's diff: the first `max` lines of `git diff base...branch`, indented, then how to see the rest. */
export function diffText(d: {
  task: string
  branch: string
  baseBranch: string
  /** The kitchen directory and the project, for the commands that show the whole diff. */
  dir: string
  repo: string
  lines: readonly string[]
  cut: boolean
  from?: 'project' | 'clone'
  problem?: string
}, max = DIFF_LINES): string[] {
  if (d.problem) return [`Diff: not shown: ${claim(d.problem, 300)}.`]
  const range = `${d.baseBranch}...${d.branch}`
  if (d.lines.length === 0) return [`Diff of ${shown(d.branch)} against ${shown(d.baseBranch)}: no changes.`]
  const from = d.from === 'clone' ? ', read from the cook\'s clone' : ''
  const total = d.cut ? `more than ${d.lines.length}` : String(d.lines.length)
  const out = [`Diff of ${shown(d.branch)} against ${shown(d.baseBranch)} (git diff ${shown(range)}${from}), ${total} lines:`]
  for (const l of d.lines.slice(0, max)) out.push(`  ${diffLine(l)}`)
  const rest = d.lines.length - Math.min(max, d.lines.length)
  if (rest > 0 || d.cut) {
    const board = `command-scout serve --kitchen ${visibleLine(shellWord(d.dir))}, then /kitchen/tasks/${shown(d.task)}`
    out.push(`… ${d.cut ? `more than ${rest}` : rest} more lines. The whole diff: ${board}; or git -C ${visibleLine(shellWord(d.repo))} diff ${shown(range)}`)
  }
  return out
}
