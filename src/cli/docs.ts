/** `command-scout docs`: COMMANDS.md, the repository's commands as a committed document. */
import { existsSync, statSync, writeSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { discover, missingRunners } from '../book/discover.js'
import { renderDiagnostics, renderMarkdown, scanReport } from '../book/report.js'
import { CliFailure, UsageError, type CliIo } from './io.js'
import { COMMON_HELP, COMMON_OPTIONS, commonConfig, parseOptions } from './options.js'
import { rootProblem } from './root.js'
import { SafeWriteError, writeFileSafely, type SafeWriteResult } from '../base/safe-write.js'
import { visibleLine } from '../base/visible-text.js'

export const help = `command-scout docs: write COMMANDS.md, the commands a repository declares

Usage: command-scout docs [--root DIR] [--output FILE] [options]

The file is meant to be committed: it holds what the repository declares and
nothing about the machine that wrote it (a runner missing here is reported on
stderr, not in the file). Regenerate it instead of editing it.

Options:
  -o, --output FILE     where to write (default: ROOT/COMMANDS.md; '-' or
                        /dev/stdout for stdout, /dev/fd/N for descriptor N)
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
  // Where it goes is known before the scan: a wrong --output fails at once.
  const target = outputTarget((values.output as string | undefined) ?? resolve(root, 'COMMANDS.md'), io.cwd)
  // The file describes the repository, so the PATH check is left out of it and reported below.
  const result = discover(root, config, { checkRunners: false, cache })
  const problem = rootProblem(result)
  if (problem) throw new CliFailure(problem)
  // Only rendered: the recipes' own lists serve.
  const report = scanReport(result, config.naming.style, { sharedLists: true })
  const text = renderMarkdown(report)
  if (typeof target === 'number') writeToStream(target, text, io)
  else {
    checkWritable(target)
    // Through a temporary file and a rename: never through a link the repository planted.
    const written = writeSafely(target, text)
    io.stdout(`Wrote ${visibleLine(target)} (${report.recipes.length} command${report.recipes.length === 1 ? '' : 's'})${written.replacedLink ? '; it was a symbolic link, which is now replaced by the file' : ''}\n`)
  }
  const runners = missingRunners(result.book.entries()).map((d) => ({ ...d, line: d.line ?? null }))
  const diagnostics = [...report.diagnostics, ...runners]
  if (diagnostics.length) io.stderr(renderDiagnostics(diagnostics))
  return 0
}

/** The standard streams by the names shells and systems give them: written to as such, never replaced by a file. */
const STREAM_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/(\d+))|proc\/self\/fd\/(\d+))$/

/**
 * Where --output points: a file path, or a file descriptor for `-` and the names of a stream
 * (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), which are the stream itself. Anything
 * else under /dev, /proc or /sys is refused: writing a file there replaces a device or a system
 * file, or writes into the kernel.
 */
export function outputTarget(output: string, cwd: string): string | number {
  if (output === '') throw new UsageError("--output is empty; give a file path, or '-' for stdout", 'docs')
  if (output === '-') return 1
  const target = resolve(cwd, output)
  const stream = STREAM_PATH.exec(target) ?? STREAM_PATH.exec(target.replace(new RegExp(`^/proc/${process.pid}/`), '/proc/self/'))
  if (stream) return stream[1] ?? stream[2] ? Number(stream[1] ?? stream[2]) : target === '/dev/stderr' ? 2 : 1
  if (/^\/(?:dev|proc|sys)(?:\/|$)/.test(target)) {
    throw new CliFailure(`won't write COMMANDS.md to ${visibleLine(target)}: it is a system path (a device or a kernel file), not a document; use '-' or /dev/stdout for the output stream, or a file path`)
  }
  return target
}

/** The document on a stream: stdout and stderr through the CLI's own writers, another descriptor directly. */
function writeToStream(fd: number, text: string, io: CliIo): void {
  if (fd === 1) return io.stdout(text)
  if (fd === 2) return io.stderr(text)
  try {
    const data = Buffer.from(text)
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off)
  } catch (error) {
    throw new CliFailure(`can't write to file descriptor ${fd}: ${(error as NodeJS.ErrnoException).code === 'EBADF' ? 'it is not open' : (error as Error).message}`)
  }
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
