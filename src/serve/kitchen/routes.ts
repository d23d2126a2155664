/**
 * The board's routes, as answers app.ts writes: the pages `/kitchen`, `/kitchen/tasks/<id>` (and its
 * diff section, which the page fetches again when the branch moves), and the API
 * `/api/v1/kitchen/tasks[/<id>[/diff]]` and `/api/v1/kitchen/events`. app.ts checks the Host, the
 * Origin, the method and the target's length before anything here runs.
 */
import type { IncomingMessage } from 'node:http'
import { visibleLine } from '../../base/visible-text.js'
import { error, type ApiAnswer } from '../api.js'
import type { KitchenAnswer, KitchenSurface } from '../app.js'
import { diffSummary, eventsQuery, listAnswer, listQuery, pageOf, stateCounts, taskAnswer, taskIdOf, type DiffSummary, type ListQuery } from './api.js'
import { KitchenBoard, type BoardOptions } from './board.js'
import { diffHtml, parseDiff, type ParsedDiff } from './diff-html.js'
import { boardPage, kitchenMissingPage, type PageContext } from './pages.js'
import { diffSection, taskPage } from './task-page.js'
import { shellWord } from '../../base/quote.js'
import { taskDetail } from './task-detail.js'
import { esc } from './text.js'

/** How long a page waits for the git facts of its rows before it shows them as still being read. */
const FACTS_WAIT_MS = 800
const TASK_FACTS_WAIT_MS = 8_000

const isAnswer = (v: unknown): v is ApiAnswer => typeof v === 'object' && v !== null && 'status' in v && 'body' in v
const json = (answer: ApiAnswer): KitchenAnswer => ({ kind: 'json', answer })
const messageOf = (a: ApiAnswer) => (a.body as { error: { message: string } }).error.message

function unknownTask(board: KitchenBoard, id: string): ApiAnswer {
  const broken = board.brokenTasks().find((b) => b.id === id)
  if (broken) return error(404, 'TASK_BROKEN', `task ${id} is broken: ${visibleLine(broken.reason)}; the kitchen does not read it`)
  if (!board.present) return error(404, 'NO_KITCHEN', `there is no kitchen at ${visibleLine(board.dir)} yet`)
  return error(404, 'TASK_UNKNOWN', `there is no task ${id} in this kitchen; GET /api/v1/kitchen/tasks lists them`)
}

interface TaskDiff {
  parsed?: ParsedDiff
  text?: Buffer
  summary: DiffSummary
  html: string
}

/** The task's diff: read from git (bounded), parsed and rendered; a diff that can't be read says why. */
async function taskDiff(board: KitchenBoard, id: string): Promise<TaskDiff> {
  const got = await board.diff(id)!.catch((e: Error) => ({ problem: e.message, facts: {} }))
  if ('problem' in got) return { summary: diffSummary(undefined, got.facts, 0, false, got.problem), html: `<p class="empty">${esc(got.problem)}</p>` }
  const parsed = parseDiff(got.diff.text.toString('utf8'))
  const rec = board.record(id)!
  const repo = board.projectOf(rec.spec.project)?.path ?? '.'
  const command = `git -C ${shellWord(repo)} diff ${shellWord(`${rec.spec.baseBranch}...${rec.spec.branch}`)}`
  const text = got.diff.cut ? 'its first 4 MiB' : 'all of it'
  const more = `GET /api/v1/kitchen/tasks/${id}/diff has ${text} as text; <code>${esc(command)}</code> shows the rest.`
  const cutNote = got.diff.cut && !parsed.cut ? `<p class="notice">git had more than 4 MiB to say; the rest is not read. ${more}</p>` : ''
  return { parsed, text: got.diff.text, summary: diffSummary(parsed, got.facts, got.diff.text.length, got.diff.cut), html: diffHtml(parsed, more) + cutNote }
}

export class KitchenRoutes implements KitchenSurface {
  constructor(readonly board: KitchenBoard, private readonly hasCommands: boolean) {}

  private ctx(): PageContext {
    return { cursor: this.board.hub.cursor, hasCommands: this.hasCommands, now: Date.now() }
  }

  async answer(path: string, query: URLSearchParams, req: IncomingMessage): Promise<KitchenAnswer> {
    if (path === '/kitchen' || path === '/kitchen/') return this.boardPage(query)
    if (path === '/api/v1/kitchen/tasks') return this.list(query)
    if (path === '/api/v1/kitchen/events') return this.events(query, req)
    const page = /^\/kitchen\/tasks\/([^/]+)(\/diff)?$/.exec(path)
    if (page) return this.taskPage(page[1]!, page[2] !== undefined)
    const api = /^\/api\/v1\/kitchen\/tasks\/([^/]+)(\/diff)?$/.exec(path)
    if (api) return this.task(api[1]!, api[2] !== undefined)
    if (path.startsWith('/api/')) return json(error(404, 'NOT_FOUND', `no API path ${visibleLine(path.slice(0, 200))}; the document is /api/v1/openapi.json`))
    return { kind: 'page', status: 404, html: kitchenMissingPage(`Nothing at ${path.slice(0, 200)}`, this.ctx(), 'not-found') }
  }

  private async boardPage(query: URLSearchParams): Promise<KitchenAnswer> {
    const q = listQuery(query)
    if (isAnswer(q)) return { kind: 'page', status: 400, html: kitchenMissingPage(messageOf(q), this.ctx(), 'bad-request') }
    await this.freshPage(q)
    const all = this.board.rows()
    const p = pageOf(all, q)
    const html = boardPage({
      dir: this.board.dir, present: this.board.present, rows: p.rows, total: p.total, counts: stateCounts(all), page: p.page, pages: p.pages, per: q.per,
      ...(q.state ? { state: q.state } : {}), broken: this.board.brokenTasks(), problems: this.board.problems(),
    }, this.ctx())
    return { kind: 'page', status: 200, html }
  }

  /** A fresh read, and the git facts of the page's open tasks (waited for a while: a page then shows them). */
  private async freshPage(q: ListQuery): Promise<void> {
    await this.board.fresh()
    const shown = pageOf(this.board.rows(), q).rows.filter((r) => r.state !== 'closed').map((r) => r.id)
    if (shown.length > 0) await this.board.factsFor(shown, FACTS_WAIT_MS)
  }

  private async list(query: URLSearchParams): Promise<KitchenAnswer> {
    const q = listQuery(query)
    if (isAnswer(q)) return json(q)
    await this.freshPage(q)
    return json(listAnswer(this.board, q))
  }

  /** The record of a checked id after a fresh read, or the error answer. */
  private async located(segment: string): Promise<string | ApiAnswer> {
    const id = taskIdOf(segment)
    if (isAnswer(id)) return id
    await this.board.fresh()
    if (!this.board.record(id)) return unknownTask(this.board, id)
    await this.board.factsFor([id], TASK_FACTS_WAIT_MS)
    return id
  }

  private async taskPage(segment: string, fragment: boolean): Promise<KitchenAnswer> {
    const id = await this.located(segment)
    if (isAnswer(id)) {
      return { kind: 'page', status: id.status, html: kitchenMissingPage(messageOf(id), this.ctx(), id.status === 400 ? 'bad-request' : 'not-found') }
    }
    const ctx = this.ctx()
    const rec = this.board.record(id)!
    const detail = taskDetail(this.board.storeNow()!, rec)
    const diff = await taskDiff(this.board, id)
    const row = this.board.row(id)!
    if (fragment) return { kind: 'page', status: 200, html: diffSection(id, diff.html, diff.summary.tip) }
    const repo = this.board.projectOf(rec.spec.project)?.path
    return { kind: 'page', status: 200, html: taskPage({ row, detail, repo, diff: diff.html }, ctx) }
  }

  private async task(segment: string, asDiff: boolean): Promise<KitchenAnswer> {
    const id = await this.located(segment)
    if (isAnswer(id)) return json(id)
    const diff = await taskDiff(this.board, id)
    if (asDiff) {
      if (diff.text === undefined) return json(error(404, 'NO_DIFF', diff.summary.problem ?? 'the branch has no diff to show'))
      const s = diff.summary
      const headers: Record<string, string> = { 'x-diff-tip': s.tip ?? '', 'x-diff-base': s.baseTip ?? '', 'x-diff-truncated': s.cut ? 'yes' : 'no' }
      return { kind: 'text', status: 200, type: 'text/plain; charset=utf-8', body: diff.text, headers }
    }
    const rec = this.board.record(id)!
    const repo = this.board.projectOf(rec.spec.project)?.path
    return json(taskAnswer(this.board.row(id)!, taskDetail(this.board.storeNow()!, rec), repo, diff.summary))
  }

  private async events(query: URLSearchParams, req: IncomingMessage): Promise<KitchenAnswer> {
    const header = req.headers['last-event-id']
    const q = eventsQuery(query, typeof header === 'string' && header !== '' ? header : undefined)
    if (isAnswer(q)) return json(q)
    await this.board.fresh()
    return {
      kind: 'stream',
      open: (res) => this.board.hub.open(req, res, q.task, q.since),
      busy: () => {
        const message = `this server has ${this.board.hub.size} event streams open, the most it keeps; close a board page and try again`
        return error(503, 'TOO_MANY_STREAMS', message, undefined, { 'retry-after': '5' })
      },
    }
  }

  close(): void {
    this.board.close()
  }
}

/** The board for a kitchen directory, as the server's kitchen routes. */
export function kitchenRoutes(options: BoardOptions & { hasCommands?: boolean }): KitchenRoutes {
  return new KitchenRoutes(new KitchenBoard(options), options.hasCommands ?? false)
}
