/**
 * The kitchen's words for the chef and the person: wake lines, the restart prefix, the board and the
 * widget. Pure functions of derived views; a few lines with pointers, never dumps.
 */
import type { Millis, Outcome, ProjectSpec } from './domain.js'
import type { Notice, TaskView, TriedModel } from './derive.js'
import type { BrokenTask } from './snapshot.js'

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

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
