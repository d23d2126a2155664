// command-scout recipe pages: live rendering through the API as parameters change, the platform
// switch, copy buttons, and filters that apply on change. Plain script, no dependencies, same origin only.
'use strict'

function detectPlatform() {
  const p = (navigator.userAgentData && navigator.userAgentData.platform) || navigator.platform || navigator.userAgent
  if (/mac/i.test(p)) return 'macos'
  if (/win/i.test(p)) return 'windows'
  return 'linux'
}

function el(tag, className, text) {
  const node = document.createElement(tag)
  if (className) node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

const RISK_LABEL = { read_only: 'Read-only', low: 'Low risk', medium: 'Medium risk', destructive: 'Destructive' }

function badge(risk) {
  return el('span', `badge risk-${risk}`, RISK_LABEL[risk] || risk)
}

function commandBlock(command) {
  const wrap = el('div', 'cmd')
  const pre = el('pre')
  pre.appendChild(el('code', '', command))
  const button = el('button', 'copy', 'Copy')
  button.type = 'button'
  button.setAttribute('aria-label', 'Copy command')
  wrap.append(pre, button)
  return wrap
}

async function copy(button) {
  const text = button.parentElement.querySelector('code').textContent
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    const area = el('textarea')
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

// Index: a filter applies as soon as it changes.
const search = document.querySelector('form.search')
if (search) {
  for (const select of search.querySelectorAll('select')) select.addEventListener('change', () => search.requestSubmit())
}

const article = document.querySelector('article.recipe')
if (article) setupRecipe(article)

function setupRecipe(article) {
  const id = article.dataset.recipe
  const supported = article.dataset.platforms.split(' ')
  let platform = article.dataset.platform
  const form = document.getElementById('params')
  const errorBox = document.getElementById('render-error')
  let sequence = 0

  function params() {
    const out = {}
    if (!form) return out
    for (const input of form.querySelectorAll('[name]')) {
      const type = input.dataset.type
      if (type === 'boolean') out[input.name] = input.checked
      else if (input.value === '') continue // the default applies, or the API says it is required
      else if (type === 'number' && input.value.trim() !== '' && !Number.isNaN(Number(input.value))) out[input.name] = Number(input.value)
      else out[input.name] = input.value
    }
    return out
  }

  function clearErrors() {
    errorBox.hidden = true
    errorBox.textContent = ''
    if (!form) return
    for (const input of form.querySelectorAll('[name]')) input.removeAttribute('aria-invalid')
    for (const p of form.querySelectorAll('.field-error')) { p.hidden = true; p.textContent = '' }
  }

  function showError(error) {
    const name = error.parameter && error.parameter.startsWith('params.') ? error.parameter.slice(7) : undefined
    const input = name && form ? form.querySelector(`[name="${CSS.escape(name)}"]`) : null
    // A parameter's error stands at its field; the box (announced to screen readers) points there.
    errorBox.textContent = input ? `Not rendered: check the parameter "${name}" (the commands below are from the last valid values).` : error.message
    errorBox.hidden = false
    if (input) {
      input.setAttribute('aria-invalid', 'true')
      const field = document.getElementById(`${input.id}-error`)
      field.textContent = error.message
      field.hidden = false
    }
    article.classList.add('stale')
  }

  function fill(list, items) {
    list.replaceChildren(...items)
  }

  function show(rendered) {
    article.classList.remove('stale')
    fill(document.getElementById('steps'), rendered.commands.map((c) => {
      const li = el('li')
      const purpose = el('p', 'purpose', c.purpose)
      if (c.risk !== rendered.risk) purpose.append(' ', badge(c.risk))
      li.append(purpose, commandBlock(c.command))
      return li
    }))
    fill(document.getElementById('verification'), rendered.verification.map((v) => {
      const li = el('li')
      li.append(commandBlock(v.command), el('p', 'expect', `Expect: ${v.expect}`))
      return li
    }))
    fill(document.getElementById('undo'), rendered.undo.possible ? rendered.undo.commands.map((c) => {
      const li = el('li')
      li.append(commandBlock(c))
      return li
    }) : [])
  }

  async function render() {
    const mine = ++sequence
    let response
    try {
      response = await fetch(`/api/v1/recipes/${encodeURIComponent(id)}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ platform, params: params() }),
      })
    } catch (error) {
      if (mine === sequence) { clearErrors(); showError({ message: `The server did not answer: ${error.message}` }) }
      return
    }
    const body = await response.json()
    if (mine !== sequence) return // a newer render is on its way
    clearErrors()
    if (response.ok) show(body)
    else showError(body.error)
    article.dataset.rendered = String(mine)
  }

  function choose(next) {
    platform = next
    article.dataset.platform = next
    for (const b of article.querySelectorAll('button.platform[data-platform]')) b.setAttribute('aria-pressed', String(b.dataset.platform === next))
    const url = new URL(location.href)
    url.searchParams.set('platform', next)
    history.replaceState(null, '', url)
    render()
  }

  for (const b of article.querySelectorAll('button.platform[data-platform]')) b.addEventListener('click', () => choose(b.dataset.platform))
  if (form) {
    form.addEventListener('input', render)
    form.addEventListener('change', render)
    form.addEventListener('submit', (event) => { event.preventDefault(); render() })
  }
  const visitor = detectPlatform()
  if (article.dataset.platformChosen !== 'yes' && visitor !== platform && supported.includes(visitor)) choose(visitor)
  else if (form) render()
}
