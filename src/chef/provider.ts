/**
 * `dsh-command-scout/chef`: the kitchen service's provider in the harness (`ctx.kitchen`), and the
 * Cordis face of the kitchen in one dsh process. It builds the parts (the kitchen host, the chef
 * sessions, the tools' operations, wake delivery) and ties them to the plugin's context and
 * lifetime: the `/chef` command, the agent and inbox events, the integration events, the tick
 * timer, a live row config, and the shutdown. The parts are plain objects bound to the plugin's own
 * context, because Cordis hands a service to other plugins through proxies bound to theirs.
 */
import type { Context } from '@deepseek-ai/cordis'
import { COOKS_REQUEST_EVENT, ROLE_EVENT } from '../kitchen/index.js'
import { chefCommand } from './command.js'
import type { CooksSnapshotView } from './events.js'
import { KitchenHost, PLUGIN_NAME } from './host.js'
import { ChefOperations } from './operations.js'
import { chefPrompt } from './prompt.js'
import { KitchenRowConfig } from './schema.js'
import { KitchenService, type KitchenRole } from './service.js'
import { ChefSessions, type ChefAgent } from './sessions.js'
import { chefTools } from './tools.js'
import { WakeDelivery } from './wakes.js'

export const name = PLUGIN_NAME
export type { ChefAgent }

export default class KitchenProvider extends KitchenService {
  static inject = ['agents', 'commands', 'tools', 'timer']
  static Config = KitchenRowConfig

  private readonly host: KitchenHost
  private readonly sessions: ChefSessions
  private readonly wakes: WakeDelivery
  readonly operations: ChefOperations

  constructor(ctx: Context, config: KitchenRowConfig) {
    super(ctx)
    const own = ctx
    const fire = (event: string, payload: unknown): void => {
      ;(own as unknown as { emit(name: string, ...args: unknown[]): void }).emit(event, payload)
    }
    this.wakes = new WakeDelivery({
      target: () => this.sessions.wakeTarget(),
      alive: (agent) => !this.host.disposed && agentsOf(own)?.get(agent.id) === agent,
    })
    this.host = new KitchenHost(own, config, { deliver: this.wakes.deliver, fire })
    this.operations = new ChefOperations(own, this.host, fire)
    this.sessions = new ChefSessions(own, this.host, {
      tools: () => chefTools(this.operations),
      prompt: () => chefPrompt(this.host.kitchenConfig()),
      wakes: this.wakes,
    })
    this.wire(own)
  }

  /** The plugin's context: the command, the events, the timer and the shutdown; chef sessions already there come back. */
  private wire(ctx: Context): void {
    const c = ctx as unknown as {
      commands: { register(definition: unknown): () => void }
      setInterval(fn: () => void, ms: number): () => void
      on(event: string, fn: (...args: never[]) => unknown): () => void
    }
    ctx.effect(() => c.commands.register(chefCommand(ctx, { host: this.host, sessions: this.sessions, operations: this.operations })), 'kitchen /chef command')
    c.on('agent/session-start', ({ agent }: { agent: ChefAgent }) => void this.sessions.restore(agent))
    c.on('agent/created', ({ agent }: { agent: ChefAgent }) => void this.sessions.restore(agent))
    c.on('agent/disposed', ({ agent }: { agent: ChefAgent }) => void this.sessions.leave(agent, false))
    c.on('agent/inbox/claimed', ({ message }: { message: { id: string } }) => this.wakes.claimed(message.id))
    c.on('agent/inbox/discarded', ({ message }: { message: { id: string } }) => this.wakes.discarded(message.id))
    c.on(COOKS_REQUEST_EVENT, () => void this.host.snapshot())
    c.on(ROLE_EVENT, (request: never) => this.sessions.answerRole(request))
    // A patch-layer edit of the row: take the new config live, without the restart that `next()` would do.
    c.on('internal/update', (config: never) => this.host.reconfigure(config))
    c.setInterval(() => void this.host.tick(), 1000)
    ctx.effect(() => () => this.shutdown(), 'kitchen shutdown')
    for (const a of agentsOf(ctx)?.list() ?? []) void this.sessions.restore(a as ChefAgent)
  }

  private shutdown(): Promise<void> | void {
    if (this.host.disposed) return
    const scopes = this.sessions.shutdown()
    const core = this.host.shutdown()
    this.wakes.dispose()
    return Promise.all([scopes, core]).then(() => {})
  }

  get dir(): string { return this.host.dir }
  get config(): KitchenRowConfig { return this.host.row }
  get role(): KitchenRole { return this.host.role }
  isChef(agentId: string): boolean { return this.sessions.has(agentId) }
  tick(): Promise<void> { return this.host.tick() }
  snapshot(): CooksSnapshotView | undefined { return this.host.snapshot() }
}

/** The agent registry, while the plugin runs. */
function agentsOf(ctx: Context): { get(id: string): unknown; list(): unknown[] } | undefined {
  try {
    return ctx.get('agents') as never
  } catch {
    return undefined
  }
}

export { KitchenProvider }
