/**
 * Every text the kitchen writes: wake lines, the restart prefix, the board and the widget, the
 * integration snapshot, the answers of add project, dispatch, result and close, and the cook prompts. Pure functions of
 * derived views and facts; a few lines with pointers, never dumps.
 */
import {
  oneLine,
  type BrokenTask, type Dispatched, type Millis, type Notice, type Outcome, type ProjectSpec, type TaskView,
  type TriedModel,
} from '../domain.js'

export { oneLine }

/** Ends a clause with a period unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

function triedList(tried: readonly TriedModel[]): string {
  return tried.map((t) => `${t.model} (${oneLine(t.error, 160)})`).join('; ')
}

/** One wake line per notice, as the chef reads it. */
export function noticeLine(n: Notice): string {
  const head = `- ${n.task} "${oneLine(n.title, 80)}"`
  const o = n.outcome
  const fellBack = n.tried.length > 0 && !(o.kind === 'failed' && o.cause === 'provider')
    ? ` It fell back to ${n.model ?? 'the default model'} after ${n.tried.length === 1 ? 'a provider error' : 'provider errors'} on ${triedList(n.tried)}.`
    : ''
  switch (o.kind) {
    case 'done':
      return o.reported
        ? `${head} is done: ${sentence(oneLine(o.summary, 400))}${fellBack} Review with chef_result ${n.task}.`
        : `${head} finished without a report: ${sentence(oneLine(o.summary, 400))}${fellBack} Review with chef_result ${n.task}.`
    case 'needs_decision':
      return `${head} needs a decision: ${oneLine(o.question, 400)}${fellBack} Answer with chef_send ${n.task}.`
    case 'blocked':
      return `${head} is blocked: ${sentence(oneLine(o.reason, 400))}${fellBack} Unblock it with chef_send ${n.task}.`
    case 'failed':
      switch (o.cause) {
        case 'provider':
          return n.tried.length > 1
            ? `${head} failed with a provider error on every candidate model: ${triedList(n.tried)}. chef_send ${n.task} to retry on ${n.model ?? n.tried.at(-1)!.model}, or tell the human.`
            : `${head} failed with a provider error on ${n.model ?? 'the default model'} (${oneLine(o.reason, 160)}). chef_send ${n.task} to retry, or tell the human.`
        case 'launch':
          return `${head} failed to launch: ${sentence(oneLine(o.reason, 300))} chef_send ${n.task} to retry.`
        case 'crash':
          return `${head} failed: ${sentence(oneLine(o.reason, 300))}${fellBack} chef_send ${n.task} to retry, or review with chef_result ${n.task}.`
        case 'report':
          return `${head} failed: ${sentence(oneLine(o.reason, 400))}${fellBack} Review with chef_result ${n.task}.`
      }
  }
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

export function outcomeText(o: Outcome): string {
  switch (o.kind) {
    case 'done': return o.reported ? `done: ${o.summary}` : `done (no report): ${o.summary}`
    case 'needs_decision': return `needs decision: ${o.question}`
    case 'blocked': return `blocked: ${o.reason}`
    case 'failed': return `failed (${o.cause}): ${o.reason}`
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
    case 'cooking': return `cooking ${oneLine(s.activity.text, max)} ${duration(now - s.since)}`
    case 'idle': return `${oneLine(outcomeText(s.outcome), max)} ${duration(now - s.since)}`
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
    for (const p of b.projects) lines.push(`- ${p.name}: ${p.path}, base ${p.baseBranch}, branches ${p.branchPrefix}<id>${p.note ? `. ${oneLine(p.note, 120)}` : ''}`)
  }
  if (b.rulebook) lines.push(b.rulebook)
  if (open.length > 0 || b.broken.length > 0) {
    lines.push('Tasks:')
    for (const v of open) {
      const model = v.model ? ` [${v.model}]` : ''
      const pending = v.pending > 0 && v.state.kind !== 'queued' ? ` (${plural(v.pending, 'message')} waiting)` : ''
      lines.push(`${mark(v)} ${v.id} "${oneLine(v.spec.title, 60)}" ${stateText(v, b.now, 120)}${model}${pending}`)
    }
    for (const t of b.broken) lines.push(`? ${t.id} broken: ${oneLine(t.reason, 200)}`)
  }
  if (b.errors.length > 0) lines.push('Problems:', ...b.errors.map((e) => `- ${e}`))
  return lines.join('\n')
}

// ---------------------------------------------------------------- the integration snapshot

/*
 * The integration contract: a versioned snapshot of the open tasks that the kitchen hands to an
 * injected `emit` after each tick when it changed. A snapshot, not a delta, so a consumer converges
 * from any one it receives.
 */

export const COOKS_EVENT = 'kitchen/cooks:v1'
export const COOKS_REQUEST_EVENT = 'kitchen/cooks:v1:request'

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
        title: v.spec.title,
        state: s.kind,
        worktree: v.spec.worktree,
        branch: v.spec.branch,
        taskDir: paths.taskDir(v.id),
      }
      if (v.model) t.model = v.model
      if (s.kind === 'cooking') {
        t.run = s.run
        t.since = s.since
        t.activity = s.activity.text
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

// ---------------------------------------------------------------- operation answers

/** The answer of add project. */
export function projectText(p: ProjectSpec): string {
  return `Registered ${p.name}: ${p.path}, tasks fork from ${p.baseBranch} on branches ${p.branchPrefix}.`
}

/** The answer of dispatch: one line per task, then the promise of an update. */
export function dispatchText(tasks: readonly (Dispatched & { skipped: readonly { model: string; reason: string }[] })[], busy: number, cap: number): string {
  const lines = tasks.map((t) => {
    const skipped = t.skipped.length > 0 ? ` Skipped models: ${t.skipped.map((s) => `${s.model} (${s.reason})`).join('; ')}.` : ''
    switch (t.state) {
      case 'cooking': return `${t.task} is cooking on branch ${t.branch} (${busy}/${cap} cooks busy).${skipped}`
      case 'queued': return `${t.task} is queued on branch ${t.branch}: all ${cap} cooks are busy; it starts when one is free.${skipped}`
      case 'failed': return `${t.task} failed to launch: ${t.reason}${skipped}`
      case 'idle': return `${t.task} is registered on branch ${t.branch}.${skipped}`
    }
  })
  return `${lines.join('\n')}\nYou will get a kitchen update when a task needs you.`
}

/** What `result` found out about a task's branch and worktree. */
export interface ResultFacts {
  task: string
  title: string
  model?: string
  branch: string
  baseBranch: string
  ahead: number
  /** `<short hash> <subject>` per commit ahead of the base, oldest first (absent: not listed). */
  commits?: readonly string[]
  landed: 'base' | 'remote' | false
  remoteRef?: string
  worktree: string
  worktreeExists: boolean
  dirty: boolean
  diffstat: string
  taskDir: string
  runFile?: string
  errFile?: string
}

/** The answer of result: outcome, branch and landing, worktree, diffstat, provider errors, files. */
export function resultText(r: ResultFacts, v: TaskView): string {
  const s = v.state
  const lines = [`${r.task} "${r.title}": ${s.kind === 'idle' ? describeOutcome(s.outcome) : s.kind}${r.model ? ` (model ${r.model})` : ''}.`]
  const land = r.landed === 'base' ? `landed on ${r.baseBranch}` : r.landed === 'remote' ? `landed on ${r.remoteRef} as of the last fetch, not on ${r.baseBranch}` : 'not landed'
  lines.push(`Branch ${r.branch}: ${r.ahead} commit${r.ahead === 1 ? '' : 's'} ahead of ${r.baseBranch}, ${land}.`)
  for (const c of r.commits ?? []) lines.push(`  ${c}`)
  if (r.commits && r.ahead > r.commits.length) lines.push(`  … and ${r.ahead - r.commits.length} more`)
  lines.push(`Worktree ${r.worktree}: ${r.worktreeExists ? (r.dirty ? 'dirty' : 'clean') : 'gone'}.`)
  if (r.diffstat) lines.push(r.diffstat)
  if (v.tried.length > 0) lines.push(`Provider errors: ${v.tried.map((t) => `${t.model} (${t.error})`).join('; ')}.`)
  lines.push(`Files: ${r.taskDir}${r.runFile ? `, ${r.runFile}` : ''}${r.errFile ? `, ${r.errFile}` : ''}`)
  return lines.join('\n')
}

function describeOutcome(o: Outcome): string {
  switch (o.kind) {
    case 'done': return `done: ${o.summary}`
    case 'needs_decision': return `needs a decision: ${o.question}`
    case 'blocked': return `blocked: ${o.reason}`
    case 'failed': return `failed (${o.cause}): ${o.reason}`
    case 'stopped': return 'stopped'
  }
}

/** The answer of close: what happened to the worktree and to the branch. */
export function closeText(
  c: { task: string; discarded: boolean; branch: string; baseBranch: string },
  worktree: 'removed' | 'already-gone' | { error: string },
  branch: 'deleted' | 'kept' | 'already-gone' | { error: string },
): string {
  const wt = typeof worktree === 'string' ? (worktree === 'removed' ? 'worktree removed' : 'worktree already gone') : `worktree not removed: ${worktree.error}`
  const br = typeof branch === 'string'
    ? branch === 'deleted' ? `branch ${c.branch} deleted` : branch === 'kept' ? `branch ${c.branch} kept (not on ${c.baseBranch})` : `branch ${c.branch} already gone`
    : `branch ${c.branch} not deleted: ${branch.error}`
  return `Closed ${c.task}${c.discarded ? ' (discarded)' : ''}: ${wt}, ${br}.`
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
    `You work in the worktree ${task.worktree} on the branch ${task.branch}. Commit your work on that branch.`,
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
