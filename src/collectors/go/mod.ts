/**
 * The two Go files the go collector reads as manifests: go.mod's `module` directive and
 * go.work's `use` directives. Both share the modfile grammar (golang.org/x/mod/modfile): one
 * directive per line, or a `verb ( ... )` block, `//` comments, paths bare, "quoted" or
 * `raw`. Written by hand because no JavaScript modfile parser is kept up; only these two
 * directives are read, the rest is skipped.
 */

export interface GoProblem {
  line?: number
  message: string
  severity: 'error' | 'warning'
}

interface Directive {
  verb: string
  args: string[]
  line: number
}

/** One modfile token list per directive, block entries expanded (`use ( a b )` → two `use`). */
function directives(text: string, problems: GoProblem[], file: string): Directive[] {
  const out: Directive[] = []
  let block: string | undefined
  let blockLine = 0
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const tokens = tokenize(lines[i]!)
    if (tokens === undefined) {
      problems.push({ line: i + 1, severity: 'error', message: `${file}: unterminated quoted string; go refuses this file until it is fixed` })
      continue
    }
    if (tokens.length === 0) continue
    if (block !== undefined) {
      if (tokens[0] === ')') block = undefined
      else out.push({ verb: block, args: tokens, line: i + 1 })
      continue
    }
    if (tokens.length === 2 && tokens[1] === '(') {
      block = tokens[0]!
      blockLine = i + 1
      continue
    }
    out.push({ verb: tokens[0]!, args: tokens.slice(1), line: i + 1 })
  }
  if (block !== undefined) problems.push({ line: blockLine, severity: 'error', message: `${file}: the "${block} (" block is never closed; add ")" (go refuses this file)` })
  return out
}

/** The words of one line: bare, "interpreted" (with escapes) or `raw`; undefined on an open quote. */
function tokenize(line: string): string[] | undefined {
  const tokens: string[] = []
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue }
    if (c === '/' && line[i + 1] === '/') break
    if (c === '(' || c === ')') { tokens.push(c); i++; continue }
    if (c === '"') {
      let j = i + 1
      let value = ''
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) { value += line[j + 1]; j += 2 } else value += line[j++]
      }
      if (j >= line.length) return undefined
      tokens.push(value)
      i = j + 1
      continue
    }
    if (c === '`') {
      const end = line.indexOf('`', i + 1)
      if (end === -1) return undefined
      tokens.push(line.slice(i + 1, end))
      i = end + 1
      continue
    }
    let j = i
    while (j < line.length && !' \t\r()"`'.includes(line[j]!) && !(line[j] === '/' && line[j + 1] === '/')) j++
    tokens.push(line.slice(i, j))
    i = j
  }
  return tokens
}

export interface GoMod {
  /** The module path, undefined when go.mod has no module directive. */
  module?: string
  line?: number
  problems: GoProblem[]
}

export function parseGoMod(text: string): GoMod {
  const problems: GoProblem[] = []
  const found = directives(text, problems, 'go.mod').filter((d) => d.verb === 'module')
  if (found.length === 0) {
    problems.push({ line: 1, severity: 'error', message: 'go.mod has no module directive; go refuses it ("no module declaration in go.mod"): add `module <path>` at the top' })
    return { problems }
  }
  const first = found[0]!
  if (found.length > 1) problems.push({ line: found[1]!.line, severity: 'error', message: `go.mod repeats the module directive (first on line ${first.line}); go refuses it: keep one` })
  if (first.args.length !== 1 || first.args[0] === '') {
    problems.push({ line: first.line, severity: 'error', message: 'the module directive needs exactly one module path (`module example.com/app`); go refuses this go.mod' })
    return { problems }
  }
  return { module: first.args[0]!, line: first.line, problems }
}

export interface GoWork {
  /** The `use` paths as written, each with its line, in file order. */
  uses: Array<{ path: string; line: number }>
  problems: GoProblem[]
}

export function parseGoWork(text: string): GoWork {
  const problems: GoProblem[] = []
  const uses: GoWork['uses'] = []
  for (const d of directives(text, problems, 'go.work')) {
    if (d.verb !== 'use') continue
    if (d.args.length !== 1) {
      problems.push({ line: d.line, severity: 'error', message: 'a use directive takes exactly one directory (`use ./api`); go refuses this go.work' })
      continue
    }
    uses.push({ path: d.args[0]!, line: d.line })
  }
  return { uses, problems }
}
