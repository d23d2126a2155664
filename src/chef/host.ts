/**
 * One kitchen core per dsh process: opening it (owner or read-only) when the first session turns
 * chef mode on and closing it when the last one leaves, the session's standing in the lease as of
 * now (a write the core refused, or a lease another session took, makes it read-only at once; it
 * promotes again when it can), the tick on the plugin's timer, the row config taken live, the cook
 * command, the cooks snapshot and the report lines. A plain object bound to the plugin's own
 * context: Cordis hands services to other plugins through proxies, and this state must not follow
 * a caller's context.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Context } from '@deepseek-ai/cordis'
import {
  COOKS_EVENT, Kitchen, KitchenError, KitchenReader, normalizeKitchenConfig, openKitchen, leaseHolderText,
  type CooksSnapshot, type KitchenConfig, type KitchenDeps, type Opened, type Standing,
} from '../kitchen/index.js'
import { cookRunnerCommand } from '../kitchen/cooks/runner-command.js'
import { crashHook } from './crash-hook.js'
import { mergeTester } from './merge-test.js'
import { withViewers, type CooksSnapshotView, type Viewer } from './events.js'
import { ModelFacts, type CredentialsView, type LlmView } from './models.js'
import { testCommandOf } from './project-commands.js'
import { PLUGIN_NAME, checkRowConfig, kitchenConfigFile, kitchenDir, type KitchenRowConfig } from './schema.js'
import type { KitchenRole } from './service.js'

export { PLUGIN_NAME }

const BIN = fileURLToPath(new URL('../../../bin/command-scout', import.meta.url))
const viewer = (taskDir: string): Viewer => ({ command: BIN, args: ['watch', taskDir] })

export interface HostParts {
  /** Hand a wake to the chef (`WakeDelivery.deliver`). */
  deliver: NonNullable<KitchenDeps['deliver']>
  /** Emit an integration event on the plugin's context. */
  fire(name: string, payload: unknown): void
  /** Error lines for the person (the harness log, each once: the row's `ReportOnce`). */
  report(lines: readonly string[]): void
}

export class KitchenHost {
  row: KitchenRowConfig
  private opened: Opened | undefined
  private opening: Promise<Opened> | undefined
  private ticking: Promise<void> | undefined
  private last: CooksSnapshotView | undefined
  private cookCommandCache: { key: string; argv: string[] } | undefined
  readonly facts: ModelFacts
  disposed = false

  constructor(private readonly ctx: Context, row: KitchenRowConfig, private readonly parts: HostParts) {
    this.row = row
    this.facts = new ModelFacts(
      () => ctx.get('llm') as LlmView | undefined,
      () => ctx.get('credentials') as CredentialsView | undefined,
      () => this.row.providerKeys ?? {},
    )
  }

  get dir(): string {
    return kitchenDir(this.row)
  }

  /** Whether a core is open (or opening) in this process. */
  get isOpen(): boolean {
    return this.opened !== undefined || this.opening !== undefined
  }

  get role(): KitchenRole {
    const o = this.opened
    if (!o) return 'closed'
    return o.kind === 'owner' && !o.kitchen.lost ? 'owner' : 'read-only'
  }

  // ---------------------------------------------------------------- open and close

  /** Open the core for a chef session (or take it over); the open core when there is one. */
  open(sessionId: string, takeover: boolean): Promise<Opened> {
    const o = this.opened
    if (o && takeover && o.kind === 'read-only') return o.reader.takeover().then((k) => this.promoted(k))
    if (o) return Promise.resolve(o)
    this.opening ??= this.openCore(sessionId, takeover).finally(() => {
      this.opening = undefined
    })
    return this.opening
  }

  private async openCore(sessionId: string, takeover: boolean): Promise<Opened> {
    const dir = this.dir
    mkdirSync(dir, { recursive: true })
    const opened = await openKitchen(dir, this.deps(sessionId), { takeover })
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
  }

  /** What the core gets from this host: everything host-specific, read live from the row. */
  private deps(sessionId: string): KitchenDeps {
    const fault = crashHook()
    return {
      tickMs: 0,
      sessionId,
      // The launch command and the config come from this row, live; never from a file a cook could write.
      cookCommand: () => this.cookCommand(),
      config: () => kitchenConfigFile(this.row),
      modelCheck: this.facts.check,
      deliver: this.parts.deliver,
      emit: (snap) => this.emit(snap),
      report: (lines) => this.report(lines),
      // A wake names the project's test command (the one verify runs) beside what a cook claims.
      testCommand: (project) => testCommandOf(project.path, project.testCommand),
      // The merge queue's test: verify's policy and budget, confined to the queue's work clone.
      mergeTest: mergeTester(this.ctx, () => this.row.verifyTimeoutMs),
      promoted: (k) => void this.promoted(k),
      demoted: (reader) => this.demoted(reader),
      ...(fault ? { fault } : {}),
    }
  }

  /** Close the core: give up the lease (the cooks keep running). */
  async close(): Promise<void> {
    const o = this.opened
    this.opened = undefined
    this.opening = undefined
    if (o?.kind === 'owner') await o.kitchen.shutdown()
    else if (o?.kind === 'read-only') o.reader.dispose()
  }

  /** The plugin stops: close the core, and nothing of this host runs again. */
  shutdown(): Promise<void> {
    this.disposed = true
    return this.close()
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

  /** An operation that arrives while the core opens waits for it. */
  async ready(): Promise<void> {
    if (this.opening) await this.opening.catch(() => {})
  }

  // ---------------------------------------------------------------- the session's standing

  /** The core to write with; a refusal that names who holds the lease when this session does not. */
  owner(): Kitchen {
    const o = this.opened
    if (!o) throw new KitchenError('KITCHEN_IO', 'chef mode is off in this process; run /chef on first')
    if (o.kind === 'owner' && !o.kitchen.lost) return o.kitchen
    const h = o.kind === 'read-only' ? o.holder : undefined
    throw new KitchenError('KITCHEN_LEASE_LOST', `this session's kitchen is read-only${h ? `: ${leaseHolderText(h)} holds the lease` : ''}; ask the human to run /chef takeover to take it over`)
  }

  /** The core to read with: the owner, or the reader of a read-only session. */
  reader(): Kitchen | KitchenReader {
    const o = this.opened
    if (!o) throw new KitchenError('KITCHEN_IO', 'chef mode is off in this process; run /chef on first')
    return o.kind === 'owner' ? o.kitchen : o.reader
  }

  /**
   * The session's standing as of now: an owner reads the lease again (not waiting for the next
   * tick), and one whose lease another session took is read-only from this moment on (its core
   * hands this host its reader at once, as a refused write does).
   */
  standing(): Standing {
    return this.reader().standing()
  }

  // ---------------------------------------------------------------- config, tick, snapshot, reports

  /** A new row config: schema-checked here, read by the core at its next tick. */
  reconfigure(raw: unknown): void {
    const checked = checkRowConfig(raw)
    if ('refused' in checked) {
      this.report([checked.refused])
      return
    }
    const next = checked.row
    const dirBefore = kitchenDir(this.row)
    this.row = next
    if (kitchenDir(next) !== dirBefore && this.opened) {
      this.report([`${PLUGIN_NAME} config: the kitchen directory changed to ${kitchenDir(next)}; it applies when chef mode is turned on again (now ${dirBefore})`])
      this.row = { ...next, dir: dirBefore }
    }
    this.checkConfig()
    void this.tick()
  }

  /** The normalized kitchen config of the row (what the core reads). */
  kitchenConfig(): KitchenConfig {
    return normalizeKitchenConfig(kitchenConfigFile(this.row), `${PLUGIN_NAME} config`, true).config
  }

  /** The row's config as the core reads it: its problems go to the log, each once. */
  private checkConfig(): void {
    const errors = normalizeKitchenConfig(kitchenConfigFile(this.row), `${PLUGIN_NAME} config`, true).errors
    if (errors.length > 0) this.report(errors)
  }

  private cookCommand(): string[] {
    if (this.row.cookCommand?.length) return [...this.row.cookCommand]
    // The bundle's cook runner on this same dsh install; its overlay is written into the kitchen once.
    if (this.cookCommandCache?.key !== this.dir) this.cookCommandCache = { key: this.dir, argv: cookRunnerCommand({ overlayDir: this.dir }) }
    return this.cookCommandCache.argv
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
    this.parts.fire(COOKS_EVENT, view)
  }

  /** The last cooks snapshot, emitted again (a consumer that started late asks for it). */
  snapshot(): CooksSnapshotView | undefined {
    if (this.last) this.parts.fire(COOKS_EVENT, this.last)
    return this.last
  }

  /** Chef mode closed in a session: `role: "off"`, and no last snapshot to repeat. */
  emitOff(sessionId: string): void {
    this.last = undefined
    try {
      this.parts.fire(COOKS_EVENT, { version: 1, sessionId, role: 'off', tasks: [] } satisfies CooksSnapshotView)
    } catch {
      // an inactive context at shutdown: nobody is left to listen
    }
  }

  /** Error lines for the person: the harness log, each once while the row runs. */
  report(lines: readonly string[]): void {
    this.parts.report(lines)
  }
}
