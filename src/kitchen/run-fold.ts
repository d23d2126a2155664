/**
 * The run-file fold: what one run did, folded line by line. Pure; the store applies it to the lines
 * that arrived since the last tick, so a tick never re-reads a run.
 */
import { REPORT_TOOL, type Activity, type Millis, type ModelRef, type Report, type RunLine } from './domain.js'

export interface RunFold {
  /** Valid lines folded. */
  readonly lines: number
  /** Lines skipped: not JSON, or not a run-file line. Counted, never fatal. */
  readonly bad: number
  readonly startedAt?: Millis
  readonly sessionId?: string
  /** The model of the run: the last assistant message's, else the one `run_start` selected. */
  readonly model?: ModelRef
  /** A user message reached the session: the brief has been delivered. */
  readonly prompted: boolean
  readonly activity?: Activity
  /** The last non-empty assistant text: the summary of a run that settled without a report. */
  readonly lastText: string
  /** The provider error of the last assistant message, when it ended in `error`. */
  readonly providerError?: string
  readonly report?: Report
  readonly settledAt?: Millis
  readonly runnerError?: string
  /** `at` of the last valid line: the run's last message. */
  readonly lastAt?: Millis
}

export const EMPTY_RUN_FOLD: RunFold = Object.freeze({ lines: 0, bad: 0, prompted: false, lastText: '' })

function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

type Mutable = { -readonly [K in keyof RunFold]: RunFold[K] }

/** Folds one parsed line (or `undefined` for a bad one). Returns a new fold; the old one is unchanged. */
export function foldRunLine(fold: RunFold, line: RunLine | undefined): RunFold {
  const next: Mutable = { ...fold }
  apply(next, line)
  return next
}

/** Folds a batch of lines into one new fold (one copy for the batch, not one per line). */
export function foldRunLines(fold: RunFold, lines: readonly (RunLine | undefined)[]): RunFold {
  if (lines.length === 0) return fold
  const next: Mutable = { ...fold }
  for (const line of lines) apply(next, line)
  return next
}

function apply(next: Mutable, line: RunLine | undefined): void {
  if (line === undefined) {
    next.bad++
    return
  }
  next.lines++
  next.lastAt = line.at
  const act = (text: string) => (next.activity = { text, since: line.at })
  switch (line.type) {
    case 'run_start':
      next.startedAt = line.at
      next.sessionId = line.sessionId
      if (next.model === undefined) next.model = line.model
      act('starting')
      break
    case 'prompted':
      next.prompted = true
      act(line.source === 'steer' ? `steered: ${oneLine(line.text, 80)}` : 'thinking')
      break
    case 'assistant':
      next.model = line.model
      if (line.text.trim() !== '') next.lastText = line.text.trim()
      if (line.stopReason === 'error') {
        next.providerError = line.error ?? 'the model call failed with no error text'
        act(`provider error: ${oneLine(next.providerError, 80)}`)
      } else {
        delete next.providerError
        act(line.text.trim() !== '' && line.stopReason !== 'tool_use' ? `writing: ${oneLine(line.text, 80)}` : 'thinking')
      }
      break
    case 'tool_start':
      act(line.activity.trim() === '' ? line.tool : `${line.tool}: ${oneLine(line.activity)}`)
      break
    case 'tool_end':
      if (line.tool === REPORT_TOOL && line.report && !line.isError) next.report = line.report
      act('thinking')
      break
    case 'settled':
      next.settledAt = line.at
      act('settled')
      break
    case 'runner_error':
      next.runnerError = line.message
      break
  }
}
