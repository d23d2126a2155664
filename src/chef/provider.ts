/**
 * `dsh-command-scout/chef`: the kitchen service's provider in the harness (`ctx.kitchen`), and the
 * Cordis face of the kitchen in one dsh process: the `/chef` command, the agent, inbox and
 * integration events, the tick timer, a live row config and the shutdown, all there from the row's
 * start. The kitchen itself (core.ts: the kitchen host, the chef sessions, the tools' operations,
 * wake delivery, and under them the kitchen core, its cooks and its merge queue) loads only when it
 * is first needed: a `/chef` line, a session coming back in chef mode, a call of the operations.
 * Until then every event has nothing to answer, as the core would not have: no chef session, no
 * snapshot, no pending wake, no open kitchen to tick, and a role request is not about a chef.
 *
 * The core loads synchronously where Node can (`require` of an ES module, Node >= 20.19), so a
 * session coming back in chef mode has its chef tools before its first model request, as when the
 * core loaded with the row; where Node can't, it is imported.
 */
import { createRequire } from 'node:module'
import type { Context } from '@deepseek-ai/cordis'
import { ROLE_EVENT } from '../kitchen/events.js'
import type { CommandResult } from './command.js'
import type { KitchenCore } from './core.js'
import { COOKS_REQUEST_EVENT, type CooksSnapshotView } from './events.js'
import { CHEF_COMMAND, foldChefMode } from './fold.js'
import { agentsOf, errorText, ReportOnce } from './plugin-context.js'
import { KitchenRowConfig, PLUGIN_NAME, checkRowConfig, kitchenConfigFile, kitchenDir } from './schema.js'
import { KitchenService, type KitchenOperations, type KitchenRole } from './service.js'
import type { ChefAgent } from './sessions.js'

export const name = PLUGIN_NAME
export type { ChefAgent }

type CoreModule = typeof import('./core.js')
type ConfigModule = typeof import('../kitchen/store/config.js')

const requireHere = createRequire(import.meta.url)

/** A module of this package, loaded at once; undefined where Node can't `require` it (then the caller imports it). */
function loadNow<T>(specifier: string): T | undefined {
  try {
    return requireHere(specifier) as T
  } catch {
    return undefined
  }
}

const STOPPED_TEXT = 'the kitchen plugin stopped'

export default class KitchenProvider extends KitchenService {
  static inject = ['agents', 'commands', 'tools', 'timer']
  static Config = KitchenRowConfig

  private row: KitchenRowConfig
  private core: KitchenCore | undefined
  private coreModule: CoreModule | undefined
  private importing: Promise<CoreModule> | undefined
  private stopped = false
  private readonly log: ReportOnce
  private readonly lazyOperations: KitchenOperations

  constructor(private readonly own: Context, config: KitchenRowConfig) {
    super(own)
    this.row = config
    this.log = new ReportOnce(own)
    this.lazyOperations = operationsAfter(() => this.coreLater())
    this.wire(own)
  }

  /** The plugin's context: the command, the events, the timer and the shutdown; chef sessions already there come back. */
  private wire(ctx: Context): void {
    const c = ctx as unknown as {
      commands: { register(definition: unknown): () => void }
      setInterval(fn: () => void, ms: number): () => void
      on(event: string, fn: (...args: never[]) => unknown): () => void
    }
    ctx.effect(() => c.commands.register(this.command()), 'kitchen /chef command')
    c.on('agent/session-start', ({ agent }: { agent: ChefAgent }) => this.restore(agent))
    c.on('agent/created', ({ agent }: { agent: ChefAgent }) => this.restore(agent))
    c.on('agent/disposed', ({ agent }: { agent: ChefAgent }) => void this.core?.sessions.leave(agent, false))
    c.on('agent/inbox/claimed', ({ message }: { message: { id: string } }) => this.core?.wakes.claimed(message.id))
    c.on('agent/inbox/discarded', ({ message }: { message: { id: string } }) => this.core?.wakes.discarded(message.id))
    c.on(COOKS_REQUEST_EVENT, () => void this.core?.host.snapshot())
    c.on(ROLE_EVENT, (request: never) => this.core?.sessions.answerRole(request))
    // A patch-layer edit of the row: take the new config live, without the restart that `next()` would do.
    c.on('internal/update', (config: never) => this.reconfigure(config))
    // Without a core there is no open kitchen, and the core's tick does nothing then either.
    c.setInterval(() => void this.core?.host.tick(), 1000)
    ctx.effect(() => () => this.shutdown(), 'kitchen shutdown')
    for (const a of agentsOf(ctx)?.list() ?? []) this.restore(a as ChefAgent)
  }

  /** The `/chef` command's registration: every line is answered by the core, loaded first. */
  private command() {
    return {
      name: CHEF_COMMAND,
      description: 'Chef mode: dispatch coding tasks to background cooks (on, off, takeover, board; send, stop, close a task)',
      input: { hint: '[on|off|takeover|board] | send <id> <message> | stop <id> | close <id> [merge|discard]' },
      handler: ({ agent, rawInput }: { agent: ChefAgent; rawInput: string }) => this.answer(agent, rawInput),
    }
  }

  private async answer(agent: ChefAgent, rawInput: string): Promise<CommandResult> {
    let core = this.coreNow()
    if (!core) {
      try {
        core = await this.coreLater()
      } catch (error) {
        return { kind: 'error', text: errorText(error) }
      }
    }
    return core.command(agent, rawInput)
  }

  /**
   * A session that starts (a resume, a restart of dsh or of the plugin): when its logged `/chef`
   * lines leave it in chef mode, the core comes and gives it its tools again. Any other session
   * loads nothing.
   */
  private restore(agent: ChefAgent): void {
    if (this.core) return void this.core.sessions.restore(agent)
    if (this.stopped || !inChefMode(agent)) return
    const now = this.coreNow()
    if (now) return void now.sessions.restore(agent)
    this.coreLater().then(
      (core) => void core.sessions.restore(agent),
      (error) => this.log.report([`chef mode for session ${agent.id} could not come back: ${errorText(error)}`]),
    )
  }

  /** The core, built now when its module loads at once; undefined where it must be imported, or once the plugin stopped. */
  private coreNow(): KitchenCore | undefined {
    if (this.core || this.stopped) return this.core
    this.coreModule ??= loadNow<CoreModule>('./core.js')
    return this.coreModule ? this.build(this.coreModule) : undefined
  }

  /** The core, imported when it could not load at once. */
  private async coreLater(): Promise<KitchenCore> {
    const now = this.coreNow()
    if (now) return now
    if (!this.stopped) this.coreModule ??= await (this.importing ??= import('./core.js'))
    if (this.stopped || !this.coreModule) throw new Error(STOPPED_TEXT)
    return this.core ?? this.build(this.coreModule)
  }

  private build(m: CoreModule): KitchenCore {
    this.core = m.createKitchenCore(this.own, this.row, this.log.report)
    return this.core
  }

  /** A patch-layer edit of the row: schema-checked and taken live (by the core's host, once there is a core). */
  private reconfigure(raw: unknown): void {
    if (this.core) return this.core.host.reconfigure(raw)
    const checked = checkRowConfig(raw)
    if ('refused' in checked) return this.log.report([checked.refused])
    this.row = checked.row
    this.checkConfig(checked.row)
  }

  /** The row's problems as the core will read its config, in the log now (as the core's host says them). */
  private checkConfig(row: KitchenRowConfig): void {
    const say = (m: ConfigModule): void => {
      const errors = m.normalizeKitchenConfig(kitchenConfigFile(row), `${PLUGIN_NAME} config`, true).errors
      if (errors.length > 0) this.log.report(errors)
    }
    const now = loadNow<ConfigModule>('../kitchen/store/config.js')
    if (now) say(now)
    else void import('../kitchen/store/config.js').then(say, () => {})
  }

  private shutdown(): Promise<void> | void {
    this.stopped = true
    return this.core?.shutdown()
  }

  get dir(): string { return kitchenDir(this.config) }
  get config(): KitchenRowConfig { return this.core?.host.row ?? this.row }
  get role(): KitchenRole { return this.core?.host.role ?? 'closed' }
  /** The core's operations; before there is a core, the same calls, each loading it first. */
  get operations(): KitchenOperations { return this.core?.operations ?? this.lazyOperations }
  isChef(agentId: string): boolean { return this.core?.sessions.has(agentId) ?? false }
  tick(): Promise<void> { return this.core?.host.tick() ?? Promise.resolve() }
  snapshot(): CooksSnapshotView | undefined { return this.core?.host.snapshot() }
}

/** Whether the session's logged `/chef` lines leave it in chef mode (a session whose events can't be read is not). */
function inChefMode(agent: ChefAgent): boolean {
  try {
    return foldChefMode(agent.session.events)
  } catch {
    return false
  }
}

/** The chef tools' operations, each called on the core once it is there. */
function operationsAfter(core: () => Promise<KitchenCore>): KitchenOperations {
  return {
    addProject: async (args) => (await core()).operations.addProject(args),
    dispatch: async (input) => (await core()).operations.dispatch(input),
    board: async () => (await core()).operations.board(),
    send: async (task, message) => (await core()).operations.send(task, message),
    stop: async (task) => (await core()).operations.stop(task),
    result: async (args) => (await core()).operations.result(args),
    close: async (task, discard) => (await core()).operations.close(task, discard),
    merge: async (args) => (await core()).operations.merge(args),
  }
}

export { KitchenProvider }
