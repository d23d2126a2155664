/** `command-scout scan`: every command the repository declares, as a table, JSON or Markdown. */
import { discover } from '../book/discover.js'
import { writeRecord } from '../book/scan-record.js'
import { renderDiagnostics, renderJson, renderMarkdown, scanReport } from '../book/report.js'
import { CliFailure, UsageError, type CliIo } from './io.js'
import { COMMON_HELP, COMMON_OPTIONS, commonConfig, parseOptions } from './options.js'
import { rootProblem } from './root.js'
import { COLLECTOR_TABLE } from '../base/collector-table.js'

const FORMATS = ['table', 'json', 'markdown']

/**
 * What scan reads, from the collector table so that a new collector is named without an edit here:
 * each format, with its runners when it has several (package.json scripts: bun, npm, pnpm, yarn).
 */
function readsSentence(): string {
  const parts = COLLECTOR_TABLE.map((row) => {
    const runners = Object.keys(row.runners).sort()
    return runners.length > 1 ? `${row.format} (${runners.join(', ')})` : row.format
  })
  return `Reads ${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}, workspaces included; never runs them.`
}

/** Words filled into lines of at most `width` columns (a word longer than that stands on its own line). */
function wrapWords(text: string, width = 80): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) lines.push(line), (line = '')
    line = line ? `${line} ${word}` : word
  }
  return [...lines, line].join('\n')
}

export const help = `command-scout scan: list every command a repository declares

Usage: command-scout scan [--root DIR] [--format table|json|markdown] [--all]
                          [options]

${wrapWords(`${readsSentence()} Problems in those files are diagnostics on stderr with file and line; they don't fail the scan.`)}

Options:
  -f, --format FMT      table (default; fits the terminal), json (one object)
                        or markdown
      --all             table: also npm lifecycle scripts and pre/post hooks
                        (JSON always lists them, marked "hook")
${COMMON_HELP}

Examples:
  command-scout scan
  command-scout scan --root ../api --format json

Exit codes: 0 success (diagnostics included), 1 the root can't be scanned,
2 usage error.
`

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, { ...COMMON_OPTIONS, format: { type: 'string', short: 'f' }, all: { type: 'boolean' } }, 'scan')
  if (values.help) return io.stdout(help), 0
  if (positionals.length) throw new UsageError(`scan takes no arguments (got ${positionals.join(' ')}); use --root DIR`, 'scan')
  const format = (values.format as string | undefined) ?? 'table'
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be table, json or markdown (got ${format})`, 'scan')
  const { root, config, cache } = commonConfig(values, io, 'scan')
  // With a place for its record, the scan is remembered whole whenever every result can be kept.
  const result = discover(root, config, { cache: cache && io.record ? { ...cache, remembersWhole: true } : cache })
  // Only rendered: the recipes' own lists serve.
  const report = scanReport(result, config.naming.style, { sharedLists: true })
  const problem = rootProblem(result)
  if (problem) {
    // A program reading JSON still gets its one object; people get one line.
    if (format === 'json') io.stdout(renderJson(report))
    throw new CliFailure(problem)
  }
  const out = format === 'json'
    ? renderJson(report)
    : format === 'markdown'
      ? renderMarkdown(report)
      : (await import('./table.js')).renderTable(report, { width: io.columns, all: values.all === true })
  const err = report.diagnostics.length ? renderDiagnostics(report.diagnostics) : ''
  io.stdout(out)
  if (err) io.stderr(err)
  if (io.record && result.inputs) writeRecord(io.record, argv, io.cwd, result.inputs, out, err)
  return 0
}
