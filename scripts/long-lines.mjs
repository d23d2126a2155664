// Lists the lines of src/**/*.ts wider than MAX_COLUMNS (160) characters, so the sources read on an ordinary
// screen and in side-by-side diffs. Two kinds of line are counted:
//   comment  a line that starts inside a comment (`//`, `/* */`, a JSDoc block) and is too wide: rewrap it;
//   code     any other line that is too wide once its longest literal (a string, a template or a regular
//            expression) is left out.
// A long message kept as one literal stays readable and searchable, and a literal cannot be cut without changing
// what it is, so a line is not counted for the literal it holds, only for the code around it. Literals and comments
// are found with the TypeScript compiler's parser (no type checking, no build needed), not guessed with a pattern.
//   node scripts/long-lines.mjs       how many lines, and how many in each file (most first)
//   node scripts/long-lines.mjs -v    also every line: file:line, its kind and its width
// It exits 1 when it finds a line, else 0. test/unit/line-length.test.mjs uses longLines() to hold the limit.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const ROOT = new URL('..', import.meta.url).pathname
export const MAX_COLUMNS = 160

/** Every .ts file under dir, declaration files aside, in a stable order; links are not followed. */
function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(path, out)
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/**
 * The spans [start, end) the parser reads as literals. `whole`: string literals, regular expressions and whole
 * templates (their `${}` parts too), which a line may hold whatever their width. `opaque`: the text where a `//`
 * or `/*` is no comment, which is the same less the `${}` code of templates.
 */
function literalSpans(sf) {
  const whole = []
  const opaque = []
  const visit = (node) => {
    const span = [node.getStart(sf), node.getEnd()]
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) {
      whole.push(span)
      opaque.push(span)
      return
    }
    if (ts.isTemplateExpression(node)) whole.push(span)
    // A template's head, middles and tail; the `${}` code between them is read on, comments and all.
    else if (ts.isTemplateLiteralToken(node)) opaque.push(span)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return { whole, opaque: opaque.sort((a, b) => a[0] - b[0]) }
}

/** The comments' spans [start, end): the text outside the literals, read for `//` and `/* ... *\/`. */
function commentSpans(text, opaque) {
  const out = []
  let next = 0
  for (let i = 0; i < text.length; i++) {
    while (next < opaque.length && opaque[next][1] <= i) next++
    if (next < opaque.length && opaque[next][0] <= i) {
      i = opaque[next][1] - 1
      continue
    }
    if (text[i] !== '/') continue
    if (text[i + 1] === '/') {
      const end = text.indexOf('\n', i)
      out.push([i, end < 0 ? text.length : end])
    } else if (text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      out.push([i, end < 0 ? text.length : end + 2])
    } else continue
    i = out.at(-1)[1] - 1
  }
  return out
}

const inside = (spans, at) => spans.some(([start, end]) => start <= at && at < end)

/** How much of the line [start, end) the widest of the spans covers. */
function widestCover(spans, start, end) {
  let widest = 0
  for (const [from, to] of spans) widest = Math.max(widest, Math.min(end, to) - Math.max(start, from))
  return widest
}

/** The too-wide lines of one file: { file, line, width, kind: 'code' | 'comment' }, in line order. */
export function fileLongLines(path, text = readFileSync(path, 'utf8'), root = ROOT, limit = MAX_COLUMNS) {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const { whole, opaque } = literalSpans(sf)
  const comments = commentSpans(text, opaque)
  const file = relative(root, path)
  const out = []
  let start = 0
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const lineStart = start
    start += raw.length + 1
    if (line.length <= limit) return
    const first = lineStart + Math.max(0, line.search(/\S/))
    const kind = inside(comments, first) ? 'comment' : 'code'
    const counted = kind === 'comment' ? line.length : line.length - widestCover(whole, lineStart, lineStart + line.length)
    if (counted > limit) out.push({ file, line: i + 1, width: line.length, kind })
  })
  return out
}

/** Every too-wide line under root/src, by file and line. */
export function longLines(root = ROOT, limit = MAX_COLUMNS) {
  return sourceFiles(join(root, 'src')).flatMap((path) => fileLongLines(path, undefined, root, limit))
}

function main(argv) {
  const found = longLines()
  if (argv.includes('-v')) for (const l of found) console.log(`${l.file}:${l.line}: ${l.kind}, ${l.width} characters`)
  const perFile = new Map()
  for (const l of found) perFile.set(l.file, (perFile.get(l.file) ?? 0) + 1)
  console.log(`${found.length} line${found.length === 1 ? '' : 's'} over ${MAX_COLUMNS} characters`)
  const widest = [...perFile].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  for (const [file, count] of widest) console.log(`${String(count).padStart(5)}  ${file}`)
  process.exitCode = found.length ? 1 : 0
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2))
