/**
 * `command-scout watch <taskDir>`: follows a kitchen task's run files for a person. It prints the
 * highest `runs/<n>.jsonl` from its start, then what is appended (polled every 250 ms): prompts and
 * steers, the assistant's text, one line per tool call with its key argument, a dim tail of each
 * tool's output, provider errors in red, the report, and the run's end. A newer run gets a
 * separator line. It exits 0 once the task's `log.jsonl` has a `closed` event. It decides nothing.
 *
 * Everything it shows was written by a cook or a model: every text has its control and bidi
 * characters escaped (no ESC, BEL or OSC sequence reaches the terminal). It reads only regular files
 * (a FIFO or device in a run file's place is an error line, never a read that blocks), a bounded
 * amount at a time through the kitchen's line reader (a line over its cap is shown as cut), so a
 * run file of any size streams in bounded memory.
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { REPORT_TOOL, parseLogLine, parseRunLine, type RunLine } from '../kitchen/domain.js'
import { LineReader, isCut, isTaskDirIn, logFileIn, runFileIn, runNumbersIn, type ReadLine } from '../kitchen/store/index.js'
import { truncateToWidth } from './table.js'
import { visible, visibleLine } from '../base/visible-text.js'

export const WATCH_HELP = `command-scout watch: follow a kitchen task's cook runs

Usage:
  command-scout watch TASK_DIR

TASK_DIR is a task directory of a kitchen (<kitchen>/tasks/<id>). The newest run
is shown from its start, then followed as the cook works: prompts and messages,
the assistant's text, one line per tool call, a dim tail of tool output,
provider errors in red, the report, and a separator for each new run. Exits 0
once the task is closed; Ctrl-C stops watching (the cook goes on).

Options:
  -h, --help   show this help

Colour is off when stdout is not a terminal or NO_COLOR is set.
`

export const POLL_MS = 250
/** Lines of a tool's output tail shown under its call. */
const TAIL_LINES = 3

export interface WatchIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  columns?: number
  cwd: string
  /** stdout is the process's own: watch waits for it to drain between large reads. */
  realStreams?: boolean
}

export interface Style {
  color: boolean
  /** Terminal width for one-line entries; undefined: no truncation. */
  columns?: number
}

const paint = (code: string) => (s: Style, text: string) => (s.color ? `\x1b[${code}m${text}\x1b[0m` : text)
const dim = paint('2')
const red = paint('31')
const bold = paint('1')
const cyan = paint('36')

/** A cook's text inside one line: whitespace folded, control and bidi characters escaped. */
function oneLine(text: string): string {
  return visibleLine(text.replace(/\s+/g, ' ').trim())
}

function fit(s: Style, text: string): string {
  return s.columns ? truncateToWidth(text, s.columns) : text
}

/** A cook's multi-line text, each line indented, escaped (tabs and newlines kept). */
function indent(text: string, prefix = '  '): string {
  return visible(text.replace(/\s+$/, '')).split('\n').map((l) => `${prefix}${l}`).join('\n')
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything (no-color.org). */
export function useColor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === ''
}

/** The separator before run `n`. */
export function separator(n: number, s: Style): string {
  return bold(s, `── run ${n} ${'─'.repeat(24)}`) + '\n'
}

/** How one run-file line looks to a person ('' for a line with nothing to show). */
export function renderRunLine(line: RunLine, s: Style): string {
  switch (line.type) {
    case 'run_start':
      return dim(s, `session ${oneLine(line.sessionId)}${line.resumed ? ' (resumed)' : ''} on ${oneLine(`${line.model.provider}/${line.model.model}`)}`) + '\n'
    case 'prompted':
      return line.source === 'steer'
        ? cyan(s, '▶ message:') + '\n' + indent(line.text) + '\n'
        : cyan(s, '▶ prompt:') + '\n' + indent(line.text) + '\n'
    case 'assistant':
      if (line.stopReason === 'error') return red(s, `✗ provider error on ${oneLine(`${line.model.provider}/${line.model.model}`)}: ${oneLine(line.error ?? 'no error text')}`) + '\n'
      return line.text.trim() === '' ? '' : `${visible(line.text.replace(/\s+$/, ''))}\n`
    case 'tool_start':
      return line.tool === REPORT_TOOL ? '' : fit(s, `• ${oneLine(line.tool)}${line.activity ? ` ${oneLine(line.activity)}` : ''}`) + '\n'
    case 'tool_end': {
      if (line.tool === REPORT_TOOL && line.report) return bold(s, `■ report ${line.report.status}: `) + visible(line.report.summary.trim()) + '\n'
      const tail = visible((line.tail ?? '').replace(/\s+$/, '')).split('\n').filter((l) => l !== '').slice(-TAIL_LINES)
      const head = line.isError ? [red(s, fit(s, `  ✗ ${oneLine(line.tool)} failed`))] : []
      return [...head, ...tail.map((l) => dim(s, fit(s, `  │ ${l}`)))].map((l) => `${l}\n`).join('')
    }
    case 'settled':
      return dim(s, `— run ended (${oneLine(line.reason ?? 'settled')})`) + '\n'
    case 'runner_error':
      return red(s, `✗ the cook runner failed: ${oneLine(line.message)}`) + '\n'
  }
}

/** A line of the run file longer than the reader keeps. */
export function renderCut(bytes: number, head: string, s: Style): string {
  const start = oneLine(head)
  return dim(s, fit(s, `✂ a line of ${bytes} bytes was cut: ${start.length > 60 ? start.slice(0, 60) : start}…`)) + '\n'
}

/** Why watch stopped: one line for the person. */
export class WatchError extends Error {
  override name = 'WatchError'
}

/**
 * Follows one task. `step()` reads what is new and returns true once the task is closed and
 * everything was shown; the command calls it every POLL_MS, tests call it directly.
 */
export class TaskWatcher {
  private run: number | undefined
  private reader = new LineReader()
  private readonly log = new LineReader()
  private closed = false
  private waited = false
  /** A file had more than one read's worth: step again at once instead of after the poll. */
  more = false

  constructor(private readonly taskDir: string, private readonly out: (text: string) => void, private readonly style: Style) {}

  /** One bounded read of `file`; a file that can't be read ends the watch with one line. */
  private read(reader: LineReader, file: string): { lines: ReadLine[]; more: boolean } {
    try {
      return reader.read(file)
    } catch (error) {
      throw new WatchError(`can't read ${file}: ${(error as Error).message}`)
    }
  }

  step(): boolean {
    this.more = false
    const log = this.read(this.log, logFileIn(this.taskDir))
    if (log.more) this.more = true
    for (const text of log.lines) {
      if (!isCut(text) && parseLogLine(text)?.type === 'closed') this.closed = true
    }
    const runs = runNumbersIn(this.taskDir)
    if (this.run === undefined && runs.length > 0) this.open(runs.at(-1)!)
    if (this.run === undefined && !this.waited && !this.closed) {
      this.waited = true
      this.out(dim(this.style, '— no run yet; waiting for the cook') + '\n')
    }
    if (this.run !== undefined) {
      const more = this.drain()
      // A newer run: finish the current file, then switch (a cook writes its last lines before the next run).
      const newer = runs.find((n) => n > this.run!)
      if (more) this.more = true
      else if (newer !== undefined) {
        this.open(newer)
        if (this.drain()) this.more = true
      }
    }
    if (this.more) return false
    if (this.closed) this.out(dim(this.style, '— the task is closed') + '\n')
    return this.closed
  }

  private open(n: number): void {
    this.run = n
    this.reader = new LineReader()
    this.out(separator(n, this.style))
  }

  /** Shows what one bounded read brings; true when the file holds more. */
  private drain(): boolean {
    const r = this.read(this.reader, runFileIn(this.taskDir, this.run!))
    for (const text of r.lines) {
      if (isCut(text)) {
        this.out(renderCut(text.cut, text.head, this.style))
        continue
      }
      const line = parseRunLine(text)
      if (line) this.out(renderRunLine(line, this.style))
    }
    return r.more
  }
}

/** The CLI subcommand. Resolves with the exit code (0 when the task closed). */
export async function watchCommand(argv: string[], io: WatchIo, options: { color?: boolean; pollMs?: number } = {}): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h' } } })
  } catch (error) {
    io.stderr(`command-scout: ${(error as Error).message}\nTry 'command-scout watch --help'.\n`)
    return 2
  }
  if (parsed.values.help) return io.stdout(WATCH_HELP), 0
  if (parsed.positionals.length !== 1) {
    io.stderr("command-scout: watch takes one task directory: command-scout watch <kitchen>/tasks/<id>\nTry 'command-scout watch --help'.\n")
    return 2
  }
  const taskDir = resolve(io.cwd, parsed.positionals[0]!)
  const shownDir = visibleLine(taskDir)
  if (!existsSync(taskDir)) {
    io.stderr(`command-scout: no task directory at ${shownDir}; give <kitchen>/tasks/<id> (chef_board lists the tasks)\n`)
    return 1
  }
  if (!statSync(taskDir).isDirectory() || !isTaskDirIn(taskDir)) {
    io.stderr(`command-scout: ${shownDir} is not a kitchen task directory (it has neither task.json nor runs/)\n`)
    return 1
  }
  const color = options.color ?? useColor(process.stdout, process.env)
  const watcher = new TaskWatcher(taskDir, io.stdout, { color, ...(io.columns ? { columns: io.columns } : {}) })
  const pollMs = options.pollMs ?? POLL_MS
  const fail = (error: unknown): number => {
    const why = error instanceof WatchError ? error.message : `stopped: ${(error as Error)?.message ?? String(error)}`
    io.stderr(`command-scout: watch: ${visibleLine(why)}\n`)
    return 1
  }
  // What was written so far may be large: let the terminal take it before the next read.
  const drained = async (): Promise<void> => {
    if (io.realStreams && process.stdout.writableLength > 1024 * 1024) await new Promise((r) => process.stdout.once('drain', r))
  }
  for (;;) {
    let closed: boolean
    try {
      closed = watcher.step()
    } catch (error) {
      return fail(error)
    }
    if (closed) return 0
    await drained()
    await new Promise((r) => (watcher.more ? setImmediate(r) : setTimeout(r, pollMs)))
  }
}
