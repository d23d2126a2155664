/**
 * The task page `/kitchen/tasks/<id>`: its state and facts, the commands for it, its brief, the
 * messages sent to it, its runs (the current one open, its entries followed live by kitchen.js),
 * the kitchen's log, and the diff of its branch against its base (fetched again by kitchen.js when
 * the branch moves). Every text a cook, a model or a repository wrote goes through `markedHtml`.
 */
import { chefActions, shellCommands } from './actions.js'
import { aheadText, commandBlock, entryHtml, live, modelHtml, shell, stateBadge, time, verifyHtml, type PageContext } from './pages.js'
import type { TaskRow } from './rows.js'
import type { MessageDetail, RunDetail, TaskDetail } from './task-detail.js'
import { esc, markedHtml, plural } from './text.js'

export interface TaskPage {
  row: TaskRow
  detail: TaskDetail
  repo: string | undefined
  diff: string
}

const item = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`
const path = (p: string) => `<code class="path">${markedHtml(p)}</code>`
const rest = (cut: boolean) => (cut ? '\n…(the rest is not shown)' : '')

function tipHtml(r: TaskRow): string {
  if (!r.tip) return '<span class="muted" data-field="tip">none yet</span>'
  const where = r.tipSource === 'clone' ? 'in the cook\'s clone' : 'in the project'
  return `<code data-field="tip">${r.tip.slice(0, 10)}</code> <span class="muted" data-field="tipSource">${where}</span>`
}

function summaryHtml(t: TaskPage, now: number): string {
  const r = t.row
  const project = `<code>${markedHtml(r.project)}</code>${t.repo ? ` at ${path(t.repo)}` : ' (not registered)'}`
  return `<dl class="summary">
${item('State', `${stateBadge(r.state)} <span class="detail" data-field="detail">${markedHtml(r.detail)}</span> ${time(r.since, now)}`)}
${item('Cook', modelHtml(r))}
${item('Branch', `<code class="branch">${markedHtml(r.branch)}</code> from <code>${markedHtml(r.baseBranch)}</code>`)}
${item('Ahead', `<span data-field="ahead">${markedHtml(aheadText(r))}</span>`)}
${item('Tip', tipHtml(r))}
${item('Verify', verifyHtml(r))}
${item('Queued messages', `<span data-field="pending">${plural(r.pending, 'message')}</span>`)}
${item('Project', project)}
${item('Task files', path(t.detail.taskDir))}
${item('Clone', path(t.detail.worktree))}
${item('Created', r.createdAt ? time(r.createdAt, now) : '<span class="muted">unknown</span>')}
</dl>`
}

function commandsHtml(t: TaskPage): string {
  const li = (what: string, block: string) => `<li><p class="what">${esc(what)}</p>${block}</li>`
  const chef = t.row.state === 'closed' ? [] : chefActions(t.row.id).map((a) => li(a.what, commandBlock(a.command, a.action)))
  const shellItems = shellCommands(t.detail.taskDir, t.repo, t.row.branch, t.row.baseBranch).map((c) => li(c.what, commandBlock(c.command, c.what)))
  const note = t.row.state === 'closed'
    ? '<p class="meta">The task is closed: nothing is left to send, stop or close.</p>'
    : '<p class="meta">In the chef\'s dsh session (this page changes nothing):</p>'
  return `${note}<ul class="commands-list">${chef.join('')}</ul><p class="meta">In a terminal:</p><ul class="commands-list">${shellItems.join('')}</ul>`
}

function messageHtml(m: MessageDetail, now: number): string {
  const meta = `<p class="meta">${m.state === 'waiting' ? 'waiting for the cook' : 'delivered'} · ${time(m.at, now)}</p>`
  return `<li class="message message-${m.state}">${meta}<pre class="text">${markedHtml(m.text)}${rest(m.cut)}</pre></li>`
}

/** What a run said of itself: its report (the cook's claim), its errors, its stderr and its prompt. */
function saidHtml(r: RunDetail): string {
  const report = r.report
    ? `<p class="report"><strong>Report ${esc(r.report.status)}:</strong> ${markedHtml(r.report.summary)} <span class="muted">(the cook's claim)</span></p>`
    : ''
  const details = (summary: string, text: string) => `<details><summary>${summary}</summary><pre class="text">${text}</pre></details>`
  return [
    report,
    r.providerError ? `<p class="error">Provider error: ${markedHtml(r.providerError)}</p>` : '',
    r.runnerError ? `<p class="error">The cook runner failed: ${markedHtml(r.runnerError)}</p>` : '',
    r.readError ? `<p class="error">${markedHtml(r.readError)}</p>` : '',
    r.errTail ? details('stderr (its end)', markedHtml(r.errTail)) : '',
    r.prompt ? details('The prompt it was launched with', markedHtml(r.prompt.text) + rest(r.prompt.cut)) : '',
  ].join('')
}

function runHtml(r: RunDetail, current: boolean, now: number): string {
  const facts = [
    r.model ? `on <code>${markedHtml(r.model)}</code>` : '',
    r.startedAt ? `started ${time(r.startedAt, now)}` : 'not started',
    r.settledAt ? `ended ${time(r.settledAt, now)}` : '',
    `${plural(r.lines, 'line')}${r.bad > 0 ? `, ${r.bad} unreadable` : ''}`,
  ].filter(Boolean).join(' · ')
  const entries = r.entries === null
    ? '<p class="meta">An older run: its prompt and run file are not read for this page.</p>'
    : `<ol class="entries run-entries" data-run="${r.n}">${r.entries.map(entryHtml).join('')}</ol>`
  const head = `<summary>Run ${r.n}</summary><p class="meta">${facts}</p>`
  return `<details class="run"${current ? ' open' : ''} data-run="${r.n}">${head}${saidHtml(r)}${entries}</details>`
}

/** The diff section's inner markup (kitchen.js fetches it again when the branch moves). */
export function diffSection(id: string, diff: string, tip: string | null): string {
  const href = `/api/v1/kitchen/tasks/${esc(id)}/diff`
  return `<p class="meta">As text: <a href="${href}">${href}</a>${tip ? ` · at <code>${tip.slice(0, 10)}</code>` : ''}</p>${diff}`
}

/** A section with its heading, and what it says when it has nothing. */
function section(id: string, title: string, inner: string): string {
  return `<section aria-labelledby="h-${id}"><h2 id="h-${id}">${title}</h2>${inner}</section>`
}

const empty = (text: string) => `<p class="empty">${text}</p>`

export function taskPage(t: TaskPage, ctx: PageContext): string {
  const r = t.row
  const d = t.detail
  const current = d.runs.at(-1)?.n
  const messages = d.messages.length > 0
    ? `<ol class="messages">${d.messages.map((m) => messageHtml(m, ctx.now)).join('')}</ol>`
    : empty('No messages were sent to this task.')
  const runs = d.runs.length > 0
    ? [...d.runs].reverse().map((x) => runHtml(x, x.n === current, ctx.now)).join('')
    : empty('No run yet: the task waits for a cook.')
  const log = d.log.length > 0
    ? `<ol class="log">${d.log.map((e) => `<li>${time(e.at, ctx.now)} ${markedHtml(e.text)}</li>`).join('')}</ol>`
    : empty('Nothing logged yet.')
  const problems = d.problems.length > 0 ? `<ul class="problems">${d.problems.map((p) => `<li>${markedHtml(p)}</li>`).join('')}</ul>` : ''
  const body = `<article class="task-page" data-task="${esc(r.id)}" data-tip="${esc(r.tip ?? '')}">
<p class="crumbs"><a href="/kitchen">Kitchen</a> › <code>${markedHtml(r.project)}</code> · ${live}</p>
<h1><code>${esc(r.id)}</code> <span class="title">${markedHtml(r.title)}</span></h1>
${summaryHtml(t, ctx.now)}
${problems}
${section('commands', 'Commands', commandsHtml(t))}
${section('brief', 'Brief', `<pre class="text brief">${markedHtml(d.brief)}</pre>`)}
${section('messages', 'Messages', messages)}
${section('runs', 'Runs', `<div id="runs">${runs}</div>`)}
${section('log', 'Log', log)}
${section('diff', `Diff against ${markedHtml(r.baseBranch)}`, `<div id="diff">${diffSection(r.id, t.diff, r.tip)}</div>`)}
</article>`
  return shell(`${r.id} ${r.title}`, body, ctx, 'task', ` data-task="${esc(r.id)}"`)
}
