/**
 * The kitchen row's core: the parts that run a kitchen in this dsh process (the kitchen host, the
 * chef sessions, the tools' operations, wake delivery) built and tied together, and the `/chef`
 * command's answers. provider.ts loads this module only when the row first needs a kitchen (a
 * `/chef` line, a session coming back in chef mode, a call of the service's operations), so a dsh
 * session that never turns chef mode on never loads the kitchen core, its cooks or its merge queue.
 * The parts are plain objects bound to the plugin's own context, because Cordis hands a service to
 * other plugins through proxies bound to theirs.
 */
import type { Context } from '@deepseek-ai/cordis'
import { runChefCommand, type CommandResult } from './command.js'
import { KitchenHost } from './host.js'
import { ChefOperations } from './operations.js'
import { agentsOf } from './plugin-context.js'
import { chefPrompt } from './prompt.js'
import type { KitchenRowConfig } from './schema.js'
import { ChefSessions, type ChefAgent } from './sessions.js'
import { chefTools } from './tools.js'
import { WakeDelivery } from './wakes.js'

export interface KitchenCore {
  readonly host: KitchenHost
  readonly sessions: ChefSessions
  readonly operations: ChefOperations
  readonly wakes: WakeDelivery
  /** A `/chef` line typed in `agent`'s session, answered. */
  command(agent: ChefAgent, rawInput: string): Promise<CommandResult>
  /** The plugin stops: every chef session's `off`, the kitchen closed (the cooks keep running). */
  shutdown(): Promise<void> | void
}

/** The core on the plugin's own context, with the row config in force and the row's log lines. */
export function createKitchenCore(own: Context, row: KitchenRowConfig, report: (lines: readonly string[]) => void): KitchenCore {
  const fire = (event: string, payload: unknown): void => {
    ;(own as unknown as { emit(name: string, ...args: unknown[]): void }).emit(event, payload)
  }
  // The parts refer to each other; each reads the others only once they all exist.
  const parts = {} as { host: KitchenHost; sessions: ChefSessions; operations: ChefOperations; wakes: WakeDelivery }
  parts.wakes = new WakeDelivery({
    target: () => parts.sessions.wakeTarget(),
    alive: (agent) => !parts.host.disposed && agentsOf(own)?.get(agent.id) === agent,
  })
  parts.host = new KitchenHost(own, row, { deliver: parts.wakes.deliver, fire, report })
  parts.operations = new ChefOperations(own, parts.host, fire)
  parts.sessions = new ChefSessions(own, parts.host, {
    tools: () => chefTools(parts.operations),
    prompt: () => chefPrompt(parts.host.kitchenConfig()),
    wakes: parts.wakes,
  })
  return {
    ...parts,
    command: (agent, rawInput) => runChefCommand(own, parts, agent, rawInput),
    shutdown: () => shutdown(parts),
  }
}

function shutdown({ host, sessions, wakes }: { host: KitchenHost; sessions: ChefSessions; wakes: WakeDelivery }): Promise<void> | void {
  if (host.disposed) return
  const scopes = sessions.shutdown()
  const core = host.shutdown()
  wakes.dispose()
  return Promise.all([scopes, core]).then(() => {})
}
