// command-scout kitchen board: keeps /kitchen and /kitchen/tasks/<id> live from the server's event
// stream (no reload), copies commands, and keeps relative times current. The server renders every
// row and entry (escaped there); this script only places its markup or sets text. Same origin only.
'use strict'

const LABEL = { waiting: 'Waiting', cooking: 'Cooking', needs_decision: 'Needs a decision', done: 'Done', failed: 'Failed', closed: 'Closed' }
const MAX_ENTRIES = 2000

function ago(ms) {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m`
  if (s < 86400) return `${Math.floor(s / 3600)}h`
  return `${Math.floor(s / 86400)}d`
}

function refreshTimes(root) {
  for (const t of (root || document).querySelectorAll('time[data-at]')) t.textContent = `${ago(Date.now() - Number(t.dataset.at))} ago`
}

async function copy(button) {
  const code = button.parentElement.querySelector('code')
  const text = code ? code.textContent : ''
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    document.body.appendChild(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
  button.textContent = 'Copied'
  button.classList.add('copied')
  setTimeout(() => { button.textContent = 'Copy'; button.classList.remove('copied') }, 1500)
}

document.addEventListener('click', (event) => {
  const button = event.target.closest && event.target.closest('button.copy')
  if (button) copy(button)
})

/** Markup the server rendered, parsed into nodes (a template parses table rows as they are). */
function nodes(html) {
  const t = document.createElement('template')
  t.innerHTML = html
  return t.content
}

function setLive(text, state) {
  const live = document.getElementById('live')
  if (!live) return
  live.textContent = text
  live.dataset.state = state
}

// ---------------------------------------------------------------- the board

function setCount(name, delta) {
  for (const el of document.querySelectorAll(`[data-count="${name}"]`)) {
    const n = Math.max(0, (parseInt(el.textContent, 10) || 0) + delta)
    el.textContent = name === 'total' ? `${n} task${n === 1 ? '' : 's'}` : String(n)
  }
}

/** The state chips and the total follow each change: `previous` is the task's state before (null: new). */
function recount(data) {
  const filter = document.body.dataset.state
  const now = data.row.state
  const was = data.previous
  if (was === now) return
  if (was === null) setCount('all', 1)
  else setCount(was, -1)
  setCount(now, 1)
  const matches = (s) => (s === null ? 0 : !filter || s === filter ? 1 : 0)
  setCount('total', matches(now) - matches(was))
}

function boardTask(data) {
  const body = document.body
  const tbody = document.getElementById('tasks')
  if (!tbody) return
  recount(data)
  const existing = document.getElementById(`task-${data.id}`)
  const filter = body.dataset.state
  const fits = !filter || filter === data.row.state
  if (existing && !fits) return existing.remove()
  const row = nodes(data.html).firstElementChild
  if (!row) return
  if (existing) {
    // a person's open command list stays open
    const open = existing.querySelector('details.actions[open]')
    if (open) { const d = row.querySelector('details.actions'); if (d) d.open = true }
    existing.replaceWith(row)
  } else if (fits && body.dataset.first === 'yes' && data.row.state !== 'closed') {
    tbody.prepend(row)
    row.classList.add('arrived')
  } else return
  const empty = document.getElementById('empty')
  if (empty) empty.hidden = tbody.children.length > 0
}

function boardRemoved(data) {
  const filter = document.body.dataset.state
  setCount(data.previous, -1)
  setCount('all', -1)
  if (!filter || filter === data.previous) setCount('total', -1)
  const row = document.getElementById(`task-${data.id}`)
  if (row) row.remove()
}

// ---------------------------------------------------------------- one task

function aheadText(row) {
  if (row.ahead === null && row.branchProblem !== null) return row.branchProblem
  if (row.ahead === null) return row.tip === null ? 'no branch yet' : 'reading git…'
  return `${row.ahead} commit${row.ahead === 1 ? '' : 's'} ahead of ${row.baseBranch}`
}

function setField(name, text) {
  for (const el of document.querySelectorAll(`.summary [data-field="${name}"]`)) el.textContent = text
}

let diffWanted = null
async function loadDiff(id, tip) {
  if (diffWanted === tip) return
  diffWanted = tip
  const res = await fetch(`/kitchen/tasks/${encodeURIComponent(id)}/diff`, { headers: { accept: 'text/html' } })
  if (!res.ok || diffWanted !== tip) return
  const target = document.getElementById('diff')
  target.replaceChildren(nodes(await res.text()))
  document.querySelector('article.task-page').dataset.tip = tip
}

function taskTask(data) {
  const article = document.querySelector('article.task-page')
  if (!article || data.id !== article.dataset.task) return
  const row = data.row
  for (const badge of document.querySelectorAll('.summary [data-field="state"]')) {
    badge.className = `state-badge state-${row.state}`
    badge.textContent = LABEL[row.state] || row.state
  }
  setField('detail', row.detail)
  setField('ahead', aheadText(row))
  setField('pending', `${row.pending} message${row.pending === 1 ? '' : 's'}`)
  if (row.model !== null) setField('model', row.model)
  if (row.tip !== null) {
    setField('tip', row.tip.slice(0, 10))
    setField('tipSource', row.tipSource === 'clone' ? "in the cook's clone" : 'in the project')
    if (row.tip !== article.dataset.tip) loadDiff(row.id, row.tip).catch(() => {})
  }
}

/** The entry list of a run, made when the run is new since the page was rendered. */
function runList(run) {
  let list = document.querySelector(`ol.run-entries[data-run="${run}"]`)
  if (list) return list
  const runs = document.getElementById('runs')
  if (!runs) return null
  for (const empty of runs.querySelectorAll('.empty')) empty.remove()
  for (const d of runs.querySelectorAll('details.run[open]')) d.open = false
  const details = document.createElement('details')
  details.className = 'run'
  details.open = true
  details.dataset.run = String(run)
  const summary = document.createElement('summary')
  summary.textContent = `Run ${run}`
  list = document.createElement('ol')
  list.className = 'entries run-entries'
  list.dataset.run = String(run)
  details.append(summary, list)
  runs.prepend(details)
  return list
}

/** A message the cook took while it ran, added to the page's messages as delivered. */
function delivered(line) {
  const section = document.querySelector('[aria-labelledby="h-messages"]')
  if (!section) return
  let list = section.querySelector('ol.messages')
  if (!list) {
    for (const empty of section.querySelectorAll('.empty')) empty.remove()
    list = document.createElement('ol')
    list.className = 'messages'
    section.append(list)
  }
  const item = document.createElement('li')
  item.className = 'message message-delivered'
  const meta = document.createElement('p')
  meta.className = 'meta'
  meta.textContent = 'delivered · just now'
  const text = document.createElement('pre')
  text.className = 'text'
  text.textContent = line.text.replace(/^message: /, '')
  item.append(meta, text)
  list.append(item)
}

function taskLines(data) {
  const article = document.querySelector('article.task-page')
  if (!article || data.id !== article.dataset.task || data.run === null) return
  const list = runList(data.run)
  if (!list) return
  for (const html of data.html) list.append(nodes(html))
  while (list.children.length > MAX_ENTRIES) list.firstElementChild.remove()
  for (const line of data.lines) if (line.kind === 'message') delivered(line)
}

// ---------------------------------------------------------------- the stream

function connect() {
  const body = document.body
  const page = body.dataset.page
  if (page !== 'board' && page !== 'task' || typeof EventSource === 'undefined') return
  const q = new URLSearchParams()
  if (body.dataset.cursor) q.set('since', body.dataset.cursor)
  if (page === 'task') q.set('task', body.dataset.task)
  const source = new EventSource(`/api/v1/kitchen/events?${q}`)
  const on = (name, fn) => source.addEventListener(name, (e) => { try { fn(JSON.parse(e.data)) } catch (error) { console.warn('kitchen event', name, error) } })
  source.onopen = () => setLive('live', 'live')
  source.onerror = () => {
    const closed = source.readyState === EventSource.CLOSED
    setLive(closed ? 'not live (the server refused the stream; reload later)' : 'reconnecting…', 'down')
  }
  on('reset', () => location.reload())
  on('kitchen', (d) => { if (page === 'board' && (d.present ? 'yes' : 'no') !== body.dataset.present) location.reload() })
  if (page === 'board') {
    on('task', boardTask)
    on('removed', boardRemoved)
  } else {
    on('task', taskTask)
    on('lines', taskLines)
    on('removed', () => setLive('this task is gone from the kitchen', 'down'))
  }
}

refreshTimes()
setInterval(() => refreshTimes(), 15_000)
connect()
