/**
 * `/chef on|off|takeover|board|send|stop|close`: the command a person types, answered at once (its
 * registration is provider.ts's, which loads the kitchen core to answer).
 *
 * - `send`, `stop` and `close` are the chef tools' operations (`ChefOperations`, the same calls and
 *   the same answers), typed by a person: the live board offers them ready to copy. Only the lease
 *   owner writes; a read-only session says so and names `/chef takeover`. A line that can't run
 *   says why and what to type.
 * - In a session that has had no turn yet, dsh's web page hides a command's own answer (a command
 *   row alone keeps the conversation blank), so `/chef on` there would show nothing until the first
 *   prompt. The answer then also goes into the session as a kitchen notice (a plugin message, as a
 *   wake is, but with no turn started), which the page shows at once and the chef's model reads as
 *   context with the first prompt.
 * - `/chef board` in a session that is coming back in chef mode (dsh just restarted) waits, bounded,
 *   for its kitchen to open, and says it is still coming back when it is not yet: never that chef
 *   mode is off.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { CHEF_ALREADY_OFF_TEXT, CHEF_OFF_TEXT, KitchenError, boardOffText, boardRestoringText, chefUsageText } from '../kitchen/index.js'
import { chefLineProblemText, chefReadOnlyText } from '../kitchen/derive/texts.js'
import type { KitchenHost } from './host.js'
import { parseChefLine, type ChefLine, type ChefTaskVerb } from './mode.js'
import type { ChefOperations } from './operations.js'
import { errorText, type ChefAgent, type ChefSessions } from './sessions.js'
import { WAKE_PLUGIN } from './wakes.js'

/** How long `/chef board` waits for a session coming back in chef mode to have its kitchen open. */
export const RESTORE_WAIT_MS = 20_000

export interface CommandResult {
  kind: 'success' | 'error'
  text: string
  /** A session event that shows the answer (the notice of a blank session). */
  sourceEventSeq?: number
}

export interface ChefCommandParts {
  host: KitchenHost
  sessions: ChefSessions
  operations: ChefOperations
}

export async function runChefCommand(ctx: Context, parts: ChefCommandParts, agent: ChefAgent, rawInput: string): Promise<CommandResult> {
  const line = parseChefLine(rawInput)
  if (!line) return { kind: 'error', text: chefUsageText(rawInput) }
  try {
    switch (line.verb) {
      case 'on':
      case 'takeover':
        return shown(agent, await parts.sessions.enter(agent, line.verb === 'takeover'))
      case 'off':
        if (!parts.sessions.has(agent.id)) return { kind: 'success', text: CHEF_ALREADY_OFF_TEXT }
        await parts.sessions.leave(agent, true)
        return { kind: 'success', text: CHEF_OFF_TEXT }
      case 'board':
        return { kind: 'success', text: await board(ctx, parts, agent) }
      default:
        return await onTask(ctx, parts, agent, line)
    }
  } catch (error) {
    return { kind: 'error', text: errorText(error) }
  }
}

/** `send`, `stop`, `close`: the tools' operations, in an open kitchen this session owns. */
async function onTask(
  ctx: Context, parts: ChefCommandParts, agent: ChefAgent, line: Exclude<ChefLine, { verb: 'on' | 'off' | 'takeover' | 'board' }>,
): Promise<CommandResult> {
  if ('problem' in line) return { kind: 'error', text: chefLineProblemText(line.verb, line.problem) }
  const closed = await whyClosed(ctx, parts, agent)
  if (closed) return { kind: 'error', text: closed }
  const readOnly = (verb: ChefTaskVerb) => ({ kind: 'error' as const, text: chefReadOnlyText(verb, parts.host.standing()) })
  if (parts.host.standing().kind !== 'owner') return readOnly(line.verb)
  const ops = parts.operations
  try {
    if (line.verb === 'send') return { kind: 'success', text: (await ops.send(line.task, line.message)).text }
    if (line.verb === 'stop') return { kind: 'success', text: (await ops.stop(line.task)).text }
    if (line.how === 'merge') return { kind: 'success', text: (await ops.merge({ tasks: line.tasks })).text }
    return await closeEach(ops, line.tasks, line.how === 'discard')
  } catch (error) {
    if (error instanceof KitchenError && error.code === 'KITCHEN_LEASE_LOST') return readOnly(line.verb)
    throw error
  }
}

/** Several closes, one line each (as chef_close answers); one close answers, or refuses, as a single close does. */
async function closeEach(ops: ChefOperations, ids: readonly string[], discard: boolean): Promise<CommandResult> {
  if (ids.length === 1) return { kind: 'success', text: (await ops.close(ids[0]!, discard)).text }
  const lines: string[] = []
  let failed = 0
  for (const id of ids) {
    try {
      lines.push((await ops.close(id, discard)).text)
    } catch (error) {
      if (error instanceof KitchenError && error.code === 'KITCHEN_LEASE_LOST') throw error
      failed++
      lines.push(`${id} not closed: ${errorText(error)}`)
    }
  }
  return { kind: failed === ids.length ? 'error' : 'success', text: lines.join('\n') }
}

/** Why there is no kitchen to act on in this session (as `/chef board` waits for one coming back), or undefined. */
async function whyClosed(ctx: Context, parts: ChefCommandParts, agent: ChefAgent): Promise<string | undefined> {
  const { host, sessions } = parts
  await opening(ctx, parts, agent)
  if (host.isOpen) return undefined
  return sessions.isRestoring(agent.id) ? boardRestoringText(host.dir) : boardOffText(host.dir)
}

/** Waits for the kitchen to open, and for a session coming back in chef mode (bounded). */
async function opening(ctx: Context, parts: ChefCommandParts, agent: ChefAgent): Promise<void> {
  const { host, sessions } = parts
  await host.ready()
  if (host.isOpen) return
  const back = sessions.restore(agent)
  if (back) await within(ctx, back, RESTORE_WAIT_MS)
  await host.ready()
}

/** The board; a session coming back in chef mode is waited for (bounded), never called off. */
async function board(ctx: Context, parts: ChefCommandParts, agent: ChefAgent): Promise<string> {
  return (await whyClosed(ctx, parts, agent)) ?? parts.operations.board()
}

/** `p`, or nothing after `ms` (on the plugin's own timer, which ends with the plugin). */
function within(ctx: Context, p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = ctx as unknown as { setTimeout(fn: () => void, ms: number): () => void }
    const cancel = timer.setTimeout(resolve, ms)
    void p.finally(() => {
      cancel()
      resolve()
    })
  })
}

/**
 * A session with no turn yet shows no command answer: the answer goes into it as a kitchen notice
 * too, which the page shows at once (and the command's answer points at it).
 */
function shown(agent: ChefAgent, text: string): CommandResult {
  const events = agent.session.events
  if (events.some((e) => e.type === 'turn/start') || typeof agent.session.append !== 'function') return { kind: 'success', text }
  try {
    const message = createUserMessage({
      content: [{ type: 'text', text }],
      source: { kind: 'plugin', plugin: WAKE_PLUGIN, form: 'notice', summary: text.split(':')[0] ?? 'Chef mode' },
    } as never)
    const event = agent.session.append('user/message', message, { surfaceOp: 'append' })
    return { kind: 'success', text, sourceEventSeq: event.seq }
  } catch {
    return { kind: 'success', text } // the notice is a courtesy: the command's own answer stands
  }
}
