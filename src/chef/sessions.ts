/**
 * Chef mode per session: the sessions of this process that turned it on, each with the chef tools
 * and the chef's prompt section in a scope of its own (no other session sees them); a session that
 * comes back in chef mode (a resume, a restart of dsh or of the plugin) gets them again, and a
 * caller can wait for that; wakes go to the chef session that turned chef mode on last; the role
 * query's answer for an agent in chef mode.
 */
import type { Context } from '@deepseek-ai/cordis'
import { createScope } from '@deepseek-ai/dsh-scope'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import { chefOnText, rulebookFor, type Standing } from '../kitchen/index.js'
import { isRoleRequest } from './events.js'
import type { KitchenHost } from './host.js'
import { foldChefMode, type SessionEventLike } from './fold.js'
import { errorText } from './plugin-context.js'
import type { WakeAgent, WakeDelivery } from './wakes.js'

export { errorText }

/** The parts of a dsh agent the kitchen uses. */
export interface ChefAgent extends WakeAgent {
  readonly session: {
    readonly events: readonly SessionEventLike[]
    append?(type: string, data: unknown, options?: { surfaceOp: 'append' }): { seq: number }
  }
}

interface ChefSession {
  agent: ChefAgent
  scope: { ctx: Context; dispose(): Promise<void> | void }
  since: number
}

export interface SessionParts {
  /** The chef tools, registered in each chef agent's own scope. */
  tools(): ToolDefinition[]
  /** The chef's system-prompt section, read at each assembly. */
  prompt(): string
  wakes: WakeDelivery
}

export class ChefSessions {
  private readonly chefs = new Map<string, ChefSession>()
  /** Sessions coming back in chef mode: settled once their kitchen is open (or could not be). */
  private readonly restoring = new Map<string, Promise<void>>()

  constructor(private readonly ctx: Context, private readonly host: KitchenHost, private readonly parts: SessionParts) {}

  has(agentId: string): boolean {
    return this.chefs.has(agentId)
  }

  get size(): number {
    return this.chefs.size
  }

  /** Chef mode on in `agent`'s session: its tools first, then the kitchen opened (or taken over). */
  async enter(agent: ChefAgent, takeover: boolean): Promise<string> {
    // The tools first, synchronously: a resumed session's first model request may follow at once.
    const known = this.chefs.get(agent.id)
    if (known) known.since = Date.now()
    else this.chefs.set(agent.id, { agent, scope: this.scopeFor(agent), since: Date.now() })
    let standing: Standing
    try {
      const opened = await this.host.open(agent.id, takeover)
      standing = opened.kind === 'owner' ? { kind: 'owner' } : opened.reader.standing()
    } catch (error) {
      await this.leave(agent, false)
      throw error
    }
    void this.host.tick()
    return chefOnText(this.host.dir, standing)
  }

  /** The chef agent's own scope: the chef tools and the prompt section, gone with the scope. */
  private scopeFor(agent: ChefAgent): ChefSession['scope'] {
    const scope = createScope(this.ctx as never, agent as never) as unknown as ChefSession['scope']
    for (const tool of this.parts.tools()) {
      scope.ctx.effect(() => (scope.ctx as unknown as { tools: { register(t: ToolDefinition): () => void } }).tools.register(tool), `chef tool ${tool.name}`)
    }
    const prompt = scope.ctx.get('systemPrompt') as { section(s: unknown): () => void } | undefined
    if (prompt) scope.ctx.effect(() => prompt.section({ name: 'command-scout:chef', order: 150, text: () => this.parts.prompt() }), 'chef prompt')
    return scope
  }

  /** Chef mode off in a session (or the agent went away); the last one out closes the kitchen. */
  async leave(agent: ChefAgent, emitOff: boolean): Promise<void> {
    const c = this.chefs.get(agent.id)
    if (!c) return
    this.chefs.delete(agent.id)
    this.parts.wakes.agentGone(agent.id)
    if (emitOff) this.host.emitOff(agent.id)
    await Promise.resolve(c.scope.dispose()).catch(() => {})
    if (this.chefs.size === 0) await this.host.close()
  }

  /**
   * A session that comes back (resume, plugin restart) in chef mode gets its tools again. Returns
   * the promise of its kitchen being open while that happens, undefined when the session is not in
   * chef mode; calling it again while it happens returns the same promise.
   */
  restore(agent: ChefAgent): Promise<void> | undefined {
    const pending = this.restoring.get(agent.id)
    if (pending || this.host.disposed || this.chefs.has(agent.id)) return pending
    let on = false
    try {
      on = foldChefMode(agent.session.events)
    } catch {
      return undefined
    }
    if (!on) return undefined
    const back = this.enter(agent, false).then(
      () => {},
      (error) => this.host.report([`chef mode for session ${agent.id} could not come back: ${errorText(error)}`]),
    ).finally(() => this.restoring.delete(agent.id))
    this.restoring.set(agent.id, back)
    return back
  }

  /** Whether the session is coming back in chef mode right now. */
  isRestoring(agentId: string): boolean {
    return this.restoring.has(agentId)
  }

  /** The chef session that turned chef mode on last: it gets the wakes. */
  wakeTarget(): WakeAgent | undefined {
    let best: ChefSession | undefined
    for (const c of this.chefs.values()) if (!best || c.since >= best.since) best = c
    return best?.agent
  }

  /** `kitchen/role:v1` for an agent in chef mode: `chef`, with the chef's rulebook. */
  answerRole(request: unknown): void {
    if (!isRoleRequest(request) || request.role !== undefined || request.agentId === undefined) return
    if (!this.chefs.has(request.agentId)) return
    request.role = 'chef'
    const rb = rulebookFor(this.host.kitchenConfig(), { kind: 'chef' })
    if (rb !== undefined) request.rulebook = rb
  }

  /** The plugin stops: every chef session's `off`, its scope gone; the kitchen closes after. */
  async shutdown(): Promise<void> {
    for (const c of this.chefs.values()) this.host.emitOff(c.agent.id)
    const scopes = [...this.chefs.values()].map((c) => c.scope)
    this.chefs.clear()
    await Promise.all(scopes.map((s) => Promise.resolve(s.dispose()).catch(() => {})))
  }
}
