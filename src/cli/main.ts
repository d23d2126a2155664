/**
 * The command-scout CLI: a table of subcommands, each in its own module under src/cli/ with its
 * own help text, loaded only when called. Exit codes: 0 success, 1 failure, 2 usage error; `run`
 * passes the command's own exit code through.
 */
import { readFileSync } from 'node:fs'
import { writeOut } from '../base/process.js'
import { isTerminal } from './terminal.js'
import { describeError } from './errors.js'
import { UsageError, type CliIo, type SubcommandModule } from './io.js'

export type { CliIo } from './io.js'
export { CliFailure, UsageError } from './io.js'
export { findRecipe } from './find-recipe.js'
export { describeError } from './errors.js'

interface Subcommand {
  name: string
  /** The arguments, for the usage line of the global help. */
  usage: string
  /** One or two lines for the global help. */
  summary: string
  load: () => Promise<SubcommandModule>
}

/** Every subcommand, in the order the help lists them: add one by one entry and one module. */
const SUBCOMMANDS: readonly Subcommand[] = [
  { name: 'scan', usage: '[--root DIR] [--format table|json|markdown] [--all]', summary: 'List every command a repository declares. Diagnostics go to stderr.', load: () => import('./scan.js') },
  { name: 'docs', usage: '[--root DIR] [--output FILE]', summary: "Write COMMANDS.md (or --output FILE; '-' for stdout).", load: () => import('./docs.js') },
  { name: 'run', usage: 'NAME [--timeout MS] [-- ARGS...]', summary: 'Run one declared command by name; exits with its exit code.', load: () => import('./run.js') },
  { name: 'recipes', usage: 'list|show|render|validate|skills ...', summary: 'Curated, risk-rated how-to recipes.', load: () => import('./recipes.js') },
  {
    name: 'mcp', usage: '[--root DIR] [--allow-recipe-run]', summary: "An MCP server (stdio): the repository's commands and curated recipes.",
    load: async () => {
      const m = await import('./mcp.js')
      return { help: m.MCP_HELP, run: m.mcpCommand }
    },
  },
  {
    name: 'serve', usage: '[--host HOST] [--port PORT] [--root DIR]', summary: 'The curated recipes (and --root commands) as an HTTP API and pages.',
    load: async () => {
      const m = await import('./serve.js')
      return { help: m.SERVE_HELP, run: m.serveCommand }
    },
  },
  {
    name: 'watch', usage: 'TASK_DIR', summary: "Follow a kitchen task's cook runs live; exits when the task closes.",
    load: async () => {
      const m = await import('./watch.js')
      return { help: m.WATCH_HELP, run: (argv, io) => m.watchCommand(argv, io) }
    },
  },
  { name: 'dsh', usage: 'install|path|overlay', summary: "Install the pinned DeepSeek Harness; print this checkout's overlay.", load: () => import('./dsh.js') },
]

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  return pkg.version
}

function globalHelp(): string {
  const pad = Math.max(...SUBCOMMANDS.map((c) => c.name.length)) + 2
  return `command-scout: the commands a repository declares, for agents and people

Usage:
${SUBCOMMANDS.map((c) => `  command-scout ${c.name} ${c.usage}`).join('\n')}

Commands:
${SUBCOMMANDS.map((c) => `  ${c.name.padEnd(pad)}${c.summary}`).join('\n')}

Every command has its own help: command-scout ${SUBCOMMANDS[0]!.name} --help

Options:
  -h, --help     show this help
  -v, --version  show the version

Exit codes: 0 success (diagnostics don't fail a scan), 1 failure, 2 usage error.
`
}

function defaultIo(): CliIo {
  return {
    stdout: (t) => writeOut(1, t),
    stderr: (t) => writeOut(2, t),
    columns: isTerminal(1) ? process.stdout.columns : process.env.COLUMNS ? Number(process.env.COLUMNS) || undefined : undefined,
    cwd: process.cwd(),
  }
}

export async function main(argv: string[], partial: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = { ...defaultIo(), realStreams: partial.stdout === undefined && partial.stderr === undefined, ...partial }
  const [command, ...rest] = argv
  try {
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      // `help scan` is `scan --help`.
      const topic = command === 'help' && rest[0] !== undefined ? SUBCOMMANDS.find((c) => c.name === rest[0]) : undefined
      if (command === 'help' && rest[0] !== undefined && !topic) throw new UsageError(`no help for "${rest[0]}": it is not a command`)
      if (topic) return await (await topic.load()).run(['--help'], io)
      io.stdout(globalHelp())
      return command === undefined ? 2 : 0
    }
    if (command === '-v' || command === '--version') return io.stdout(`${version()}\n`), 0
    const subcommand = SUBCOMMANDS.find((c) => c.name === command)
    if (!subcommand) {
      const names = SUBCOMMANDS.map((c) => c.name)
      const what = command.startsWith('-') ? `unknown option ${command}` : `unknown command "${command}"`
      throw new UsageError(`${what}; expected ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)
    }
    return await (await subcommand.load()).run(rest, io)
  } catch (error) {
    const { text, exitCode } = describeError(error)
    io.stderr(text)
    return exitCode
  }
}
