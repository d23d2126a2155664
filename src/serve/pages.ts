/**
 * The server-rendered pages: the recipe index (search and filters as a plain GET form, so it works
 * by keyboard and without script), one page per recipe, and the repository's commands. web/app.js
 * adds the live parts: rendering as parameters change, the platform switch, copy buttons. Every
 * value is HTML-escaped; nothing is loaded from another origin.
 */
import { needsConfirmation } from '../curated/confirm.js'
import { currentPlatform, RecipeRenderError, renderRecipe, stepsFor, supportedPlatforms, type RenderedRecipe } from '../curated/render.js'
import { CATEGORIES, PLATFORMS, RISKS, type CuratedRecipe, type Library, type Parameter, type Platform } from '../curated/schema.js'
import { searchAnswer } from '../curated/summary.js'
import type { ReportRecipe, ScanReport } from '../book/report.js'
import { visible, visibleLine } from '../base/visible-text.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const esc = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const RISK_LABEL: Record<string, string> = { read_only: 'Read-only', low: 'Low risk', medium: 'Medium risk', destructive: 'Destructive' }
const PLATFORM_LABEL: Record<Platform, string> = { macos: 'macOS', linux: 'Linux', windows: 'Windows' }

const badge = (risk: string) => `<span class="badge risk-${esc(risk)}">${esc(RISK_LABEL[risk] ?? risk)}</span>`

/** The page around a body; `wide` gives a table page a wider column than the reading pages get. */
function shell(title: string, body: string, hasCommands: boolean, wide = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · command-scout</title>
<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top${wide ? ' wide' : ''}"><nav aria-label="Site"><a href="/" class="home">command-scout recipes</a>${hasCommands ? ' <a href="/commands">Repository commands</a>' : ''}</nav></header>
<main id="main"${wide ? ' class="wide"' : ''}>
${body}
</main>
</body>
</html>
`
}

function option(value: string, label: string, selected: string | null): string {
  return `<option value="${esc(value)}"${selected === value ? ' selected' : ''}>${esc(label)}</option>`
}

export function indexPage(library: Library, query: URLSearchParams, hasCommands = false): string {
  const q = query.get('q') ?? ''
  const category = (CATEGORIES as readonly string[]).includes(query.get('category') ?? '') ? query.get('category')! : ''
  const risk = (RISKS as readonly string[]).includes(query.get('risk') ?? '') ? query.get('risk')! : ''
  const answer = searchAnswer(
    library,
    { ...(q ? { query: q } : {}), ...(category ? { category } : {}), ...(risk ? { risk: [risk] } : {}) },
    library.recipes.length || 1,
  )
  const items = answer.recipes.map((r) => `<li class="result">
<a href="/recipes/${esc(r.id)}">${esc(r.title)}</a> ${badge(r.risk)}
<span class="meta"><code>${esc(r.id)}</code> · ${esc(r.category)}${needsConfirmation(r) ? ' · asks for confirmation' : ''}</span>
<p>${esc(library.byId.get(r.id)!.description.trim().split('\n')[0])}</p>
</li>`).join('\n')
  const body = `<h1>Recipes</h1>
<form class="search" method="get" action="/" role="search">
<label for="q">Search</label>
<input id="q" name="q" type="search" value="${esc(q)}" placeholder="e.g. undo commit, port in use" autocomplete="off">
<label for="category">Category</label>
<select id="category" name="category">${option('', 'All categories', category)}${CATEGORIES.map((c) => option(c, c, category)).join('')}</select>
<label for="risk">Risk</label>
<select id="risk" name="risk">${option('', 'Any risk', risk)}${RISKS.map((r) => option(r, RISK_LABEL[r]!, risk)).join('')}</select>
<button type="submit">Search</button>
</form>
<p id="count" role="status">${answer.total} recipe${answer.total === 1 ? '' : 's'}${q || category || risk ? ' found' : ''}</p>
<ul id="results" class="results">
${items || '<li class="empty">No recipe matches; try fewer or other words.</li>'}
</ul>`
  return shell('Recipes', body, hasCommands)
}

function paramInput(p: Parameter): string {
  const id = `param-${p.name}`
  const common = `id="${esc(id)}" name="${esc(p.name)}" data-type="${esc(p.type)}" aria-describedby="${esc(id)}-help ${esc(id)}-error"`
  let input: string
  if (p.type === 'enum') input = `<select ${common}>${(p.values ?? []).map((v) => `<option${String(p.default) === v ? ' selected' : ''}>${esc(v)}</option>`).join('')}</select>`
  else if (p.type === 'boolean') input = `<input type="checkbox" ${common}${p.default === true ? ' checked' : ''}>`
  else input = `<input type="${p.type === 'number' ? 'number' : 'text'}" ${common} value="${p.default === undefined ? '' : esc(p.default)}"${p.default === undefined ? ' required' : ''} spellcheck="false" autocomplete="off">`
  const help = `${esc(p.description)}${p.pattern_description ? ` (${esc(p.pattern_description)})` : ''}${p.default === undefined ? ' Required.' : ''}`
  return `<div class="field"><label for="${esc(id)}">${esc(p.name)}</label>${input}<small id="${esc(id)}-help">${help}</small><p class="field-error" id="${esc(id)}-error" hidden></p></div>`
}

function commandBlock(command: string): string {
  return `<div class="cmd"><pre><code>${esc(command)}</code></pre><button type="button" class="copy" aria-label="Copy command">Copy</button></div>`
}

/** The step, verification and undo lists; app.js rebuilds them with the same markup after each render. */
function renderedLists(rendered: RenderedRecipe): { steps: string; verification: string; undo: string } {
  return {
    steps: rendered.commands.map((c) => `<li><p class="purpose">${esc(c.purpose)}${c.risk !== rendered.risk ? ` ${badge(c.risk)}` : ''}</p>${commandBlock(c.command)}</li>`).join(''),
    verification: rendered.verification.map((v) => `<li>${commandBlock(v.command)}<p class="expect">Expect: ${esc(v.expect)}</p></li>`).join(''),
    undo: rendered.undo.possible ? rendered.undo.commands.map((c) => `<li>${commandBlock(c)}</li>`).join('') : '',
  }
}

/** Renders with the defaults; when a required parameter has none, the steps show as written, with a notice. */
function initialRender(library: Library, recipe: CuratedRecipe, platform: Platform): { rendered: RenderedRecipe; problem?: string } {
  try {
    return { rendered: renderRecipe(library, recipe.id, { platform }) }
  } catch (error) {
    if (!(error instanceof RecipeRenderError)) throw error
    const steps = stepsFor(recipe, platform) ?? []
    return {
      problem: error.message,
      rendered: {
        id: recipe.id, version: recipe.version, risk: recipe.risk, requires_confirmation: recipe.requires_confirmation || recipe.risk === 'destructive',
        commands: steps.map((s) => ({ command: s.run, purpose: s.purpose, risk: s.risk ?? recipe.risk })),
        verification: recipe.verification.map((v) => ({ command: v.run, expect: v.expect })),
        undo: {
          possible: recipe.undo.possible,
          commands: (recipe.undo.steps ?? []).map((s) => s.run),
          ...(recipe.undo.note ? { note: recipe.undo.note } : {}),
        },
      },
    }
  }
}

/** Why a recipe asks, for its notice: what a destructive one does, what a marked one is, else its risk's reason. */
function confirmWhy(recipe: CuratedRecipe): string {
  if (recipe.risk === 'destructive') return 'This recipe deletes or overwrites data.'
  if (recipe.requires_confirmation) return 'This recipe changes state that is hard to restore.'
  return 'This recipe changes state you may want to keep.'
}

export function recipePage(library: Library, recipe: CuratedRecipe, wanted: string | null, hasCommands = false): string {
  const supported = supportedPlatforms(recipe)
  const fallback = supported.includes(currentPlatform()) ? currentPlatform() : supported[0]!
  const platform = supported.includes(wanted as Platform) ? (wanted as Platform) : fallback
  const { rendered, problem } = initialRender(library, recipe, platform)
  const lists = renderedLists(rendered)
  // The rule a run follows (curated/confirm.ts): marked, or of risk medium or above.
  const confirm = needsConfirmation(recipe)
  const related = recipe.related.filter((id) => library.byId.has(id))
  const body = `<article class="recipe" data-recipe="${esc(recipe.id)}" data-platform="${esc(platform)}" data-platform-chosen="${wanted && supported.includes(wanted as Platform) ? 'yes' : 'no'}" data-platforms="${esc(supported.join(' '))}">
<p class="crumbs"><a href="/">Recipes</a> › <a href="/?category=${esc(recipe.category)}">${esc(recipe.category)}</a></p>
<h1>${esc(recipe.title)}</h1>
<p class="meta">${badge(recipe.risk)} <code>${esc(recipe.id)}</code> v${recipe.version}</p>
${confirm ? `<p class="notice" role="note"><strong>Asks for confirmation.</strong> ${confirmWhy(recipe)} Agents run it only after a person confirms; read the steps and the undo section first.</p>` : ''}
<div class="description">${recipe.description.trim().split(/\n{2,}/).map((p) => `<p>${esc(p)}</p>`).join('')}</div>
${recipe.parameters.length ? `<section aria-labelledby="h-params"><h2 id="h-params">Parameters</h2><form id="params" novalidate>${recipe.parameters.map(paramInput).join('')}</form></section>` : ''}
<section aria-labelledby="h-steps">
<h2 id="h-steps">Steps</h2>
<div class="platforms" role="group" aria-label="Platform">${PLATFORMS.map((p) => supported.includes(p)
    ? `<button type="button" class="platform" data-platform="${p}" aria-pressed="${p === platform}">${PLATFORM_LABEL[p]}</button>`
    : `<button type="button" class="platform" disabled title="No steps for ${PLATFORM_LABEL[p]}">${PLATFORM_LABEL[p]}</button>`).join('')}</div>
<p id="render-error" class="render-error" role="alert"${problem ? '' : ' hidden'}>${problem ? esc(problem) : ''}</p>
<ol id="steps" class="steps">${lists.steps}</ol>
</section>
<section aria-labelledby="h-verify"><h2 id="h-verify">Verify</h2><ol id="verification" class="steps">${lists.verification}</ol></section>
<section aria-labelledby="h-undo"><h2 id="h-undo">Undo</h2>${rendered.undo.possible ? '' : `<p class="undo-note">Cannot be undone${rendered.undo.note ? `: ${esc(rendered.undo.note)}` : '.'}</p>`}<ol id="undo" class="steps">${lists.undo}</ol>${rendered.undo.possible && rendered.undo.note ? `<p class="undo-note">${esc(rendered.undo.note)}</p>` : ''}</section>
${recipe.pitfalls.length ? `<section aria-labelledby="h-pitfalls"><h2 id="h-pitfalls">Pitfalls</h2><ul>${recipe.pitfalls.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></section>` : ''}
${related.length ? `<section aria-labelledby="h-related"><h2 id="h-related">Related</h2><ul>${related.map((id) => `<li><a href="/recipes/${esc(id)}">${esc(library.byId.get(id)!.title)}</a> <code>${esc(id)}</code></li>`).join('')}</ul></section>` : ''}
</article>`
  return shell(recipe.title, body, hasCommands)
}

/**
 * Repository text in pieces the browser may not break: each piece stays whole in a nowrap span and
 * lines wrap only between pieces. A command splits at its own white space (so it reads and copies as
 * written); a path or tool name splits after `/` and `_`, where a break reads as one.
 */
function commandPieces(command: string): string {
  return visible(command).split(/(\s+)/).map((part, i) => (i % 2 ? part : part && `<span class="w">${esc(part)}</span>`)).join('')
}
function namePieces(text: string): string {
  return visibleLine(text).split(/(?<=[/_])/).map((part) => `<span class="w">${esc(part)}</span>`).join('<wbr>')
}
/** A file:line with its folder muted: in a folder's rows the folder repeats, the file name is what differs. */
function wherePieces(file: string, line: number | null): string {
  const cut = file.lastIndexOf('/') + 1
  const dir = cut ? `<span class="dir">${namePieces(file.slice(0, cut))}</span><wbr>` : ''
  return `${dir}${namePieces(`${file.slice(cut)}${line ? `:${line}` : ''}`)}`
}

/** The recipes grouped by the folder they run in, in the order the scan found the folders. */
function byFolder(recipes: ReportRecipe[]): [string, ReportRecipe[]][] {
  const groups = new Map<string, ReportRecipe[]>()
  for (const r of recipes) {
    const list = groups.get(r.cwd)
    if (list) list.push(r)
    else groups.set(r.cwd, [r])
  }
  return [...groups]
}

const folderLabel = (cwd: string) => (cwd === '.' ? '<span class="folder">Repository root</span>' : `<code class="folder">${namePieces(cwd)}</code>`)
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * One command as a table row; on a narrow screen style.css shows it as a card with labelled fields.
 * The tool name (what an agent calls) sits under the command it runs, so four columns fit a screen.
 */
function commandRow(r: ReportRecipe): string {
  return `<tr role="row">`
    + `<td role="cell" class="c-command"><div class="cmd"><pre><code>${commandPieces(r.command)}</code></pre>`
    + `<button type="button" class="copy" aria-label="Copy command">Copy</button></div>`
    + `<p class="tool"><span class="label">Tool</span> <code>${namePieces(r.tool)}</code></p></td>`
    + `<td role="cell" class="c-desc">${esc(visibleLine(r.description.split('\n')[0]!))}</td>`
    + `<td role="cell" class="c-runner" data-label="Runner">${esc(visibleLine(r.source))}</td>`
    + `<td role="cell" class="c-where" data-label="Defined in"><code>${wherePieces(r.file, r.line)}</code></td></tr>`
}

/**
 * One table, a row group per folder (a workspace package, a subproject) headed by its path, so many
 * workspaces stay findable and the columns line up across them. The roles are spelled out because
 * the narrow layout changes the table's display, which some browsers take as dropping its semantics.
 */
function commandsTable(groups: [string, ReportRecipe[]][]): string {
  const headed = groups.length > 1 || groups[0]?.[0] !== '.'
  const head = ['Command', 'Description', 'Runner', 'Defined in'].map((h) => `<th role="columnheader" scope="col">${h}</th>`).join('')
  const bodies = groups.map(([cwd, list], i) => `<tbody role="rowgroup">${headed ? groupRow(cwd, list.length, i) : ''}
${list.map(commandRow).join('\n')}
</tbody>`).join('\n')
  return `<div class="table-wrap"><table id="commands" class="commands" role="table" aria-labelledby="h-commands">
<thead role="rowgroup"><tr role="row">${head}</tr></thead>
${bodies}
</table></div>`
}

/** A folder's heading row; its id is the folder's place in the list, never its (repository-chosen) name. */
function groupRow(cwd: string, count: number, index: number): string {
  return `<tr role="row" class="group"><th role="rowheader" scope="rowgroup" colspan="4" id="ws-${index + 1}">`
    + `${folderLabel(cwd)} <span class="count">${plural(count, 'command')}</span></th></tr>`
}

/** Links to each folder's rows, when there are several folders. */
function folderNav(groups: [string, ReportRecipe[]][]): string {
  if (groups.length < 2) return ''
  const links = groups.map(([cwd, list], i) => `<li><a href="#ws-${i + 1}">${folderLabel(cwd)}</a> <span class="count">${list.length}</span></li>`).join('')
  return `<nav class="folders" aria-label="Folders"><ul>${links}</ul></nav>`
}

function diagnosticsList(diagnostics: ScanReport['diagnostics']): string {
  if (!diagnostics.length) return ''
  const items = diagnostics.map((d) => `<li>${esc(visibleLine(d.file))}${d.line ? `:${d.line}` : ''} `
    + `(${esc(visibleLine(d.severity))}): ${esc(visibleLine(d.message))}</li>`)
  return `<h2>Diagnostics</h2><ul class="diagnostics">${items.join('')}</ul>`
}

export function commandsPage(report: ScanReport): string {
  const groups = byFolder(report.recipes)
  const folders = groups.length > 1 ? ` in ${plural(groups.length, 'folder')}` : ''
  const body = `<h1 id="h-commands">Repository commands</h1>
<p class="meta">${plural(report.recipes.length, 'command')}${folders} of <code class="root">${esc(visibleLine(report.root))}</code></p>
${folderNav(groups)}
${report.recipes.length ? commandsTable(groups) : '<p class="empty">No commands found in this repository.</p>'}
${diagnosticsList(report.diagnostics)}`
  return shell('Repository commands', body, true, true)
}

export function badRequestPage(message: string): string {
  return shell('Bad request', `<h1>Bad request</h1><p>${esc(message)}. <a href="/">Back to the recipes</a>.</p>`, false)
}

export function notFoundPage(path: string): string {
  return shell('Not found', `<h1>Not found</h1><p>Nothing at <code>${esc(path)}</code>. <a href="/">Back to the recipes</a>.</p>`, false)
}
