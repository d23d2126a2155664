/**
 * A unified diff (git's) rendered for reading: one section per file with its status and line counts,
 * each hunk a table of old and new line numbers and the line, added and removed lines marked by
 * class. Rendered here rather than with a diff library: the diff is git's own output in one known
 * format, a library would need its stylesheet served and its markup adapted to the page, and none
 * marks control and bidi characters, which in a diff are exactly what must be seen (markedHtml).
 * The line numbers and the +/- signs are drawn by CSS (`data-n`, `::before`), so selecting code
 * copies the code only. Bounded: at most MAX_RENDER_LINES lines are rendered, the rest is named.
 */
import { markedHtml, plural } from './text.js'

export const MAX_RENDER_LINES = 20_000

export interface DiffLine {
  kind: 'ctx' | 'add' | 'del' | 'note'
  text: string
  old?: number
  new?: number
}

export interface DiffFile {
  /** The path before and after; equal unless renamed, '/dev/null' on the missing side. */
  from: string
  to: string
  status: 'added' | 'deleted' | 'renamed' | 'copied' | 'modified' | 'binary' | 'mode'
  /** git's extended header lines (index, mode, similarity), as written. */
  headers: string[]
  hunks: { header: string; lines: DiffLine[] }[]
  added: number
  removed: number
}

export interface ParsedDiff {
  files: DiffFile[]
  /** Lines parsed into hunks (across files). */
  lines: number
  /** The diff has more lines than were parsed (MAX_RENDER_LINES). */
  cut: boolean
}

/** Unquotes a path git wrote in C quotes ("a/\303\244"), bytes decoded as UTF-8. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path
  const bytes: number[] = []
  const body = path.slice(1, -1)
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, '\\': 92 }
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'))
      continue
    }
    const next = body[i + 1] ?? ''
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8) & 0xff)
      i += 3
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0))
      i += 1
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

/** The path of a `---`/`+++` line without its `a/` or `b/` prefix. */
function sidePath(rest: string): string {
  const p = unquote(rest.replace(/\t$/, ''))
  return p === '/dev/null' ? p : p.replace(/^[ab]\//, '')
}

/** Both paths of a `diff --git a/X b/Y` line (used when no ---/+++ lines follow: binary, mode, pure rename). */
function gitLinePaths(rest: string): [string, string] {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest)
  if (quoted && (rest.startsWith('"') || rest.endsWith('"'))) return [sidePath(quoted[1]!), sidePath(quoted[2]!)]
  // Unquoted names may hold spaces: the split where both sides name the same path, else the first " b/".
  for (let i = rest.indexOf(' b/'); i >= 0; i = rest.indexOf(' b/', i + 1)) {
    if (rest.slice(2, i) === rest.slice(i + 3)) return [rest.slice(2, i), rest.slice(i + 3)]
  }
  const i = rest.indexOf(' b/')
  return i < 0 ? [rest, rest] : [rest.slice(2, i), rest.slice(i + 3)]
}

function newFile(rest: string): DiffFile {
  const [from, to] = gitLinePaths(rest)
  return { from, to, status: 'modified', headers: [], hunks: [], added: 0, removed: 0 }
}

/** Applies one extended header line to its file. */
function header(file: DiffFile, line: string): void {
  file.headers.push(line)
  if (line.startsWith('new file mode')) (file.status = 'added'), (file.from = '/dev/null')
  else if (line.startsWith('deleted file mode')) (file.status = 'deleted'), (file.to = '/dev/null')
  else if (line.startsWith('rename from ')) (file.status = 'renamed'), (file.from = unquote(line.slice(12)))
  else if (line.startsWith('rename to ')) file.to = unquote(line.slice(10))
  else if (line.startsWith('copy from ')) (file.status = 'copied'), (file.from = unquote(line.slice(10)))
  else if (line.startsWith('copy to ')) file.to = unquote(line.slice(8))
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.status = file.status === 'modified' ? 'binary' : file.status
  else if (line.startsWith('old mode') && file.status === 'modified') file.status = 'mode'
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/

/** Parses git's unified diff; at most `maxLines` hunk lines are kept. */
export function parseDiff(text: string, maxLines = MAX_RENDER_LINES): ParsedDiff {
  const files: DiffFile[] = []
  let file: DiffFile | undefined
  let hunk: DiffFile['hunks'][number] | undefined
  let oldNo = 0
  let newNo = 0
  let count = 0
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      file = newFile(line.slice(11))
      files.push(file)
      hunk = undefined
      continue
    }
    if (!file) continue
    const m = HUNK.exec(line)
    if (m) {
      if (count >= maxLines) return { files, lines: count, cut: true }
      hunk = { header: line, lines: [] }
      file.hunks.push(hunk)
      oldNo = Number(m[1])
      newNo = Number(m[2])
      continue
    }
    if (!hunk) {
      if (line.startsWith('--- ')) file.from = sidePath(line.slice(4))
      else if (line.startsWith('+++ ')) file.to = sidePath(line.slice(4))
      else header(file, line)
      continue
    }
    if (count >= maxLines) return { files, lines: count, cut: true }
    count++
    const sign = line[0]
    if (sign === '+') (hunk.lines.push({ kind: 'add', text: line.slice(1), new: newNo++ }), file.added++)
    else if (sign === '-') (hunk.lines.push({ kind: 'del', text: line.slice(1), old: oldNo++ }), file.removed++)
    else if (sign === '\\') hunk.lines.push({ kind: 'note', text: line.slice(1).trim() })
    else hunk.lines.push({ kind: 'ctx', text: line.slice(1), old: oldNo++, new: newNo++ })
  }
  return { files, lines: count, cut: false }
}

/** The path a file is known by on the page: the new one, the old one for a deletion, both for a rename. */
export function filePath(f: DiffFile): string {
  if (f.status === 'deleted') return f.from
  if (f.status === 'renamed' || f.status === 'copied') return `${f.from} → ${f.to}`
  return f.to
}

const counts = (added: number, removed: number) => `<span class="plus">+${added}</span> <span class="minus">−${removed}</span>`
const num = (n: number | undefined) => (n === undefined ? '<td class="ln"></td>' : `<td class="ln" data-n="${n}"></td>`)

function hunkHtml(h: DiffFile['hunks'][number]): string {
  const rows = h.lines.map((l) => `<tr class="${l.kind}">${num(l.old)}${num(l.new)}<td class="code">${markedHtml(l.text)}</td></tr>`)
  return `<tbody><tr class="hunk"><td class="ln"></td><td class="ln"></td><td class="code">${markedHtml(h.header)}</td></tr>${rows.join('')}</tbody>`
}

function fileHtml(f: DiffFile, i: number): string {
  const stat = `<span class="stat">${counts(f.added, f.removed)}</span>`
  const status = `<span class="status status-${f.status}">${f.status}</span>`
  const head = `<h3 class="diff-name" id="file-${i + 1}-name">${status} <code>${markedHtml(filePath(f))}</code> ${stat}</h3>`
  const body = f.hunks.length > 0
    ? `<div class="diff-scroll"><table class="diff">${f.hunks.map(hunkHtml).join('')}</table></div>`
    : `<p class="diff-note">${f.headers.length > 0 ? markedHtml(f.headers.join('\n')) : 'No lines changed.'}</p>`
  return `<section class="diff-file" id="file-${i + 1}" aria-labelledby="file-${i + 1}-name">${head}${body}</section>`
}

/** The file list above a diff of several files. */
function fileList(files: readonly DiffFile[]): string {
  if (files.length < 2) return ''
  const items = files.map((f, i) => `<li><a href="#file-${i + 1}"><code>${markedHtml(filePath(f))}</code></a> ${counts(f.added, f.removed)}</li>`)
  return `<ul class="diff-files">${items.join('')}</ul>`
}

/** The whole diff as HTML; `more` is what to say when it was cut (where to read the rest). */
export function diffHtml(parsed: ParsedDiff, more: string): string {
  if (parsed.files.length === 0) return '<p class="empty">No changes against the base.</p>'
  const added = parsed.files.reduce((n, f) => n + f.added, 0)
  const removed = parsed.files.reduce((n, f) => n + f.removed, 0)
  const summary = `<p class="diff-summary">${plural(parsed.files.length, 'file')} changed, ${counts(added, removed)}${parsed.cut ? ' (so far)' : ''}</p>`
  const cut = parsed.cut ? `<p class="notice">The diff is cut after ${parsed.lines} lines. ${more}</p>` : ''
  return summary + fileList(parsed.files) + parsed.files.map(fileHtml).join('') + cut
}
