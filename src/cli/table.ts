/**
 * The terminal table of a scan. Its own module because measuring display widths (string-width)
 * costs a noticeable share of a JSON scan's start-up, which doesn't need it; string-width itself
 * loads with the first width measured (the package main exports this module).
 */
import { stringWidth } from '../base/lazy.js'
import { oneLine, type ScanReport } from '../book/report.js'
import { visibleLine } from '../base/visible-text.js'

/** Display width of a string in terminal columns (CJK and emoji count double). */
export function displayWidth(text: string): number {
  return stringWidth()(text)
}

/** Cuts a string to at most `width` columns, marking the cut with an ellipsis. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  if (width <= 0) return ''
  if (width === 1) return '…'
  let out = ''
  let used = 0
  for (const ch of text) {
    const w = displayWidth(ch)
    if (used + w > width - 1) break
    out += ch
    used += w
  }
  return `${out}…`
}

/**
 * Shrinks column widths in place until they sum to `budget`: DESCRIPTION first (down to 20
 * columns), then always the widest column, never below 6; the first `fixed` columns are never cut.
 */
function fitWidths(widths: number[], budget: number, fixed = 0): void {
  const sum = () => widths.reduce((a, b) => a + b, 0)
  const desc = widths.length - 1
  if (desc < fixed) return
  widths[desc] = Math.max(Math.min(widths[desc]!, 20), widths[desc]! - (sum() - budget))
  while (sum() > budget) {
    let widest = fixed
    for (let i = fixed + 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i
    if (widths[widest]! <= 6) break
    widths[widest]!--
  }
}

function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)))
}

export interface TableOptions {
  /** Terminal width in columns; undefined means no limit (a pipe). */
  width?: number
  /** Show lifecycle scripts and pre/post hooks too (`scan --all`). */
  all?: boolean
}

/**
 * Rows of cells as aligned columns separated by two spaces; with a width, the last column shrinks
 * first (down to 20 columns), then the widest, and cut cells end in an ellipsis. Control and bidi
 * characters in a cell are shown escaped (visible-text.ts).
 */
export function renderColumns(
  headers: readonly string[] | undefined,
  rows: readonly (readonly string[])[],
  options: TableOptions & { indent?: string; /** Leading columns never cut (names to copy). */ fixed?: number } = {},
): string {
  // Repository text never reaches the terminal raw: an escape sequence in a description could
  // repaint other rows, so control and bidi characters are shown escaped in every cell.
  const all = (headers ? [headers, ...rows] : rows).map((row) => row.map((cell) => visibleLine(cell)))
  if (all.length === 0) return ''
  const indent = options.indent ?? ''
  const columns = all[0]!.length
  const widths = Array.from({ length: columns }, (_, i) => Math.max(...all.map((row) => displayWidth(row[i] ?? ''))))
  const gap = 2
  if (options.width !== undefined) fitWidths(widths, options.width - displayWidth(indent) - gap * (widths.length - 1), options.fixed)
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, i) => {
        const cut = truncateToWidth(cell, widths[i]!)
        return i === cells.length - 1 ? cut : padToWidth(cut, widths[i]!)
      })
      .join(' '.repeat(gap))
      .trimEnd()
  return `${all.map(line).join('\n')}\n`
}

/**
 * A plain aligned table: TOOL, SOURCE, [DIR,] COMMAND, DESCRIPTION. When it is wider than the
 * terminal, DESCRIPTION shrinks first, then COMMAND, never below a readable minimum.
 */
export function renderTable(report: ScanReport, options: TableOptions = {}): string {
  // Hooks (npm lifecycle scripts, pre/post scripts) run around other commands: shown with --all.
  const recipes = options.all ? report.recipes : report.recipes.filter((r) => r.hook === undefined)
  const hidden = report.recipes.length - recipes.length
  const more = hidden > 0 ? `(${hidden} lifecycle script${hidden === 1 ? '' : 's'} and hooks not shown; --all lists them)\n` : ''
  if (recipes.length === 0) return report.recipes.length === 0 ? 'No commands found.\n' : `No commands found besides hooks.\n${more}`
  const showDir = recipes.some((r) => r.cwd !== '.')
  const headers = ['TOOL', 'SOURCE', ...(showDir ? ['DIR'] : []), 'COMMAND', 'DESCRIPTION']
  const rows = recipes.map((r) => [
    r.tool,
    r.source,
    ...(showDir ? [r.cwd] : []),
    oneLine(r.command),
    // With --all, a hook says so first: the description is the column cut first on a narrow terminal.
    r.hook === undefined ? oneLine(r.description) : `[hook] ${oneLine(r.description)}`,
  ])
  return `${renderColumns(headers, rows, options)}${more}`
}
