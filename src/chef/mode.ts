/**
 * The `/chef` argument line, parsed; its verb and chef mode of a session, folded from the logged
 * `/chef` command events, are fold.ts's (re-exported here). No custom session event: an event type
 * the harness does not know makes the next resume fail.
 *
 * A message is the rest of the line after the task id, exactly as typed (quotes, backslashes and
 * control characters included): it is the person's words to the cook, stored as given; every
 * answer that shows a part of the line escapes it.
 */
import { isTaskId } from '../kitchen/domain.js'
import { splitChefLine, type ChefModeVerb, type ChefTaskVerb, type ChefVerb } from './fold.js'

export { CHEF_COMMAND, foldChefMode, type ChefModeVerb, type ChefTaskVerb, type ChefVerb, type SessionEventLike } from './fold.js'

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

/** The verb of a `/chef` argument line, or undefined when it is not one. Empty is `on`. */
export function chefVerb(args: string | undefined): ChefVerb | undefined {
  return splitChefLine(args)?.verb
}

/** The `/chef` line parsed, or undefined when its first word is no verb. */
export function parseChefLine(args: string | undefined): ChefLine | undefined {
  const split = splitChefLine(args)
  if (!split) return undefined
  const { verb, rest } = split
  if (verb === 'send') return sendLine(rest)
  if (verb === 'stop') return stopLine(rest)
  if (verb === 'close') return closeLine(rest)
  return { verb }
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
