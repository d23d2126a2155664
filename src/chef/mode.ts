/**
 * The `/chef` argument line, parsed, and chef mode of a session, folded from the `/chef` command
 * events the harness's command registry already logs (`command/run {commandId, name, args}`, then
 * `command/done {commandId, kind}`). No custom session event: an event type the harness does not
 * know makes the next resume fail.
 *
 * A message is the rest of the line after the task id, exactly as typed (quotes, backslashes and
 * control characters included): it is the person's words to the cook, stored as given; every
 * answer that shows a part of the line escapes it.
 */
import { isTaskId } from '../kitchen/domain.js'

export interface SessionEventLike {
  type: string
  data?: unknown
}

export type ChefModeVerb = 'on' | 'off' | 'takeover' | 'board'
export type ChefTaskVerb = 'send' | 'stop' | 'close'
export type ChefVerb = ChefModeVerb | ChefTaskVerb

/** How `/chef close` ends a task: closed as it is, landed first (the merge queue), or its work thrown away. */
export type CloseHow = 'close' | 'merge' | 'discard'

/** One parsed `/chef` line; `problem` is why a task verb's line can't run (the answer says what to type). */
export type ChefLine =
  | { verb: ChefModeVerb }
  | { verb: 'send'; task: string; message: string }
  | { verb: 'stop'; task: string }
  | { verb: 'close'; tasks: string[]; how: CloseHow }
  | { verb: ChefTaskVerb; problem: ChefLineProblem }

export type ChefLineProblem =
  | { kind: 'no-task' }
  | { kind: 'bad-task'; given: string }
  | { kind: 'no-message'; task: string }
  | { kind: 'extra'; given: string }
  | { kind: 'merge-and-discard' }

export const CHEF_COMMAND = 'chef'

const MODE_VERBS: readonly string[] = ['on', 'off', 'takeover', 'board']
const TASK_VERBS: readonly string[] = ['send', 'stop', 'close']

/** The verb of a `/chef` argument line, or undefined when it is not one. Empty is `on`. */
export function chefVerb(args: string | undefined): ChefVerb | undefined {
  return parseChefLine(args)?.verb
}

/** The `/chef` line parsed, or undefined when its first word is no verb. */
export function parseChefLine(args: string | undefined): ChefLine | undefined {
  const line = (args ?? '').replace(/^\s+/, '')
  const first = /^\S*/.exec(line)![0]
  const verb = first.toLowerCase()
  const rest = line.slice(first.length)
  if (verb === '') return { verb: 'on' }
  if (MODE_VERBS.includes(verb)) return rest.trim() === '' ? { verb: verb as ChefModeVerb } : undefined
  if (!TASK_VERBS.includes(verb)) return undefined
  if (verb === 'send') return sendLine(rest)
  if (verb === 'stop') return stopLine(rest)
  return closeLine(rest)
}

/** `send <id> <message>`: the message is the rest of the line, as typed (only the space around it dropped). */
function sendLine(rest: string): ChefLine {
  const after = rest.replace(/^\s+/, '')
  const id = /^\S*/.exec(after)![0]
  const problem = idProblem(id)
  if (problem) return { verb: 'send', problem }
  const message = trimSpace(after.slice(id.length))
  if (message === '') return { verb: 'send', problem: { kind: 'no-message', task: id } }
  return { verb: 'send', task: id, message }
}

function stopLine(rest: string): ChefLine {
  const [id = '', ...more] = words(rest)
  const problem = idProblem(id)
  if (problem) return { verb: 'stop', problem }
  if (more.length > 0) return { verb: 'stop', problem: { kind: 'extra', given: more.join(' ') } }
  return { verb: 'stop', task: id }
}

/** `close <id>... [merge|discard]`: the tasks in the order given, each once. */
function closeLine(rest: string): ChefLine {
  const ids: string[] = []
  let how: CloseHow = 'close'
  for (const w of words(rest)) {
    const word = w.toLowerCase()
    if (word === 'merge' || word === 'discard') {
      if (how !== 'close' && how !== word) return { verb: 'close', problem: { kind: 'merge-and-discard' } }
      how = word
      continue
    }
    const problem = idProblem(w)
    if (problem) return { verb: 'close', problem }
    if (!ids.includes(w)) ids.push(w)
  }
  if (ids.length === 0) return { verb: 'close', problem: { kind: 'no-task' } }
  return { verb: 'close', tasks: ids, how }
}

function idProblem(id: string): ChefLineProblem | undefined {
  if (id === '') return { kind: 'no-task' }
  return isTaskId(id) ? undefined : { kind: 'bad-task', given: id }
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '')
}

/** Spaces, tabs and line ends around the message go; everything else in it stays as typed. */
function trimSpace(text: string): string {
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')
}

/** Whether the last successful `/chef on|takeover|off` in these events left chef mode on. */
export function foldChefMode(events: Iterable<SessionEventLike>): boolean {
  let active = false
  const running = new Map<string, boolean>()
  for (const e of events) {
    const d = (e.data ?? {}) as Record<string, unknown>
    if (e.type === 'command/run' && d.name === CHEF_COMMAND && typeof d.commandId === 'string') {
      const verb = chefVerb(typeof d.args === 'string' ? d.args : '')
      if (verb === 'on' || verb === 'takeover') running.set(d.commandId, true)
      else if (verb === 'off') running.set(d.commandId, false)
    } else if (e.type === 'command/done' && typeof d.commandId === 'string' && running.has(d.commandId)) {
      if (d.kind === 'success') active = running.get(d.commandId)!
      running.delete(d.commandId)
    }
  }
  return active
}
