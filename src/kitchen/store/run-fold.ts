/**
 * The run-file fold: what one run did, folded line by line. Pure; the snapshot applies it to the lines
 * that arrived since the last tick, so a tick never re-reads a run. It lives with the store because
 * only the incremental read of a run file uses it: derive reads the folded `RunFold`, never the lines.
 */
import { REPORT_TOOL, oneLine, type RunFold, type RunLine } from '../domain.js'

export type { RunFold }

export const EMPTY_RUN_FOLD: RunFold = Object.freeze({ lines: 0, bad: 0, prompted: false, lastText: '' })


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
      act(line.activity.trim() === '' ? line.tool : `${line.tool}: ${oneLine(line.activity, 120)}`)
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
