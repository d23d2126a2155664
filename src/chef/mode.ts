/**
 * Chef mode of a session, folded from the `/chef` command events the harness's command registry
 * already logs (`command/run {commandId, name, args}`, then `command/done {commandId, kind}`). No
 * custom session event: an event type the harness does not know makes the next resume fail.
 */

export interface SessionEventLike {
  type: string
  data?: unknown
}

export type ChefVerb = 'on' | 'off' | 'takeover' | 'board'

export const CHEF_COMMAND = 'chef'

/** The verb of a `/chef` argument line, or undefined when it is not one. Empty is `on`. */
export function chefVerb(args: string | undefined): ChefVerb | undefined {
  const v = (args ?? '').trim().toLowerCase()
  if (v === '' || v === 'on') return 'on'
  if (v === 'off' || v === 'takeover' || v === 'board') return v
  return undefined
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
