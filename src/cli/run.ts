/**
 * `command-scout run NAME`: runs one discovered command in its directory, streaming its output.
 * ARGS are words, each quoted onto the command line. The call is decided first as every face decides
 * it (book/approval.ts `decideCall`): a missing runner refuses it (exit 127); one the gate judges
 * destructive runs only with a person's yes, asked on the terminal (y/N on stderr, the answer read
 * from stdin), or given beforehand with --yes; with neither it is refused (exit 2).
 */
import { readSync } from 'node:fs'
import { resolve } from 'node:path'
import { decideCall } from '../book/approval.js'
import { commandWithWords } from '../book/risk/index.js'
import { EXIT_BROKEN_PIPE, outputOptions, watchRun } from '../base/process.js'
import { discover } from '../book/discover.js'
import { isTerminal } from './terminal.js'
import { visibleLine } from '../base/visible-text.js'
import { findRecipe, RecipeNotFound } from './find-recipe.js'
import { UsageError, type CliIo } from './io.js'
import { COMMON_HELP, COMMON_OPTIONS, commonConfig, parseOptions } from './options.js'

export const help = `command-scout run: run one command the repository declares

Usage: command-scout run NAME [--timeout MS] [--yes] [options] [-- ARGS...]

NAME is a tool name (make_build), a plain name (build) or runner:name
(pnpm:build); an unknown or ambiguous name lists the candidates. The command
runs in its own directory with this terminal's input, its output streams
through, and its exit code is passed on. ARGS after -- are appended, each as
one quoted word (npm gets the -- it needs).

A command that deletes or overwrites what is not build output, discards work,
rewrites history, publishes or deploys (as its body reads, with ARGS) asks
first: on a terminal, y/N with the reason; elsewhere it is refused (exit 2)
unless --yes says yes beforehand.

Options:
      --timeout MS      kill the command and all its children after MS
                        milliseconds (default 120000); the exit code is then 124
  -y, --yes             run a command that asks for a yes without asking
${COMMON_HELP}

Examples:
  command-scout run make_build -- VERSION=2.0
  command-scout run pnpm:test --timeout 600000
  command-scout run make_clean --yes        (a clean that deletes sources)

Exit codes: the command's own; 127 its runner is not installed, 124 timed out,
130 interrupted (143 SIGTERM, 129 SIGHUP; a second signal kills at once),
141 stdout closed, 2 usage error or a command that needs a yes refused without
a terminal, 1 a person answered no.
`

export async function run(argv: string[], io: CliIo): Promise<number> {
  const dash = argv.indexOf('--')
  const own = dash === -1 ? argv : argv.slice(0, dash)
  const extra = dash === -1 ? [] : argv.slice(dash + 1)
  const { values, positionals } = parseOptions(own, { ...COMMON_OPTIONS, timeout: { type: 'string' }, yes: { type: 'boolean', short: 'y' } }, 'run')
  if (values.help) return io.stdout(help), 0
  if (positionals.length !== 1) throw new UsageError('run takes exactly one command name: command-scout run NAME [-- ARGS...]', 'run')
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1)) {
    throw new UsageError(`--timeout must be a positive whole number of milliseconds (got ${values.timeout})`, 'run')
  }
  const { root, config, cache } = commonConfig(values, io, 'run')
  const result = discover(root, config, { cache })
  const recipe = await find(() => findRecipe(result, config.naming.style, positionals[0]!), io)
  const command = commandWithWords(recipe, extra)
  const cwd = resolve(result.root, recipe.cwd)
  // The same decision as every face's (book/approval.ts), judged with this call's words.
  const decision = decideCall({ recipe, words: extra, command }, { root: result.root, book: result.book })
  // Refused only for a missing runner: its name and how to install it rather than the shell's "not found" (127 all the same).
  if (decision.kind === 'refuse') return io.stderr(`command-scout: ${visibleLine(decision.reason)}\n`), 127
  if (decision.kind === 'ask' && values.yes !== true) {
    const refused = askOrRefuse(decision.need.command, decision.need.reason, io)
    if (refused !== undefined) return refused
  }
  const budget = timeoutMs ?? config.execution.timeoutMs
  const where = recipe.cwd !== '.' ? `   (in ${recipe.cwd})` : ''
  // The command line holds repository text (a script name, a task name): shown with its control characters escaped.
  const shown = visibleLine(command)
  io.stderr(`$ ${shown}${where}${timeoutMs !== undefined ? `   [timeout ${formatMs(budget)}]` : ''}\n`)
  // Loaded here so that scan and docs don't pay for execa's import.
  const { runCommand } = await import('../book/execute.js')
  const control = watchRun()
  // A closing message must start on its own line even when the output did not end with one.
  let atLineStart = true
  const observe = (chunk: Buffer) => {
    if (chunk.length) atLineStart = chunk[chunk.length - 1] === 0x0a
  }
  try {
    const run = await runCommand(command, {
      cwd,
      timeoutMs: budget,
      signal: control.signal,
      killSignal: control.killSignal,
      stdin: 'inherit',
      ...outputOptions(io, io.realStreams === true, control, observe),
    })
    // stdout's reader went away (`run x | head`): the command was stopped; nothing more to say.
    if (control.brokenPipe) return EXIT_BROKEN_PIPE
    const newline = atLineStart ? '' : '\n'
    if (run.timedOut) {
      io.stderr(`${newline}command-scout: timed out after ${formatMs(budget)}: \`${shown}\` and its children were killed (exit 124); ${budget < 1000 ? '--timeout counts milliseconds' : 'raise --timeout MS if it needs longer'}\n`)
      return 124
    }
    if (run.killed) return io.stderr(`${newline}command-scout: interrupted; \`${shown}\` and its children were stopped\n`), control.exitCode() ?? 130
    if (run.exitCode === null) return io.stderr(`${newline}command-scout: \`${shown}\` ended by a signal\n`), 1
    return run.exitCode
  } finally {
    control.dispose()
  }
}

/**
 * A destructive command's question: on a terminal (stdin and stderr), y/N with the reason; a yes
 * lets it run (undefined), anything else is 1. Without a terminal no one can answer: refused, 2.
 */
function askOrRefuse(rawCommand: string, rawReason: string, io: CliIo): number | undefined {
  // Both hold repository text: escaped, so a planted sequence can't repaint the question.
  const command = visibleLine(rawCommand)
  const reason = visibleLine(rawReason)
  if (!isTerminal(0) || !isTerminal(2)) {
    io.stderr(`command-scout: \`${command}\` was not run: it needs a person's yes, because ${reason}.\nTo allow it, run it again from a terminal and answer y, or pass --yes.\n`)
    return 2
  }
  io.stderr(`command-scout: \`${command}\` needs your yes before it runs: ${reason}.\nRun it? [y/N] `)
  if (/^\s*y(es)?\s*$/i.test(readAnswer())) return undefined
  io.stderr(`command-scout: not run (answer y, or pass --yes, to run it)\n`)
  return 1
}

/** One line from the terminal, read from fd 0 directly: process.stdin would keep a reader on the input the command inherits next. */
function readAnswer(): string {
  const buffer = Buffer.alloc(256)
  let answer = ''
  for (;;) {
    let n: number
    try {
      n = readSync(0, buffer, 0, buffer.length, null)
    } catch (error) {
      // A terminal left non-blocking by another process: wait a moment rather than spin.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
        continue
      }
      return answer
    }
    if (n === 0) return answer
    answer += buffer.toString('utf8', 0, n)
    if (answer.includes('\n') || answer.length > 1024) return answer.split('\n')[0]!
  }
}

/** "300 ms", "1500 ms (1.5 s)": milliseconds as given, with seconds when that reads faster. */
function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms} ms (${+(ms / 1000).toFixed(1)} s)`
}

/** Runs the lookup; a miss is re-thrown with its candidates in columns that fit the terminal. */
async function find<T>(lookup: () => T, io: CliIo): Promise<T> {
  try {
    return lookup()
  } catch (error) {
    if (!(error instanceof RecipeNotFound)) throw error
    const { renderColumns } = await import('./table.js')
    const columns = renderColumns(undefined, error.candidates, { indent: '  ', fixed: 1, ...(io.columns ? { width: io.columns } : {}) })
    throw new UsageError(`${error.headline}\n${columns}${error.more ? `  ${error.more}\n` : ''}`.trimEnd(), 'run')
  }
}
