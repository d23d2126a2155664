/**
 * `/chef on|off|takeover|board`: the command a person types, answered at once.
 *
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
import { CHEF_ALREADY_OFF_TEXT, CHEF_OFF_TEXT, boardOffText, boardRestoringText, chefUsageText } from '../kitchen/index.js'
import type { KitchenHost } from './host.js'
import { CHEF_COMMAND, chefVerb } from './mode.js'
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

/** The `/chef` command's registration. */
export function chefCommand(ctx: Context, parts: ChefCommandParts) {
  return {
    name: CHEF_COMMAND,
    description: 'Chef mode: dispatch coding tasks to background cooks (on, off, takeover, board)',
    input: { hint: '[on|off|takeover|board]' },
    handler: ({ agent, rawInput }: { agent: ChefAgent; rawInput: string }) => runChefCommand(ctx, parts, agent, rawInput),
  }
}

export async function runChefCommand(ctx: Context, parts: ChefCommandParts, agent: ChefAgent, rawInput: string): Promise<CommandResult> {
  const verb = chefVerb(rawInput)
  if (!verb) return { kind: 'error', text: chefUsageText(rawInput) }
  try {
    switch (verb) {
      case 'on':
      case 'takeover':
        return shown(agent, await parts.sessions.enter(agent, verb === 'takeover'))
      case 'off':
        if (!parts.sessions.has(agent.id)) return { kind: 'success', text: CHEF_ALREADY_OFF_TEXT }
        await parts.sessions.leave(agent, true)
        return { kind: 'success', text: CHEF_OFF_TEXT }
      case 'board':
        return { kind: 'success', text: await board(ctx, parts, agent) }
    }
  } catch (error) {
    return { kind: 'error', text: errorText(error) }
  }
}

/** The board; a session coming back in chef mode is waited for (bounded), never called off. */
async function board(ctx: Context, parts: ChefCommandParts, agent: ChefAgent): Promise<string> {
  const { host, sessions } = parts
  await host.ready()
  if (!host.isOpen) {
    const back = sessions.restore(agent)
    if (back) await within(ctx, back, RESTORE_WAIT_MS)
    await host.ready()
  }
  if (!host.isOpen) return sessions.isRestoring(agent.id) ? boardRestoringText(host.dir) : boardOffText(host.dir)
  return parts.operations.board()
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
