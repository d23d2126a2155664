/**
 * Session events to run-file lines: the translation from what the harness logs for a session to
 * the kitchen's `RunLine` format (src/kitchen/domain.ts), one line per event the kitchen reads.
 * Pure: the runner feeds it events and writes what it returns.
 *
 * | session event                                   | run-file line                                   |
 * |-------------------------------------------------|-------------------------------------------------|
 * | `user/message` of the prompt (source `user`)    | `prompted {source: 'prompt', text}`             |
 * | `user/message` of a steered inbox message       | `prompted {source: 'steer', text}`              |
 * | `user/message` from a plugin (runtime context)  | nothing                                         |
 * | `assistant/message`                             | `assistant {model, stopReason, text}`           |
 * | `tool/call`                                     | `tool_start {callId, tool, activity}`           |
 * | `tool/result`                                   | `tool_end {callId, tool, isError, tail, report?}` |
 * | `turn/end` with `reason.kind: 'error'`          | `assistant {stopReason: 'error', error}` (a failed model call logs no assistant message) |
 * | anything else                                   | nothing                                         |
 *
 * A shell command that exited non-zero, was killed or timed out is an error (`commandFailed`).
 * `run_start`, `settled` and `runner_error` come from the runner itself, not from an event.
 */
import { REPORT_STATUSES, REPORT_TOOL, type ModelRef, type Report, type RunLine } from '../kitchen/domain.js'

/** The parts of a session event this module reads; everything is checked before use. */
export interface SessionEventLike {
  type: string
  data?: unknown
}

/** Characters of a tool's output the run file keeps for viewers. */
export const TAIL_CHARS = 400

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The text blocks of a message's content, joined. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return ''
  return content
    .filter((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('')
}

/** The key argument of a tool call, for one activity line: a command, a path, a status. */
export function activityOf(tool: string, rawArguments: string): string {
  let args: unknown
  try {
    args = JSON.parse(rawArguments)
  } catch {
    return ''
  }
  if (!isRecord(args)) return ''
  if (tool === REPORT_TOOL && typeof args.status === 'string') return args.status
  for (const key of ['command', 'cmd', 'path', 'file_path', 'filePath', 'file', 'pattern', 'query', 'url', 'op']) {
    if (typeof args[key] === 'string' && args[key] !== '') return args[key] as string
  }
  const first = Object.values(args).find((v) => typeof v === 'string' && v !== '')
  return typeof first === 'string' ? first : ''
}

/** The last `max` characters of a tool's output, cut at a line start when one is near. */
export function tailOf(text: string, max = TAIL_CHARS): string {
  const trimmed = text.replace(/\s+$/, '')
  if (trimmed.length <= max) return trimmed
  const cut = trimmed.slice(-max)
  const nl = cut.indexOf('\n')
  return nl >= 0 && nl < max / 2 ? cut.slice(nl + 1) : cut
}

/**
 * Whether a shell tool's result says its command failed. dsh's bash tool reports a non-zero exit, a
 * signal or its own timeout as text at the end of the result (`[exit code: 1]`, `[killed by signal:
 * SIGTERM]`, `[timed out after 60000ms]`), not as an error: the kitchen counts such a call as failed.
 */
export function commandFailed(tool: string, text: string): boolean {
  if (!/^bash/.test(tool)) return false
  return /(?:^|\n)\[(?:exit code: [1-9][0-9]*|killed by signal: [^\]\n]+|timed out after [0-9]+ms)\]\s*$/.test(text)
}

/** The report a `chef_report` result carries in its presentation meta (`{report: {status, summary}}`). */
export function reportOf(meta: unknown): Report | undefined {
  const r = isRecord(meta) ? meta.report : undefined
  if (!isRecord(r) || typeof r.summary !== 'string' || !(REPORT_STATUSES as readonly unknown[]).includes(r.status)) return undefined
  return { status: r.status as Report['status'], summary: r.summary }
}

/** A provider failure as one line of text: `402: Payment Required`, else `CODE: message`. */
export function failureText(error: unknown): string {
  if (!isRecord(error)) return 'the model call failed with no error text'
  const message = typeof error.message === 'string' ? error.message : ''
  const head = typeof error.status === 'number' ? String(error.status) : typeof error.code === 'string' ? error.code : ''
  const text = [head, message].filter(Boolean).join(': ')
  return text || 'the model call failed with no error text'
}

/**
 * Translates one session's events into run-file lines. It remembers tool names by call id (a
 * result names only its call) and which user messages were steers.
 */
export class RunLineTranslator {
  private readonly tools = new Map<string, string>()
  private readonly steers = new Set<string>()

  /** `model` is the run's selection: the model a failed call was made with. */
  constructor(private readonly model: ModelRef, private readonly now: () => number = Date.now) {}

  /** A user message this run steered in from the inbox: its `user/message` is a steer, not the prompt. */
  markSteer(messageId: string): void {
    this.steers.add(messageId)
  }

  /** The lines for one event (none for most). */
  translate(event: SessionEventLike): RunLine[] {
    const at = this.now()
    const data = isRecord(event.data) ? event.data : {}
    switch (event.type) {
      case 'user/message': {
        const source = isRecord(data.source) ? data.source : {}
        const id = typeof data.id === 'string' ? data.id : ''
        if (this.steers.has(id)) return [{ type: 'prompted', at, source: 'steer', text: contentText(data.content) }]
        if (source.kind !== 'user') return [] // runtime context, skill catalog, notices: not the person's words
        return [{ type: 'prompted', at, source: 'prompt', text: contentText(data.content) }]
      }
      case 'assistant/message': {
        const message = isRecord(data.message) ? data.message : {}
        const source = isRecord(message.source) ? message.source : {}
        const model: ModelRef = typeof source.provider === 'string' && typeof source.model === 'string'
          ? { provider: source.provider, model: source.model }
          : this.model
        const content = Array.isArray(message.content) ? message.content : []
        const calls = content.some((b) => isRecord(b) && b.type === 'tool-call')
        const stopReason = data.interrupted === true ? 'aborted' : calls ? 'tool_use' : 'stop'
        return [{ type: 'assistant', at, model, stopReason, text: contentText(content) }]
      }
      case 'tool/call': {
        const callId = typeof data.callId === 'string' ? data.callId : ''
        const tool = typeof data.name === 'string' && data.name !== '' ? data.name : 'unknown'
        this.tools.set(callId, tool)
        return [{ type: 'tool_start', at, callId, tool, activity: activityOf(tool, typeof data.arguments === 'string' ? data.arguments : '') }]
      }
      case 'tool/result': {
        const message = isRecord(data.message) ? data.message : {}
        const block = Array.isArray(message.content) && isRecord(message.content[0]) ? message.content[0] : {}
        const source = isRecord(message.source) ? message.source : {}
        const callId = typeof source.callId === 'string' ? source.callId : typeof block.toolCallId === 'string' ? block.toolCallId : ''
        const tool = this.tools.get(callId) ?? 'unknown'
        const output = contentText(block.content)
        const isError = block.isError === true || data.error !== undefined || commandFailed(tool, output)
        const line: Extract<RunLine, { type: 'tool_end' }> = { type: 'tool_end', at, callId, tool, isError }
        const tail = tailOf(output)
        if (tail !== '') line.tail = tail
        const report = tool === REPORT_TOOL && !isError ? reportOf(data.meta) : undefined
        if (report) line.report = report
        return [line]
      }
      case 'turn/end': {
        const reason = isRecord(data.reason) ? data.reason : {}
        if (reason.kind !== 'error') return []
        return [{ type: 'assistant', at, model: this.model, stopReason: 'error', text: '', error: failureText(reason.error) }]
      }
      default:
        return []
    }
  }
}
