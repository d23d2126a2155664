/**
 * A cook's run file as a person reads it on the board: each run-file line as one short entry (what
 * `command-scout watch` prints, for a page), and the tail of a run file followed as it grows.
 *
 * The tail reads only regular files, through the kitchen's own line reader (bounded per read, a
 * line over its cap cut and counted), starting at most TAIL_BYTES before the end: a run file of
 * any size costs a bounded read when the board first sees it, and then only what is appended.
 */
import { lstatSync } from 'node:fs'
import { REPORT_TOOL, modelName, parseRunLine, type RunLine } from '../../kitchen/domain.js'
import { LineReader, isCut, type ReadLine } from '../../kitchen/store/index.js'
import { capped } from './text.js'

/** One entry of a run as the board shows it. `text` is raw (the cook's own); pages and JSON escape it. */
export interface RunEntry {
  at: number | null
  kind: 'start' | 'prompt' | 'message' | 'assistant' | 'tool' | 'output' | 'error' | 'report' | 'end' | 'cut'
  text: string
}

/** The longest text of one entry; a run's whole transcript is the cook's session, not the board's. */
export const MAX_ENTRY_CHARS = 4_000
/** How far before the end a run file is first read. */
export const TAIL_BYTES = 256 * 1024
/** What one read of a run file consumes at most; a burst larger than this is read over a few polls. */
const READ_BUDGET = 1024 * 1024
const MAX_LINE = 256 * 1024
/** How much of a run's prompt its entry shows. */
const PROMPT_CHARS = 160
/** Lines of a tool's output shown under it. */
const OUTPUT_LINES = 3

const entry = (at: number | null, kind: RunEntry['kind'], text: string): RunEntry => ({ at, kind, text: capped(text, MAX_ENTRY_CHARS) })
const folded = (text: string) => text.replace(/\s+/g, ' ').trim()

/** One run-file line as an entry, or undefined for a line with nothing to show (an empty turn). */
export function runEntry(line: RunLine): RunEntry | undefined {
  switch (line.type) {
    case 'run_start':
      return entry(line.at, 'start', `session ${line.sessionId}${line.resumed ? ' (resumed)' : ''} on ${modelName(line.model)}`)
    case 'prompted':
      // the prompt is long (the contract, the brief): its start, the whole of it is the run's prompt file
      if (line.source === 'steer') return entry(line.at, 'message', `message: ${line.text.trim()}`)
      return entry(line.at, 'prompt', `prompt: ${capped(folded(line.text), PROMPT_CHARS)}`)
    case 'assistant':
      if (line.stopReason === 'error') return entry(line.at, 'error', `provider error on ${modelName(line.model)}: ${folded(line.error ?? 'no error text')}`)
      return line.text.trim() === '' ? undefined : entry(line.at, 'assistant', line.text.trim())
    case 'tool_start':
      return line.tool === REPORT_TOOL ? undefined : entry(line.at, 'tool', `${line.tool}${line.activity.trim() ? `: ${folded(line.activity)}` : ''}`)
    case 'tool_end': {
      if (line.tool === REPORT_TOOL && line.report) return entry(line.at, 'report', `report ${line.report.status}: ${line.report.summary.trim()}`)
      const tail = (line.tail ?? '').replace(/\s+$/, '').split('\n').filter((l) => l.trim() !== '').slice(-OUTPUT_LINES).join('\n')
      if (line.isError) return entry(line.at, 'error', `${line.tool} failed${tail ? `:\n${tail}` : ''}`)
      return tail ? entry(line.at, 'output', tail) : undefined
    }
    case 'settled':
      return entry(line.at, 'end', `run ended (${line.reason ?? 'settled'})`)
    case 'runner_error':
      return entry(line.at, 'error', `the cook runner failed: ${folded(line.message)}`)
  }
}

/** The entries of what a reader returned; a cut line is one entry saying so, an invalid line none. */
export function entriesOf(lines: readonly ReadLine[]): RunEntry[] {
  const out: RunEntry[] = []
  for (const raw of lines) {
    if (isCut(raw)) {
      out.push(entry(null, 'cut', `a line of ${raw.cut} bytes was cut: ${folded(raw.head).slice(0, 60)}…`))
      continue
    }
    const line = parseRunLine(raw)
    const e = line && runEntry(line)
    if (e) out.push(e)
  }
  return out
}

/**
 * Follows one run file: the first read starts at most TAIL_BYTES before its end (the partial first
 * line dropped), every later one takes what was appended. `keep` entries are held for the board.
 */
export class RunTail {
  private readonly reader = new LineReader({ budget: READ_BUDGET, maxLine: MAX_LINE })
  private started = false
  private skipFirst = false
  /** The newest entries, at most `keep`. */
  readonly recent: RunEntry[] = []
  /** Why the file can't be read (not a regular file); the tail stops there. */
  problem: string | undefined

  constructor(readonly path: string, readonly run: number, private readonly keep: number) {}

  /** Reads what is new: the entries, and whether the file holds more than this read took. */
  read(): { entries: RunEntry[]; more: boolean } {
    if (this.problem) return { entries: [], more: false }
    if (!this.started) this.start()
    let got
    try {
      got = this.reader.read(this.path)
    } catch (error) {
      this.problem = `runs/${this.run}.jsonl can't be read: ${(error as Error).message}`
      return { entries: [entry(null, 'error', this.problem)], more: false }
    }
    let lines = got.lines
    if (got.reset) this.recent.length = 0
    if (this.skipFirst && (lines.length > 0 || got.reset)) {
      if (!got.reset) lines = lines.slice(1)
      this.skipFirst = false
    }
    const entries = entriesOf(lines)
    this.recent.push(...entries)
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep)
    return { entries, more: got.more }
  }

  /** Places the reader TAIL_BYTES before the end of a large file; a missing file starts at 0. */
  private start(): void {
    this.started = true
    const st = lstatSync(this.path, { throwIfNoEntry: false })
    if (!st?.isFile() || st.size <= TAIL_BYTES) return
    this.reader.offset = st.size - TAIL_BYTES
    this.reader.ino = st.ino
    this.skipFirst = true
  }
}

/** The last `keep` entries of a run file, read once (a bounded read: the task page). */
export function runTail(path: string, run: number, keep: number): { entries: RunEntry[]; problem?: string } {
  const tail = new RunTail(path, run, keep)
  for (let reads = 0; reads < 4; reads++) {
    if (!tail.read().more) break
  }
  return { entries: [...tail.recent], ...(tail.problem ? { problem: tail.problem } : {}) }
}
