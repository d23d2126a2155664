/**
 * The board's JSON answers and the checks of what a request asks for: a page of tasks (`page`,
 * `per`, `state`), one task, and the event stream's `task` and `since`. Every value is checked and a
 * bad one is a 400 naming the parameter; a task id is checked against the kitchen's id format
 * before anything is read with it. Answers are `{ status, body }` (../api.ts's), texts escaped.
 */
import { visible, visibleLine } from '../../base/visible-text.js'
import { isTaskId } from '../../kitchen/domain.js'
import { error, type ApiAnswer } from '../api.js'
import { chefActions, shellCommands } from './actions.js'
import type { KitchenBoard } from './board.js'
import type { ParsedDiff } from './diff-html.js'
import { filePath } from './diff-html.js'
import { jsonEntry, jsonRow, BOARD_STATES, type BoardState, type BranchFacts, type TaskRow } from './rows.js'
import type { TaskDetail } from './task-detail.js'

export const DEFAULT_PER_PAGE = 50
export const MAX_PER_PAGE = 200
const MAX_PAGE = 100_000
const LIST_KEYS = ['page', 'per', 'state']
const EVENT_KEYS = ['task', 'since']

export interface ListQuery {
  page: number
  per: number
  state?: BoardState
}

/** A whole number in [min, max] from a query value, or the error naming it. */
function wholeNumber(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number | ApiAnswer {
  const text = query.get(name)
  if (text === null || text === '') return fallback
  if (!/^[0-9]{1,7}$/.test(text) || Number(text) < min || Number(text) > max) {
    return error(400, 'INVALID_PARAMETER', `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text.slice(0, 40))})`, name)
  }
  return Number(text)
}

function strayKey(query: URLSearchParams, allowed: readonly string[]): ApiAnswer | undefined {
  for (const key of new Set(query.keys())) {
    const name = key.slice(0, 40)
    if (!allowed.includes(key)) return error(400, 'INVALID_PARAMETER', `unknown parameter ${JSON.stringify(name)}; this path takes ${allowed.join(', ')}`, name)
    if (query.getAll(key).length > 1) return error(400, 'INVALID_PARAMETER', `${key} may be given once`, key)
  }
  return undefined
}

export function listQuery(query: URLSearchParams): ListQuery | ApiAnswer {
  const stray = strayKey(query, LIST_KEYS)
  if (stray) return stray
  const page = wholeNumber(query, 'page', 1, MAX_PAGE, 1)
  if (typeof page !== 'number') return page
  const per = wholeNumber(query, 'per', 1, MAX_PER_PAGE, DEFAULT_PER_PAGE)
  if (typeof per !== 'number') return per
  const state = query.get('state') || undefined
  if (state !== undefined && !(BOARD_STATES as readonly string[]).includes(state)) {
    return error(400, 'INVALID_PARAMETER', `state must be one of ${BOARD_STATES.join(', ')} (got ${JSON.stringify(state.slice(0, 40))})`, 'state')
  }
  return { page, per, ...(state ? { state: state as BoardState } : {}) }
}

/** The id in a path segment: decoded, and a task id, else the 400 that says so. */
export function taskIdOf(segment: string): string | ApiAnswer {
  let id: string
  try {
    id = decodeURIComponent(segment)
  } catch {
    return error(400, 'INVALID_PATH', `the path has a malformed %-escape: ${JSON.stringify(segment.slice(0, 80))}`)
  }
  if (!isTaskId(id)) {
    return error(400, 'INVALID_TASK_ID', `${JSON.stringify(visibleLine(id.slice(0, 80)))} is not a task id like "api-7" (a project name, a dash, a number)`)
  }
  return id
}

export function eventsQuery(query: URLSearchParams, lastEventId: string | undefined): { task?: string; since?: string } | ApiAnswer {
  const stray = strayKey(query, EVENT_KEYS)
  if (stray) return stray
  const task = query.get('task') || undefined
  if (task !== undefined && !isTaskId(task)) {
    return error(400, 'INVALID_TASK_ID', `task ${JSON.stringify(visibleLine(task.slice(0, 80)))} is not a task id like "api-7"`, 'task')
  }
  const since = lastEventId ?? (query.get('since') || undefined)
  if (since !== undefined && !/^[0-9a-f]{8}-\d{1,15}$/.test(since)) {
    return error(400, 'INVALID_PARAMETER', 'since must be an event id as the stream sends them (like "1a2b3c4d-42")', 'since')
  }
  return { ...(task ? { task } : {}), ...(since ? { since } : {}) }
}

/** Counts of every state, over all tasks. */
export function stateCounts(rows: readonly TaskRow[]): Record<BoardState, number> {
  const counts = Object.fromEntries(BOARD_STATES.map((s) => [s, 0])) as Record<BoardState, number>
  for (const r of rows) counts[r.state]++
  return counts
}

/** One page of rows of the board order. */
export function pageOf(rows: readonly TaskRow[], q: ListQuery): { rows: TaskRow[]; total: number; pages: number; page: number } {
  const matching = q.state ? rows.filter((r) => r.state === q.state) : rows
  const pages = Math.max(1, Math.ceil(matching.length / q.per))
  const page = Math.min(q.page, pages)
  return { rows: matching.slice((page - 1) * q.per, page * q.per), total: matching.length, pages, page }
}

export function listAnswer(board: KitchenBoard, q: ListQuery): ApiAnswer {
  const all = board.rows()
  const p = pageOf(all, q)
  return {
    status: 200,
    body: {
      kitchen: visibleLine(board.dir), present: board.present, total: p.total, page: p.page, per: q.per, pages: p.pages,
      ...(q.state ? { state: q.state } : {}), counts: stateCounts(all), tasks: p.rows.map(jsonRow),
      broken: board.brokenTasks().map((b) => ({ id: visibleLine(b.id), reason: visible(b.reason) })),
      problems: board.problems().map(visible), cursor: board.hub.cursor,
    },
  }
}

export interface DiffSummary {
  tip: string | null
  baseTip: string | null
  source: 'clone' | 'project' | null
  bytes: number
  cut: boolean
  files: { path: string; status: string; added: number; removed: number }[]
  problem?: string
}

export function diffSummary(parsed: ParsedDiff | undefined, facts: BranchFacts, bytes: number, cut: boolean, problem?: string): DiffSummary {
  return {
    tip: facts.tip ?? null, baseTip: facts.baseTip ?? null, source: facts.source ?? null, bytes, cut: cut || (parsed?.cut ?? false),
    files: (parsed?.files ?? []).map((f) => ({ path: visibleLine(filePath(f)), status: f.status, added: f.added, removed: f.removed })),
    ...(problem ? { problem: visible(problem) } : {}),
  }
}

export function taskAnswer(row: TaskRow, d: TaskDetail, repo: string | undefined, diff: DiffSummary): ApiAnswer {
  const text = (s: string) => visible(s)
  return {
    status: 200,
    body: {
      task: jsonRow(row), brief: text(d.brief), taskDir: visibleLine(d.taskDir), worktree: visibleLine(d.worktree),
      project: { name: visibleLine(row.project), path: repo === undefined ? null : visibleLine(repo) },
      runs: d.runs.map((r) => ({
        ...r, model: r.model && visibleLine(r.model), report: r.report && { status: r.report.status, summary: text(r.report.summary) },
        providerError: r.providerError && text(r.providerError), runnerError: r.runnerError && text(r.runnerError), readError: r.readError && text(r.readError),
        errTail: text(r.errTail), prompt: r.prompt && { text: text(r.prompt.text), cut: r.prompt.cut }, entries: r.entries && r.entries.map(jsonEntry),
      })),
      log: d.log.map((e) => ({ ...e, text: text(e.text) })),
      messages: d.messages.map((m) => ({ ...m, text: text(m.text) })),
      problems: d.problems.map(text),
      commands: {
        chef: row.state === 'closed' ? [] : chefActions(row.id),
        shell: shellCommands(d.taskDir, repo, row.branch, row.baseBranch).map((c) => ({ ...c, command: visibleLine(c.command) })),
      },
      diff,
    },
  }
}
