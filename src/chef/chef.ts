/**
 * The kitchen in one dsh process: opens the core (owner or read-only) when the first session turns
 * chef mode on, ticks it on the plugin's timers, takes a new row config live, keeps the chef tools
 * in the scope of each chef agent, hands wakes to the chef agent, and answers the integration
 * events. A plain object bound to the plugin's own context: Cordis hands services to other plugins
 * through proxies, and this state must not follow a caller's context.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Context } from '@deepseek-ai/cordis'
import { createScope } from '@deepseek-ai/dsh-scope'
import {
  COOKS_EVENT, COOKS_REQUEST_EVENT, Kitchen, KitchenError, KitchenReader, missingRulebooks, normalizeKitchenConfig, openKitchen, rulebookFor,
  type KitchenConfig,
  type CloseResult, type CooksSnapshot, type DispatchResult, type Opened, type SendResult, type StopResult,
} from '../kitchen/index.js'
import { cookRunnerCommand } from '../cook/index.js'
import { ROLE_EVENT, RULEBOOKS_EVENT, isRoleRequest, withViewers, type CooksSnapshotView, type RulebooksRequest, type Viewer } from './events.js'
import { CHEF_COMMAND, chefVerb, foldChefMode, type SessionEventLike } from './mode.js'
import { ModelFacts, type CredentialsView, type LlmView } from './models.js'
import { commandLine, commandsLine, findNamed, namedTestProblem, projectCommands, recipesAt } from './project-commands.js'
import { chefPrompt } from './prompt.js'
import { KitchenRowConfig, kitchenConfigFile, kitchenDir } from './schema.js'
import type { AddProjectArgs, KitchenRole, ResultArgs, ResultText } from './service.js'
import { chefTools } from './tools.js'
import { crashHook } from './crash-hook.js'
import { WakeDelivery, type WakeAgent } from './wakes.js'
import { verifyTask } from './verify.js'

export const PLUGIN_NAME = 'command-scout-kitchen'

/** The parts of a dsh agent the kitchen uses. */
export interface ChefAgent extends WakeAgent {
  readonly session: { readonly events: readonly SessionEventLike[] }
}

interface ChefSession {
  agent: ChefAgent
  scope: { ctx: Context; dispose(): Promise<void> | void }
  since: number
}

const BIN = fileURLToPath(new URL('../../../bin/command-scout', import.meta.url))
const viewer = (taskDir: string): Viewer => ({ command: BIN, args: ['watch', taskDir] })

export class Chef {
  row: KitchenRowConfig
  private opened: Opened | undefined
  private opening: Promise<Opened> | undefined
  private readonly chefs = new Map<string, ChefSession>()
  private readonly wakes: WakeDelivery
  private readonly facts: ModelFacts
  private last: CooksSnapshotView | undefined
  private disposed = false
  private ticking: Promise<void> | undefined
  private readonly reported = new Set<string>()

  constructor(readonly ctx: Context, row: KitchenRowConfig) {
    this.row = row
    this.wakes = new WakeDelivery({
      target: () => this.wakeTarget(),
      alive: (agent) => !this.disposed && this.agents()?.get(agent.id) === agent,
    })
    this.facts = new ModelFacts(
      () => ctx.get('llm') as LlmView | undefined,
      () => ctx.get('credentials') as CredentialsView | undefined,
      () => this.row.providerKeys ?? {},
    )
  }

  // ---------------------------------------------------------------- lifecycle

  /** Wire commands, events and the tick; bring back chef sessions already in the registry (a restart of the plugin). */
  start(): void {
    const ctx = this.ctx
    ctx.effect(() => (ctx as any).commands.register({
      name: CHEF_COMMAND,
      description: 'Chef mode: dispatch coding tasks to background cooks (on, off, takeover, board)',
      input: { hint: '[on|off|takeover|board]' },
      handler: ({ agent, rawInput }: { agent: ChefAgent; rawInput: string }) => this.command(agent, rawInput),
    }), 'kitchen /chef command')
    ctx.on('agent/session-start' as never, (({ agent }: { agent: ChefAgent }) => this.restore(agent)) as never)
    ctx.on('agent/created' as never, (({ agent }: { agent: ChefAgent }) => this.restore(agent)) as never)
    ctx.on('agent/disposed' as never, (({ agent }: { agent: ChefAgent }) => void this.leave(agent, false)) as never)
    ctx.on('agent/inbox/claimed' as never, (({ message }: { message: { id: string } }) => this.wakes.claimed(message.id)) as never)
    ctx.on('agent/inbox/discarded' as never, (({ message }: { message: { id: string } }) => this.wakes.discarded(message.id)) as never)
    ctx.on(COOKS_REQUEST_EVENT as never, (() => {
      if (this.last) this.fire(COOKS_EVENT, this.last)
    }) as never)
    ctx.on(ROLE_EVENT as never, ((request: unknown) => {
      if (!isRoleRequest(request) || request.role !== undefined || request.agentId === undefined) return
      if (!this.chefs.has(request.agentId)) return
      request.role = 'chef'
      const rb = this.chefRulebook()
      if (rb !== undefined) request.rulebook = rb
    }) as never)
    // A patch-layer edit of the row: take the new config live, without the restart that `next()` would do.
    ctx.on('internal/update' as never, ((config: unknown) => {
      this.reconfigure(config)
    }) as never)
    ;(ctx as any).setInterval(() => void this.tick(), 1000)
    ctx.effect(() => () => this.shutdownAll(), 'kitchen shutdown')
    const agents = this.agents()?.list() ?? []
    for (const a of agents) this.restore(a as ChefAgent)
  }

  /** Cordis runs the listeners synchronously: a request object is filled when this returns. */
  private fire(name: string, payload: unknown): void {
    ;(this.ctx as unknown as { emit(name: string, ...args: unknown[]): void }).emit(name, payload)
  }

  private agents(): { get(id: string): unknown; list(): unknown[] } | undefined {
    if (this.disposed) return undefined
    try {
      return this.ctx.get('agents') as never
    } catch {
      return undefined
    }
  }

  /** A new row config: schema-checked here, read by the core at its next tick. */
  reconfigure(raw: unknown): void {
    let next: KitchenRowConfig
    try {
      next = (KitchenRowConfig as unknown as (v: unknown) => KitchenRowConfig)(raw ?? {})
    } catch (error) {
      this.report([`command-scout-kitchen config: ${(error as Error).message}; the kitchen keeps its config`])
      return
    }
    const dirBefore = kitchenDir(this.row)
    this.row = next
    if (kitchenDir(next) !== dirBefore && this.opened) {
      this.report([`command-scout-kitchen config: the kitchen directory changed to ${kitchenDir(next)}; it applies when chef mode is turned on again (now ${dirBefore})`])
      this.row = { ...next, dir: dirBefore }
    }
    this.checkConfig()
    void this.tick()
  }

  private shutdownAll(): Promise<void> | void {
    if (this.disposed) return
    for (const c of this.chefs.values()) this.emitOff(c.agent.id)
    this.disposed = true
    this.wakes.dispose()
    const scopes = [...this.chefs.values()].map((c) => c.scope)
    this.chefs.clear()
    const o = this.opened
    this.opened = undefined
    const done: Promise<unknown>[] = scopes.map((s) => Promise.resolve(s.dispose()).catch(() => {}))
    if (o?.kind === 'owner') done.push(o.kitchen.shutdown())
    else if (o?.kind === 'read-only') o.reader.dispose()
    return Promise.all(done).then(() => {})
  }

  // ---------------------------------------------------------------- chef mode

  get dir(): string {
    return kitchenDir(this.row)
  }

  get role(): KitchenRole {
    const o = this.opened
    if (!o) return 'closed'
    return o.kind === 'owner' && !o.kitchen.lost ? 'owner' : 'read-only'
  }

  isChef(agentId: string): boolean {
    return this.chefs.has(agentId)
  }

  private async command(agent: ChefAgent, rawInput: string): Promise<{ kind: 'success' | 'error'; text: string }> {
    const verb = chefVerb(rawInput)
    if (!verb) return { kind: 'error', text: `Unknown /chef argument "${rawInput.trim()}". Use /chef on, /chef off, /chef takeover or /chef board.` }
    try {
      switch (verb) {
        case 'on':
          return { kind: 'success', text: await this.enter(agent, false) }
        case 'takeover':
          return { kind: 'success', text: await this.enter(agent, true) }
        case 'off':
          if (!this.chefs.has(agent.id)) return { kind: 'success', text: 'Chef mode is already off in this session.' }
          await this.leave(agent, true)
          return { kind: 'success', text: 'Chef mode off. The cooks keep running; /chef on brings the board back.' }
        case 'board':
          if (!this.opened) return { kind: 'success', text: `Chef mode is off in this session; /chef on opens the kitchen at ${this.dir}.` }
          return { kind: 'success', text: await this.board() }
      }
    } catch (error) {
      return { kind: 'error', text: errorText(error) }
    }
  }

  /** A session that comes back (resume, plugin restart) in chef mode gets its tools again. */
  private restore(agent: ChefAgent): void {
    if (this.disposed || this.chefs.has(agent.id)) return
    let on = false
    try {
      on = foldChefMode(agent.session.events)
    } catch {
      return
    }
    if (on) void this.enter(agent, false).catch((error) => this.report([`chef mode for session ${agent.id} could not come back: ${errorText(error)}`]))
  }

  private async enter(agent: ChefAgent, takeover: boolean): Promise<string> {
    // The tools first, synchronously: a resumed session's first model request may follow at once.
    if (!this.chefs.has(agent.id)) {
      const scope = createScope(this.ctx as never, agent as never) as unknown as ChefSession['scope']
      for (const tool of chefTools(this as never)) scope.ctx.effect(() => (scope.ctx as any).tools.register(tool), `chef tool ${tool.name}`)
      const prompt = scope.ctx.get('systemPrompt') as { section(s: unknown): () => void } | undefined
      if (prompt) scope.ctx.effect(() => prompt.section({ name: 'command-scout:chef', order: 150, text: () => chefPrompt(this.kitchenConfig()) }), 'chef prompt')
      this.chefs.set(agent.id, { agent, scope, since: Date.now() })
    } else this.chefs.get(agent.id)!.since = Date.now()
    let opened: Opened
    try {
      opened = await this.open(agent, takeover)
    } catch (error) {
      await this.leave(agent, false)
      throw error
    }
    const where = opened.kind === 'owner'
      ? `you own the kitchen at ${this.dir}`
      : opened.holder
        ? `the kitchen at ${this.dir} is read-only here: session ${opened.holder.sessionId} (pid ${opened.holder.pid}) owns it; /chef takeover takes it over`
        : `the kitchen at ${this.dir} is read-only here: ${opened.reason ?? 'it cannot be written'}; the board and results can be read`
    void this.tick()
    return `Chef mode on: ${where}. Tools: chef_add_project, chef_dispatch, chef_board, chef_send, chef_stop, chef_result, chef_close.`
  }

  private async leave(agent: ChefAgent, emitOff: boolean): Promise<void> {
    const c = this.chefs.get(agent.id)
    if (!c) return
    this.chefs.delete(agent.id)
    this.wakes.agentGone(agent.id)
    if (emitOff) this.emitOff(agent.id)
    await Promise.resolve(c.scope.dispose()).catch(() => {})
    if (this.chefs.size === 0) await this.closeCore()
  }

  private emitOff(sessionId: string): void {
    const off: CooksSnapshotView = { version: 1, sessionId, role: 'off', tasks: [] }
    this.last = undefined
    try {
      this.fire(COOKS_EVENT, off)
    } catch {
      // an inactive context at shutdown: nobody is left to listen
    }
  }

  /** Close the core: give up the lease (the cooks keep running). */
  private async closeCore(): Promise<void> {
    const o = this.opened
    this.opened = undefined
    this.opening = undefined
    if (o?.kind === 'owner') await o.kitchen.shutdown()
    else if (o?.kind === 'read-only') o.reader.dispose()
  }

  private wakeTarget(): WakeAgent | undefined {
    let best: ChefSession | undefined
    for (const c of this.chefs.values()) if (!best || c.since >= best.since) best = c
    return best?.agent
  }

  // ---------------------------------------------------------------- the core

  private open(agent: ChefAgent, takeover: boolean): Promise<Opened> {
    const o = this.opened
    if (o && takeover && o.kind === 'read-only') {
      return o.reader.takeover().then((k) => this.promoted(k))
    }
    if (o) return Promise.resolve(o)
    this.opening ??= (async () => {
      const dir = this.dir
      mkdirSync(dir, { recursive: true })
      const opened = await openKitchen(dir, {
        tickMs: 0,
        sessionId: agent.id,
        // The launch command and the config come from this row, live; never from a file a cook could write.
        cookCommand: () => this.cookCommand(),
        config: () => kitchenConfigFile(this.row),
        modelCheck: this.facts.check,
        deliver: this.wakes.deliver,
        emit: (snap) => this.emit(snap),
        report: (lines) => this.report(lines),
        promoted: (k) => void this.promoted(k),
        demoted: (reader) => this.demoted(reader),
        ...testCrash(),
      }, { takeover })
      if (this.disposed) {
        if (opened.kind === 'owner') await opened.kitchen.shutdown()
        else opened.reader.dispose()
        throw new KitchenError('KITCHEN_IO', 'the kitchen plugin stopped while the kitchen opened')
      }
      this.opened = opened
      if (opened.kind === 'owner') {
        this.checkConfig()
        await opened.kitchen.tick().catch(() => {})
      }
      return opened
    })().finally(() => {
      this.opening = undefined
    })
    return this.opening
  }

  private promoted(k: Kitchen): Opened {
    const opened: Opened = { kind: 'owner', kitchen: k }
    this.opened = opened
    this.checkConfig()
    return opened
  }

  /** The owner lost the lease to another session: this process reads from now, and promotes when it can. */
  private demoted(reader: KitchenReader): void {
    if (this.disposed || this.opened?.kind !== 'owner') {
      reader.dispose()
      return
    }
    this.opened = { kind: 'read-only', reader, ...(reader.holder ? { holder: reader.holder } : {}) }
  }

  private cookCommandCache: { key: string; argv: string[] } | undefined
  private cookCommand(): string[] {
    if (this.row.cookCommand?.length) return [...this.row.cookCommand]
    // The bundle's cook runner on this same dsh install; its overlay is written into the kitchen once.
    if (this.cookCommandCache?.key !== this.dir) this.cookCommandCache = { key: this.dir, argv: cookRunnerCommand({ overlayDir: this.dir }) }
    return this.cookCommandCache.argv
  }

  /** The row's config as the core reads it: its problems go to the log, each once. */
  private checkConfig(): void {
    const errors = normalizeKitchenConfig(kitchenConfigFile(this.row), 'command-scout-kitchen config', true).errors
    if (errors.length > 0) this.report(errors)
  }

  /** One tick of the core (owner), or a refresh and promotion try (read-only). */
  tick(): Promise<void> {
    if (this.ticking || this.disposed) return this.ticking ?? Promise.resolve()
    const o = this.opened
    if (!o) return Promise.resolve()
    this.ticking = (async () => {
      if (o.kind === 'owner') await o.kitchen.tick().catch(() => {})
      else {
        const k = await o.reader.tick()
        if (k) this.promoted(k)
      }
    })().catch(() => {}).finally(() => {
      this.ticking = undefined
    })
    return this.ticking
  }

  private emit(snap: CooksSnapshot): void {
    if (this.disposed) return
    const view = withViewers(snap, viewer)
    this.last = view
    this.fire(COOKS_EVENT, view)
  }

  snapshot(): CooksSnapshotView | undefined {
    if (this.last) this.fire(COOKS_EVENT, this.last)
    return this.last
  }

  /** Error lines for the person: the harness log, each once while it lasts. */
  private report(lines: readonly string[]): void {
    const log = (this.ctx as any).logger?.(PLUGIN_NAME)
    for (const l of lines) {
      if (this.reported.has(l)) continue
      this.reported.add(l)
      log?.warn('%s', l)
    }
  }

  /** An operation that arrives while the kitchen opens waits for it. */
  private async ready(): Promise<void> {
    if (this.opening) await this.opening.catch(() => {})
  }

  private owner(): Kitchen {
    const o = this.opened
    if (!o) throw new KitchenError('KITCHEN_IO', 'chef mode is off in this process; run /chef on first')
    if (o.kind === 'owner' && !o.kitchen.lost) return o.kitchen
    const h = o.kind === 'read-only' ? o.holder : undefined
    throw new KitchenError('KITCHEN_LEASE_LOST', `this session's kitchen is read-only${h ? `: session ${h.sessionId} (pid ${h.pid}) holds the lease` : ''}; ask the human to run /chef takeover to take it over`)
  }

  private reader(): Kitchen | KitchenReader {
    const o = this.opened
    if (!o) throw new KitchenError('KITCHEN_IO', 'chef mode is off in this process; run /chef on first')
    return o.kind === 'owner' ? o.kitchen : o.reader
  }

  /** The normalized kitchen config of the row (what the core reads). */
  kitchenConfig(): KitchenConfig {
    return normalizeKitchenConfig(kitchenConfigFile(this.row), 'command-scout-kitchen config', true).config
  }

  private chefRulebook(): string | undefined {
    return rulebookFor(this.kitchenConfig(), { kind: 'chef' })
  }

  /** Each selected rulebook no installed plugin provides: one line each. */
  private missingRulebooks(): string[] {
    const request: RulebooksRequest = { version: 1, rulebooks: [] }
    this.fire(RULEBOOKS_EVENT, request)
    return missingRulebooks(this.kitchenConfig(), request.rulebooks.filter((r) => typeof r === 'string'))
  }

  // ---------------------------------------------------------------- operations

  async addProject(args: AddProjectArgs): Promise<string> {
    await this.ready()
    const k = this.owner()
    const { testCommand, ...input } = args
    const named = testCommand?.trim()
    // A test command is one of the project's own commands, by name: verify never runs shell text.
    if (named) {
      const path = input.path.startsWith('~') ? input.path.replace(/^~/, process.env.HOME ?? '~') : input.path
      const problem = namedTestProblem(path, named)
      if (problem) throw new KitchenError('KITCHEN_BAD_INPUT', problem)
    }
    const r = await k.addProject({ ...input, ...(named ? { testCommand: named } : {}) })
    const commands = projectCommands(r.project.path, r.project.testCommand)
    return `${r.text}\n${commandsLine(commands)}`
  }

  async dispatch(input: unknown): Promise<DispatchResult> {
    await this.ready()
    const k = this.owner()
    await this.facts.refresh(this.candidateModels(input))
    // The cook runner's contract lists the commands discovery finds in the worktree; a test command
    // the project names itself goes into the brief.
    const r = await k.dispatch(this.withNamedTest(k, input))
    void this.tick()
    return r
  }

  /** Every model a dispatch may check: the config's and the input's. */
  private candidateModels(input: unknown): string[] {
    const out: string[] = []
    const m = this.row.models
    for (const p of m?.default ?? []) out.push(p.model)
    for (const r of m?.rules ?? []) for (const p of r.use) out.push(p.model)
    const i = (input ?? {}) as { model?: unknown; tasks?: unknown }
    if (typeof i.model === 'string') out.push(i.model.trim())
    if (Array.isArray(i.tasks)) for (const t of i.tasks) if (typeof (t as { model?: unknown })?.model === 'string') out.push((t as { model: string }).model.trim())
    return out
  }

  private withNamedTest(k: Kitchen, input: unknown): unknown {
    if (typeof input !== 'object' || input === null) return input
    const top = input as Record<string, unknown>
    const add = (item: Record<string, unknown>, project: unknown): Record<string, unknown> => {
      if (typeof item.brief !== 'string' || typeof project !== 'string') return item
      const p = k.projectOf(project)
      const named = p?.testCommand
      const recipe = named ? findNamed(recipesAt(p.path), named) : undefined
      return recipe ? { ...item, brief: `${item.brief.trimEnd()}\n\nThe project's test command is \`${commandLine(recipe)}\`: run it before you report done.` } : item
    }
    if (Array.isArray(top.tasks)) {
      return { ...top, tasks: top.tasks.map((t) => (typeof t === 'object' && t !== null ? add(t as Record<string, unknown>, (t as { project?: unknown }).project ?? top.project) : t)) }
    }
    return add(top, top.project)
  }

  async board(): Promise<string> {
    await this.ready()
    const r = this.reader()
    const text = await r.board()
    const role = r instanceof Kitchen ? `Kitchen ${this.dir} (owner).`
      : r.reason ? `Kitchen ${this.dir} (read-only: ${r.reason}).`
      : `Kitchen ${this.dir} (read-only: another session owns it).`
    const missing = this.missingRulebooks()
    return [role, text, ...missing].join('\n')
  }

  async send(task: string, message: string): Promise<SendResult & { text: string }> {
    await this.ready()
    const r = await this.owner().send(task, message)
    void this.tick()
    return { ...r, text: sendText(task, r) }
  }

  async stop(task: string): Promise<StopResult & { text: string }> {
    await this.ready()
    const r = await this.owner().stop(task)
    void this.tick()
    return { ...r, text: stopText(task, r, this.row.killGraceMs) }
  }

  async close(task: string, discard = false): Promise<CloseResult> {
    await this.ready()
    const r = await this.owner().close(task, { discard })
    void this.tick()
    return r
  }

  async result(args: ResultArgs): Promise<ResultText> {
    await this.ready()
    const kitchen = this.reader()
    const r = await kitchen.result(args.task)
    // the kitchen's facts, verify's (its facts too), then the cook's words, apart and last
    const lines = [r.facts]
    const out: ResultText = { text: '' }
    if (args.verify) {
      if (!(kitchen instanceof Kitchen)) lines.push('Verify: not run: this session is read-only; the owner of the kitchen verifies.')
      else {
        const project = kitchen.projectOf((await kitchen.view(args.task)).spec.project)
        const v = await verifyTask(this.ctx, kitchen, r, {
          ...(project?.testCommand ? { named: project.testCommand } : {}),
          timeoutMs: this.row.verifyTimeoutMs,
          ...(args.signal ? { signal: args.signal } : {}),
        })
        lines.push(...v.lines)
        if (v.verified) out.verified = v.verified
      }
    }
    if (r.said) lines.push(r.said)
    out.text = lines.join('\n')
    return out
  }
}

/** The chaos tests' crash hook (see crash-hook.ts), when its variable is set. */
function testCrash(): { fault?: NonNullable<ReturnType<typeof crashHook>> } {
  const fault = crashHook()
  return fault ? { fault } : {}
}

export function errorText(error: unknown): string {
  return (error as Error)?.message ?? String(error)
}

function sendText(task: string, r: SendResult): string {
  switch (r.kind) {
    case 'steered': return `Sent to ${task}: the cook of run ${r.run} takes it after its current step.`
    case 'after-stop': return `${task} is being stopped (run ${r.run}); the message restarts it once its cook has exited.`
    case 'launched': return `${task} relaunched as run ${r.run} in the same cook session with your message.`
    case 'queued': return `${task} is queued with your message: it relaunches when a cook is free.`
    case 'after-exit': return `${task}'s cook is still exiting; the message relaunches the task once it exits.`
    case 'failed': return `${task} failed to launch: ${r.reason}`
  }
}

function stopText(task: string, r: StopResult, graceMs: number): string {
  switch (r.kind) {
    case 'stopping': return `Stopping ${task} run ${r.run}: its process group and everything it started got SIGTERM, SIGKILL follows after ${Math.round(graceMs / 1000)} s. The clone stays; chef_send relaunches it.`
    case 'held': return `${task} is held: it does not start until you chef_send it.`
    case 'signalled': return `${task} had reported and its cook was still exiting (run ${r.run}); it got SIGTERM.`
    case 'not-cooking': return r.ended ? `${task} is not cooking; ${r.ended} leftover process${r.ended === 1 ? '' : 'es'} of its runs ${r.ended === 1 ? 'was' : 'were'} ended.` : `${task} is not cooking; nothing to stop.`
  }
}
