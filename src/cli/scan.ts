/** `command-scout scan`: every command the repository declares, as a table, JSON or Markdown. */
import { discover } from '../book/discover.js'
import { writeRecord } from '../book/scan-record.js'
import { renderDiagnostics, renderJson, renderMarkdown, scanReport } from '../book/report.js'
import { CliFailure, UsageError, type CliIo } from './io.js'
import { COMMON_HELP, COMMON_OPTIONS, commonConfig, parseOptions } from './options.js'
import { rootProblem } from './root.js'

const FORMATS = ['table', 'json', 'markdown']

export const help = `command-scout scan: list every command a repository declares

Usage: command-scout scan [--root DIR] [--format table|json|markdown] [--all]
                          [options]

Reads the manifests of make, npm/yarn/pnpm/bun scripts (with workspaces), just,
deno, Cargo, go-task, Go, Python (poe, pdm, hatch, rye), Composer, VS Code
tasks, CMake presets, mise and Nx; never runs them. Problems in those files are
diagnostics on stderr with file and line; they don't fail the scan.

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
  const result = discover(root, config, { cache })
  const report = scanReport(result, config.naming.style)
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
