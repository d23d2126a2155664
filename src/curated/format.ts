/**
 * Prints validation issues in just's error style: the message, an arrow to file:line:col, and the
 * source line with a caret under the column.
 *
 *   error: title of recipe `git.x` is 72 characters; shorten it to at most 60 [E_TITLE_TOO_LONG]
 *    ——▶ recipes/git/x.yaml:3:8
 *     |
 *   3 | title: Undo the last commit and then ...
 *     |        ^
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import type { ValidationIssue } from './schema.js'

export interface FormatOptions {
  /** Paths are printed relative to this directory when they are inside it. */
  cwd?: string
  /** Source texts by file; read from disk when absent. */
  sources?: Map<string, string>
}

export function formatIssue(issue: ValidationIssue, options: FormatOptions = {}): string {
  let file = issue.file
  if (options.cwd && isAbsolute(file)) {
    const rel = relative(options.cwd, file)
    if (!rel.startsWith('..') && !isAbsolute(rel)) file = rel
  }
  const where = `${file}${issue.line ? `:${issue.line}${issue.column ? `:${issue.column}` : ''}` : ''}`
  let out = `${issue.severity}: ${issue.message} [${issue.code}]\n ——▶ ${where}\n`
  const source = issue.line ? sourceLine(issue.file, issue.line, options.sources) : undefined
  if (source !== undefined) {
    const n = String(issue.line)
    const pad = ' '.repeat(n.length)
    out += `${pad} |\n${n} | ${source}\n`
    if (issue.column) out += `${pad} | ${' '.repeat(Math.max(0, issue.column - 1))}^\n`
  }
  return out
}

export function formatIssues(issues: readonly ValidationIssue[], options: FormatOptions = {}): string {
  const cache = options.sources ?? new Map<string, string>()
  return issues.map((i) => formatIssue(i, { ...options, sources: cache })).join('\n')
}

function sourceLine(file: string, line: number, sources?: Map<string, string>): string | undefined {
  let text = sources?.get(file)
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      return undefined
    }
    sources?.set(file, text)
  }
  const l = text.split(/\r?\n/)[line - 1]
  return l === undefined ? undefined : l.replace(/\t/g, ' ')
}
