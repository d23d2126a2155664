/**
 * Chef mode of a session, folded from the `/chef` command events the harness's command registry
 * already logs (`command/run {commandId, name, args}`, then `command/done {commandId, kind}`), and
 * the verb of a `/chef` line. Apart from the line parser (mode.ts) and from the kitchen core: the
 * kitchen row folds every session that starts, before it knows whether it needs its kitchen at all.
 */

export interface SessionEventLike {
  type: string
  data?: unknown
}

export type ChefModeVerb = 'on' | 'off' | 'takeover' | 'board'
export type ChefTaskVerb = 'send' | 'stop' | 'close'
export type ChefVerb = ChefModeVerb | ChefTaskVerb

export const CHEF_COMMAND = 'chef'

const MODE_VERBS: readonly string[] = ['on', 'off', 'takeover', 'board']
const TASK_VERBS: readonly string[] = ['send', 'stop', 'close']

/** A `/chef` line's verb and the rest after it; undefined when its first word is no verb (or a mode verb has more after it). */
export function splitChefLine(args: string | undefined): { verb: ChefVerb; rest: string } | undefined {
  const line = (args ?? '').replace(/^\s+/, '')
  const first = /^\S*/.exec(line)![0]
  const verb = first.toLowerCase()
  const rest = line.slice(first.length)
  if (verb === '') return { verb: 'on', rest: '' }
  if (MODE_VERBS.includes(verb)) return rest.trim() === '' ? { verb: verb as ChefModeVerb, rest } : undefined
  return TASK_VERBS.includes(verb) ? { verb: verb as ChefTaskVerb, rest } : undefined
}

/** Whether the last successful `/chef on|takeover|off` in these events left chef mode on. */
export function foldChefMode(events: Iterable<SessionEventLike>): boolean {
  let active = false
  const running = new Map<string, boolean>()
  for (const e of events) {
    const d = (e.data ?? {}) as Record<string, unknown>
    if (e.type === 'command/run' && d.name === CHEF_COMMAND && typeof d.commandId === 'string') {
      const verb = splitChefLine(typeof d.args === 'string' ? d.args : '')?.verb
      if (verb === 'on' || verb === 'takeover') running.set(d.commandId, true)
      else if (verb === 'off') running.set(d.commandId, false)
    } else if (e.type === 'command/done' && typeof d.commandId === 'string' && running.has(d.commandId)) {
      if (d.kind === 'success') active = running.get(d.commandId)!
      running.delete(d.commandId)
    }
  }
  return active
}
