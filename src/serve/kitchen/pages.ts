/**
 * The board's page `/kitchen` (every task, paged, filtered by state) and what the task page shares
 * with it: the page around a body, times, state badges, copyable commands, a task's cook and branch.
 * Server-rendered, so it reads without script; web/kitchen.js keeps it live from the event stream
 * and takes a changed row's markup from the event (rendered here by `rowHtml`), so a row has one
 * renderer. Every text a cook, a model or a repository wrote goes through `markedHtml`: escaped,
 * its control and bidi characters shown.
 *
 * The page around the body is this module's own (the recipe pages' shell in ../pages.ts is theirs):
 * the same header and stylesheet, plus kitchen.css and kitchen.js.
 */
import { visibleLine } from '../../base/visible-text.js'
import { chefActions } from './actions.js'
import type { RunEntry } from './run-lines.js'
import { BOARD_STATES, STATE_LABEL, type BoardState, type TaskRow } from './rows.js'
import { ago, esc, markedHtml, plural } from './text.js'

export interface PageContext {
  /** The event stream's cursor when the page was rendered: the page's events start after it. */
  cursor: string
  /** The server also serves a repository's commands (a link in the header). */
  hasCommands: boolean
  now: number
}

function nav(ctx: PageContext, page: string): string {
  const commands = ctx.hasCommands ? ' <a href="/commands">Repository commands</a>' : ''
  const kitchen = `<a href="/kitchen"${page === 'board' ? ' aria-current="page"' : ''}>Kitchen</a>`
  return `<nav aria-label="Site"><a href="/" class="home">command-scout recipes</a>${commands} ${kitchen}</nav>`
}

export function shell(title: string, body: string, ctx: PageContext, page: string, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(visibleLine(title))} · command-scout kitchen</title>
<link rel="stylesheet" href="/assets/style.css">
<link rel="stylesheet" href="/assets/kitchen.css">
<script src="/assets/kitchen.js" defer></script>
</head>
<body class="kitchen" data-page="${page}" data-cursor="${esc(ctx.cursor)}"${extra}>
<a class="skip" href="#main">Skip to content</a>
<header class="top kitchen-top">${nav(ctx, page)}</header>
<main id="main" class="kitchen-main">
${body}
</main>
</body>
</html>
`
}

/** A moment as "4m ago", its exact time in the title; kitchen.js keeps the words current. */
export function time(at: number | null, now: number): string {
  if (at === null) return ''
  const iso = new Date(at).toISOString()
  return `<time datetime="${iso}" data-at="${at}" title="${iso}">${ago(now - at)} ago</time>`
}

export function stateBadge(state: BoardState): string {
  return `<span class="state-badge state-${state}" data-field="state">${esc(STATE_LABEL[state])}</span>`
}

/** A command with its copy button (kitchen.js copies the code's text). */
export function commandBlock(command: string, label: string): string {
  const button = `<button type="button" class="copy" aria-label="Copy: ${esc(label)}">Copy</button>`
  return `<div class="cmd"><pre><code>${markedHtml(command)}</code></pre>${button}</div>`
}

export const live = '<span id="live" class="live" role="status" aria-live="polite">not live</span>'

function actionsHtml(row: TaskRow): string {
  if (row.state === 'closed') return '<span class="muted">closed</span>'
  const items = chefActions(row.id).map((a) => `<li><span class="what">${esc(a.what)}</span>${commandBlock(a.command, `/chef ${a.action} ${row.id}`)}</li>`)
  return `<details class="actions"><summary>Commands</summary><ul>${items.join('')}</ul></details>`
}

export function entryHtml(e: RunEntry): string {
  return `<li class="entry entry-${e.kind}">${markedHtml(e.text)}</li>`
}

/** A model or branch name that may break after each `/`, never inside a part (each a nowrap span). */
function nameHtml(name: string): string {
  return name.split(/(?<=\/)/).map((part) => `<span class="w">${markedHtml(part)}</span>`).join('<wbr>')
}

export function modelHtml(row: TaskRow): string {
  const model = row.model
    ? `<code class="name" data-field="model">${nameHtml(row.model)}</code>`
    : '<span class="muted" data-field="model">the harness default</span>'
  const failed = row.fallbacks.map((f) => `<code class="name" title="${esc(visibleLine(f.error))}">${nameHtml(f.model)}</code>`)
  const fallbacks = failed.length > 0 ? `<br><span class="fallbacks">after ${failed.join(', ')} failed</span>` : ''
  const of = row.models.length > 1 ? `<span class="muted"> of ${row.models.length} candidates</span>` : ''
  return `${model}${of}${fallbacks}`
}

export function aheadText(row: TaskRow): string {
  if (row.ahead === null && row.branchProblem !== null) return row.branchProblem
  if (row.ahead === null) return row.tip === null ? 'no branch yet' : 'reading git…'
  return `${plural(row.ahead, 'commit')} ahead of ${row.baseBranch}`
}

function branchHtml(row: TaskRow): string {
  return `<code class="branch name">${nameHtml(row.branch)}</code><br><span class="ahead" data-field="ahead">${markedHtml(aheadText(row))}</span>`
}

const NOT_RECORDED = 'Not verified yet: chef_result {verify: true} runs the test on it, chef_close {merge: true} before it lands'

/** The verify result; `short` for the board's narrow column. */
export function verifyHtml(row: TaskRow, short = false): string {
  if (!row.verify) {
    const words = short ? '—<span class="visually-hidden"> not recorded</span>' : 'not recorded'
    return `<span class="muted" title="${NOT_RECORDED}">${words}</span>`
  }
  const result = row.verify.passed ? 'passed' : 'failed'
  return `<span class="verify verify-${result}">${result}</span> <code>${markedHtml(row.verify.command)}</code>`
}

/** A labelled cell: on a narrow screen the row is a card and the label shows beside the value. */
const cell = (cls: string, label: string, html: string) => `<td class="${cls}" data-label="${label}"><div>${html}</div></td>`

/** One task as a board row; kitchen.js swaps a row for the one an event brings. */
export function rowHtml(row: TaskRow, now = Date.now()): string {
  const pending = row.pending > 0 ? ` <span class="pending">${plural(row.pending, 'message')} waiting</span>` : ''
  const lines = row.lines.length > 0
    ? `<ol class="entries" data-run="${row.run ?? ''}">${row.lines.map(entryHtml).join('')}</ol>`
    : '<span class="muted">no run yet</span>'
  const id = esc(row.id)
  const state = `${stateBadge(row.state)} <span class="detail">${markedHtml(row.detail)}</span> ${time(row.since, now)}${pending}`
  return `<tr class="task state-${row.state}" id="task-${id}" data-task="${id}" data-state="${row.state}" data-tip="${esc(row.tip ?? '')}">`
    + `<td class="c-task"><a href="/kitchen/tasks/${id}"><code>${id}</code></a> <span class="title">${markedHtml(row.title)}</span></td>`
    + cell('c-state', 'State', state)
    + cell('c-cook', 'Cook', modelHtml(row))
    + cell('c-branch', 'Branch', branchHtml(row))
    + cell('c-lines', row.run ? `Run ${row.run}` : 'Run', lines)
    + cell('c-verify', 'Verify', verifyHtml(row, true))
    + `<td class="c-actions">${actionsHtml(row)}</td></tr>`
}

export interface BoardPage {
  dir: string
  present: boolean
  rows: readonly TaskRow[]
  total: number
  counts: Record<BoardState, number>
  page: number
  pages: number
  per: number
  state?: BoardState
  broken: readonly { id: string; reason: string }[]
  problems: readonly string[]
}

function pageLink(p: BoardPage, page: number): string {
  const q = new URLSearchParams()
  if (p.state) q.set('state', p.state)
  if (page > 1) q.set('page', String(page))
  if (p.per !== 50) q.set('per', String(p.per))
  const s = q.toString()
  return `/kitchen${s ? `?${s}` : ''}`
}

function stateNav(p: BoardPage): string {
  const all = BOARD_STATES.reduce((n, s) => n + p.counts[s], 0)
  const chip = (label: string, state: BoardState | undefined, n: number) => {
    const attrs = `href="${state ? `/kitchen?state=${state}` : '/kitchen'}"${p.state === state ? ' aria-current="true"' : ''}`
    return `<li><a ${attrs}>${esc(label)} <span class="count" data-count="${state ?? 'all'}">${n}</span></a></li>`
  }
  const chips = [chip('All', undefined, all), ...BOARD_STATES.map((s) => chip(STATE_LABEL[s], s, p.counts[s]))]
  return `<nav class="states" aria-label="Tasks by state"><ul>${chips.join('')}</ul></nav>`
}

function pager(p: BoardPage): string {
  if (p.pages <= 1) return ''
  const prev = p.page > 1 ? `<a href="${pageLink(p, p.page - 1)}" rel="prev">Newer</a>` : '<span class="muted">Newer</span>'
  const next = p.page < p.pages ? `<a href="${pageLink(p, p.page + 1)}" rel="next">Older</a>` : '<span class="muted">Older</span>'
  return `<nav class="pager" aria-label="Pages">${prev} <span>page ${p.page} of ${p.pages}</span> ${next}</nav>`
}

function problemsHtml(p: { broken: BoardPage['broken']; problems: readonly string[] }): string {
  const items = (list: string[]) => `<ul class="problems">${list.map((x) => `<li>${x}</li>`).join('')}</ul>`
  const broken = p.broken.length === 0 ? '' : '<h2>Broken tasks</h2>'
    + '<p class="meta">The kitchen does not launch, close or clean these up; fix or remove their task directory.</p>'
    + items(p.broken.map((b) => `<code>${markedHtml(b.id)}</code>: ${markedHtml(b.reason)}`))
  const problems = p.problems.length === 0 ? '' : `<h2>Problems</h2>${items(p.problems.map(markedHtml))}`
  return broken + problems
}

function emptyText(p: BoardPage): string {
  if (!p.present) {
    return `No kitchen at <code>${markedHtml(p.dir)}</code> yet: the chef makes it with <code>/chef on</code> in dsh. `
      + 'This page shows it as soon as it is there.'
  }
  if (p.state) return `No task is ${esc(STATE_LABEL[p.state].toLowerCase())}.`
  return 'No tasks yet: the chef dispatches them (chef_dispatch), and they appear here as they are made.'
}

const HEAD = ['Task', 'State', 'Cook', 'Branch', 'Current run', 'Verify', 'Actions']

export function boardPage(p: BoardPage, ctx: PageContext): string {
  const rows = p.rows.map((r) => rowHtml(r, ctx.now)).join('\n')
  const head = HEAD.map((h) => `<th scope="col">${h}</th>`).join('')
  const body = `<h1>Kitchen</h1>
<p class="meta"><span data-count="total">${plural(p.total, 'task')}</span> in <code class="path">${markedHtml(p.dir)}</code> · ${live}</p>
<p class="readonly">This board only reads the kitchen: the chef's dsh session makes every change.
Copy a task's <code>/chef</code> command into that session.</p>
${stateNav(p)}
<div class="table-wrap"><table class="board" id="board" aria-label="Tasks"><thead><tr>${head}</tr></thead>
<tbody id="tasks">
${rows}
</tbody></table></div>
<p class="empty" id="empty"${p.rows.length > 0 ? ' hidden' : ''}>${emptyText(p)}</p>
${pager(p)}
${problemsHtml(p)}`
  const extra = ` data-first="${p.page === 1 ? 'yes' : 'no'}" data-state="${p.state ?? ''}" data-present="${p.present ? 'yes' : 'no'}"`
  return shell('Kitchen', body, ctx, 'board', extra)
}

export function kitchenMissingPage(message: string, ctx: PageContext, status: 'not-found' | 'bad-request'): string {
  const title = status === 'not-found' ? 'Not found' : 'Bad request'
  return shell(title, `<h1>${title}</h1><p>${markedHtml(message)}. <a href="/kitchen">Back to the kitchen</a>.</p>`, ctx, 'missing')
}
