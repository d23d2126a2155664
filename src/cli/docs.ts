/** `command-scout docs`: COMMANDS.md, the repository's commands as a committed document. */
import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { discover, missingRunners } from '../discover.js'
import { renderDiagnostics, renderMarkdown, scanReport } from '../render.js'
import { CliFailure, UsageError, type CliIo } from './io.js'
import { COMMON_HELP, COMMON_OPTIONS, commonConfig, parseOptions } from './options.js'
import { rootProblem } from './root.js'
import { SafeWriteError, writeFileSafely, type SafeWriteResult } from '../safe-write.js'

export const help = `command-scout docs: write COMMANDS.md, the commands a repository declares

Usage: command-scout docs [--root DIR] [--output FILE] [options]

The file is meant to be committed: it holds what the repository declares and
nothing about the machine that wrote it (a runner missing here is reported on
stderr, not in the file). Regenerate it instead of editing it.

Options:
  -o, --output FILE     where to write (default: ROOT/COMMANDS.md; '-' for
                        stdout)
${COMMON_HELP}

Examples:
  command-scout docs
  command-scout docs --root ../api --output - | less

Exit codes: 0 written, 1 the root can't be scanned or the file can't be written,
2 usage error.
`

export function run(argv: string[], io: CliIo): number {
  const { values, positionals } = parseOptions(argv, { ...COMMON_OPTIONS, output: { type: 'string', short: 'o' } }, 'docs')
  if (values.help) return io.stdout(help), 0
  if (positionals.length) throw new UsageError(`docs takes no arguments (got ${positionals.join(' ')}); use --output FILE`, 'docs')
  const { root, config, cache } = commonConfig(values, io, 'docs')
  // The file describes the repository, so the PATH check is left out of it and reported below.
  const result = discover(root, config, { checkRunners: false, cache })
  const problem = rootProblem(result)
  if (problem) throw new CliFailure(problem)
  const report = scanReport(result, config.naming.style)
  const text = renderMarkdown(report)
  const output = (values.output as string | undefined) ?? resolve(root, 'COMMANDS.md')
  if (output === '-') io.stdout(text)
  else {
    const target = resolve(io.cwd, output)
    checkWritable(target)
    // Through a temporary file and a rename: never through a link the repository planted.
    const written = writeSafely(target, text)
    io.stdout(`Wrote ${target} (${report.recipes.length} command${report.recipes.length === 1 ? '' : 's'})${written.replacedLink ? '; it was a symbolic link, which is now replaced by the file' : ''}\n`)
  }
  const runners = missingRunners(result.book.entries()).map((d) => ({ ...d, line: d.line ?? null }))
  const diagnostics = [...report.diagnostics, ...runners]
  if (diagnostics.length) io.stderr(renderDiagnostics(diagnostics))
  return 0
}

/** The usual reasons a write fails, said before trying, in the user's terms. */
function checkWritable(target: string): void {
  const dir = dirname(target)
  if (!existsSync(dir)) throw new CliFailure(`can't write ${target}: the directory ${dir} does not exist`)
  if (!statSync(dir).isDirectory()) throw new CliFailure(`can't write ${target}: ${dir} is not a directory`)
}

/** writeFileSafely, its refusals (a directory, a FIFO at the target) as one-line failures. */
function writeSafely(target: string, text: string): SafeWriteResult {
  try {
    return writeFileSafely(target, text)
  } catch (error) {
    if (error instanceof SafeWriteError) throw new CliFailure(error.message)
    throw error
  }
}
