/**
 * The command-scout CLI: scan, docs, run, recipes. Exit codes: 0 success, 1 failure, 2 usage error;
 * `run` passes the command's own exit code through.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { quote } from 'shell-quote'
import { ConfigError, normalizeConfig, NAMING_STYLES, RUNNERS, type Config, type ConfigInput } from './config.js'
import { discover, type DiscoverResult } from './discover.js'
import { commandWithArgs, type Recipe } from './recipe.js'
import { renderDiagnostics, renderJson, renderMarkdown, scanReport } from './render.js'
import { writeOrReport } from './safe-write.js'
import { EXIT_BROKEN_PIPE, installPipeGuard, outputOptions, watchRun } from './cli-process.js'

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Terminal width, undefined when stdout is not a terminal. */
  columns?: number
  cwd: string
  /** Whether stdout and stderr are the process's own (then `run` streams with backpressure). */
  realStreams?: boolean
}

export class UsageError extends Error {
  override name = 'UsageError'
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return pkg.version
}

const COLLECTOR_FLAGS = {
  'no-make': 'makefile',
  'no-scripts': 'scripts',
  'no-just': 'justfile',
  'no-deno': 'deno',
  'no-cargo': 'cargo',
  'no-task': 'taskfile',
} as const

const COMMON_OPTIONS = {
  root: { type: 'string', short: 'r' },
  naming: { type: 'string' },
  runner: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...Object.fromEntries(Object.keys(COLLECTOR_FLAGS).map((k) => [k, { type: 'boolean' }])),
} as const satisfies ParseArgsConfig['options']

const HELP = `command-scout: the commands a repository declares, for agents and people

Usage:
  command-scout scan [--root DIR] [--format table|json|markdown]
  command-scout docs [--root DIR] [--output FILE]
  command-scout run NAME [--root DIR] [--timeout MS] [-- ARGS...]
  command-scout recipes list|show|render|validate ...   (curated how-tos; see: command-scout recipes --help)

Commands:
  scan      List every command found (Makefile, package.json scripts, justfile,
            deno tasks, Cargo targets, Taskfile). Diagnostics go to stderr.
  docs      Write COMMANDS.md (or --output FILE; '-' for stdout).
  run       Run one command by tool name (make_build), name (build) or
            runner:name (pnpm:build), streaming its output; exits with its code.

Options:
  -r, --root DIR        directory to scan (default: current directory)
  -f, --format FMT      scan output: table (default), json, markdown
  -o, --output FILE     docs output file (default: ROOT/COMMANDS.md)
      --naming STYLE    tool names: scoped (make_build, default) or flat (build)
      --runner NAME     package.json runner: auto (default), npm, yarn, pnpm, bun
      --no-make --no-scripts --no-just --no-deno --no-cargo --no-task
                        skip a collector
      --timeout MS      run: kill the command tree after MS milliseconds (default 120000)
  -h, --help            show this help
  -v, --version         show the version

Exit codes: 0 success (diagnostics don't fail a scan), 1 failure, 2 usage error.
`

interface Common {
  root: string
  config: Config
}

function commonConfig(values: Record<string, unknown>, io: CliIo): Common {
  const root = resolve(io.cwd, (values.root as string | undefined) ?? '.')
  const input: ConfigInput = { root, collectors: {} }
  if (values.naming !== undefined) {
    if (!NAMING_STYLES.includes(values.naming as never)) throw new UsageError(`--naming must be one of ${NAMING_STYLES.join(', ')}`)
    input.naming = { style: values.naming as Config['naming']['style'] }
  }
  if (values.runner !== undefined) {
    const runners = ['auto', ...RUNNERS]
    if (!runners.includes(values.runner as string)) throw new UsageError(`--runner must be one of ${runners.join(', ')}`)
    input.collectors!.scripts = { runner: values.runner as 'auto' }
  }
  for (const [flag, key] of Object.entries(COLLECTOR_FLAGS)) {
    if (values[flag]) input.collectors![key] = { ...(input.collectors![key] ?? {}), enabled: false }
  }
  return { root, config: normalizeConfig(input) }
}

function parse(argv: string[], options: ParseArgsConfig['options']): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    return { values: values as Record<string, string | boolean | undefined>, positionals }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

async function scanCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { ...COMMON_OPTIONS, format: { type: 'string', short: 'f' } })
  if (values.help) return io.stdout(HELP), 0
  if (positionals.length) throw new UsageError(`scan takes no arguments (got ${positionals.join(' ')}); use --root DIR`)
  const format = (values.format as string | undefined) ?? 'table'
  if (!['table', 'json', 'markdown'].includes(format)) throw new UsageError('--format must be table, json or markdown')
  const { root, config } = commonConfig(values, io)
  const result = discover(root, config)
  const report = scanReport(result, config.naming.style)
  if (format === 'json') io.stdout(renderJson(report))
  else if (format === 'markdown') io.stdout(renderMarkdown(report))
  else io.stdout((await import('./table.js')).renderTable(report, { width: io.columns }))
  if (report.diagnostics.length) io.stderr(renderDiagnostics(report.diagnostics))
  return rootProblem(result) ? 1 : 0
}

/** The one scan diagnostic that is a failure: the root itself is unusable. */
function rootProblem(result: DiscoverResult): boolean {
  return result.diagnostics.some((d) => d.source === 'scan')
}

function docsCommand(argv: string[], io: CliIo): number {
  const { values, positionals } = parse(argv, { ...COMMON_OPTIONS, output: { type: 'string', short: 'o' } })
  if (values.help) return io.stdout(HELP), 0
  if (positionals.length) throw new UsageError(`docs takes no arguments (got ${positionals.join(' ')})`)
  const { root, config } = commonConfig(values, io)
  const result = discover(root, config)
  if (rootProblem(result)) return io.stderr(renderDiagnostics(scanReport(result).diagnostics)), 1
  const report = scanReport(result, config.naming.style)
  const text = renderMarkdown(report)
  const output = (values.output as string | undefined) ?? resolve(root, 'COMMANDS.md')
  if (output === '-') io.stdout(text)
  else {
    const target = resolve(io.cwd, output)
    const written = writeOrReport(target, text, io.stderr)
    if (written === undefined) return 1
    io.stdout(`Wrote ${target} (${report.recipes.length} commands)${written.replacedLink ? '; it was a symbolic link, which is now replaced by the file' : ''}\n`)
  }
  if (report.diagnostics.length) io.stderr(renderDiagnostics(report.diagnostics))
  return 0
}

/** Finds a recipe by tool name, id, `runner:name`, `source:name` or plain name; ambiguity is an error. */
export function findRecipe(result: DiscoverResult, style: Config['naming']['style'], wanted: string): Recipe {
  const names = result.book.assignToolNames(style)
  const all = result.book.entries()
  const byTool = all.filter((r) => names.get(r.id) === wanted || r.id === wanted)
  if (byTool.length === 1) return byTool[0]!
  const colon = wanted.indexOf(':')
  let matches = all.filter((r) => r.name === wanted || r.aliases.includes(wanted))
  if (matches.length === 0 && colon > 0) {
    const [prefix, name] = [wanted.slice(0, colon), wanted.slice(colon + 1)]
    matches = all.filter((r) => (r.runner === prefix || r.source === prefix) && (r.name === name || r.aliases.includes(name)))
  }
  if (matches.length === 1) return matches[0]!
  const list = (rs: Recipe[]) => rs.map((r) => `  ${names.get(r.id)}  (${r.command}${r.cwd !== '.' ? ` in ${r.cwd}` : ''})`).join('\n')
  if (matches.length > 1) {
    throw new UsageError(`"${wanted}" is ambiguous; use one of these tool names:\n${list(matches)}`)
  }
  throw new UsageError(
    all.length === 0
      ? `no command "${wanted}": no commands were found under ${result.root}`
      : `no command "${wanted}"; available:\n${list(all.slice(0, 40))}${all.length > 40 ? `\n  ... and ${all.length - 40} more (command-scout scan)` : ''}`,
  )
}

async function runSubcommand(argv: string[], io: CliIo): Promise<number> {
  const dash = argv.indexOf('--')
  const own = dash === -1 ? argv : argv.slice(0, dash)
  const extra = dash === -1 ? [] : argv.slice(dash + 1)
  const { values, positionals } = parse(own, { ...COMMON_OPTIONS, timeout: { type: 'string' } })
  if (values.help) return io.stdout(HELP), 0
  if (positionals.length !== 1) throw new UsageError('run takes exactly one command name: command-scout run NAME [-- ARGS...]')
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1)) throw new UsageError('--timeout must be a positive number of milliseconds')
  const { root, config } = commonConfig(values, io)
  const result = discover(root, config)
  const recipe = findRecipe(result, config.naming.style, positionals[0]!)
  const command = commandWithArgs(recipe, extra.length ? quote(extra) : '')
  const cwd = resolve(result.root, recipe.cwd)
  io.stderr(`$ ${command}${recipe.cwd !== '.' ? `   (in ${recipe.cwd})` : ''}\n`)
  // Loaded here so that scan and docs don't pay for execa's import.
  const { runCommand } = await import('./execute.js')
  const control = watchRun()
  try {
    const run = await runCommand(command, {
      cwd,
      timeoutMs: timeoutMs ?? config.execution.timeoutMs,
      signal: control.signal,
      killSignal: control.killSignal,
      stdin: 'inherit',
      ...outputOptions(io, io.realStreams === true, control),
    })
    if (control.brokenPipe) return EXIT_BROKEN_PIPE
    if (run.timedOut) return io.stderr(`command-scout: timed out after ${timeoutMs ?? config.execution.timeoutMs} ms; the command and its children were killed\n`), 124
    if (run.killed) return control.exitCode() ?? 130
    if (run.exitCode === null) return 1
    return run.exitCode
  } finally {
    control.dispose()
  }
}

async function recipesSubcommand(argv: string[], io: CliIo): Promise<number> {
  const { recipesCommand } = await import('./curated/cli.js')
  return recipesCommand(argv, io)
}

export async function main(argv: string[], partial: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    columns: process.stdout.isTTY ? process.stdout.columns : process.env.COLUMNS ? Number(process.env.COLUMNS) || undefined : undefined,
    cwd: process.cwd(),
    realStreams: partial.stdout === undefined && partial.stderr === undefined,
    ...partial,
  }
  if (io.realStreams) installPipeGuard()
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.stdout(HELP)
        return command === undefined ? 2 : 0
      case '-v':
      case '--version':
        io.stdout(`${version()}\n`)
        return 0
      case 'scan':
        return await scanCommand(rest, io)
      case 'docs':
        return docsCommand(rest, io)
      case 'run':
        return await runSubcommand(rest, io)
      case 'recipes':
        return await recipesSubcommand(rest, io)
      default:
        throw new UsageError(`unknown command "${command}"; expected scan, docs, run or recipes`)
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.stderr(`command-scout: ${error.message}\n${error instanceof UsageError ? "Try 'command-scout --help'.\n" : ''}`)
      return 2
    }
    io.stderr(`command-scout: ${(error as Error)?.stack ?? error}\n`)
    return 1
  }
}
