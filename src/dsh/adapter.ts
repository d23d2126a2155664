/**
 * `dsh-command-scout/adapter`: the recipe book's provider in the harness. It provides
 * `ctx.recipes` (collectors contribute to it), exposes the book as tools (one per recipe, or a
 * dispatcher), keeps the tools in step with the book, runs commands through the harness shell,
 * and sends the calls that ask (book/approval.ts decides) to the harness's approval first: its own
 * tools' calls, judged with their words, and the built-in `bash` (`decideShellCommand`, which
 * follows a recipe invoked by its runner command, `make clean`).
 *
 * A tool call is resolved and decided once, in `tools/pre-execute`, and run by book/run-tool.ts
 * with that preparation. A call that reaches execute without it (a listener short-circuited the
 * gate, or its arguments changed on the way) is prepared there, and refused if it asks.
 */
import { isAbsolute, resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type {} from '@deepseek-ai/dsh-shell'
import { decideShellCommand, type ApprovalNeed, type GateWhere } from '../book/approval.js'
import type { Config } from '../book/config.js'
import type { Diagnostic, Recipe } from '../book/recipe.js'
import type { RecipeBook } from '../book/recipe-book.js'
import { planTools, type PlannedCall, type PlannedTool } from '../book/exposure.js'
import { prepareCall, runPlannedTool, type PreparedCall, type ToolOutcome } from '../book/run-tool.js'
import { askBeforeRunning, PreparedCalls } from './approval.js'
import { LiveBook } from '../book/live-book.js'
import { RecipeBookService, type BookCollector } from './book-service.js'
import { AdapterConfig, normalizeAdapterConfig } from './schema.js'
import { runInHarnessShell } from './shell-run.js'
import { harnessTool } from './tools.js'

export const name = 'command-scout'

export { DISPATCHER_NAME, effectiveExposure } from '../book/exposure.js'

interface Registered {
  signature: string
  dispose: () => void
  tool: PlannedTool
}

/** What `tools/pre-execute` made of a call of one of our tools: for that tool, and how it was prepared. */
interface Prepared {
  tool: PlannedTool
  call: PreparedCall
}

/**
 * The tool side, as a plain object: Cordis hands services to other plugins through proxies, so
 * state that must not follow the caller's context lives here, bound to the adapter's own.
 */
class RecipeTools {
  readonly registered = new Map<string, Registered>()
  readonly prepared = new PreparedCalls<Prepared>()

  constructor(readonly ctx: Context, readonly config: Config, readonly live: LiveBook) {}

  /** Where calls are judged: the book as it is now. */
  where(): GateWhere {
    return { root: this.live.root, book: this.live.book() }
  }

  /** Registers, replaces and removes tools so that the registry matches the book. */
  sync(): void {
    // Never take a built-in's name nor another plugin's tool; our own current names are free to keep.
    const others = this.ctx.tools.schemas().map((s) => s.name).filter((n) => !this.registered.has(n))
    const wanted = new Map(planTools(this.live.book(), this.config, others, { root: this.live.root }).map((t) => [t.name, t]))
    for (const [toolName, reg] of this.registered) {
      if (wanted.get(toolName)?.signature === reg.signature) continue
      reg.dispose()
      this.registered.delete(toolName)
    }
    for (const [toolName, tool] of wanted) {
      if (this.registered.has(toolName)) continue
      try {
        const dispose = this.ctx.tools.register(harnessTool(tool, (t, args, exec) => this.call(t, args, exec)) as Parameters<Context['tools']['register']>[0])
        this.registered.set(toolName, { signature: tool.signature, dispose, tool })
      } catch (error) {
        // Another plugin took the name since the names were assigned, or the adapter is unloading:
        // the next change retries; the harness keeps running either way.
        this.ctx.logger?.(name).warn('tool %s not registered: %s', toolName, (error as Error)?.message ?? error)
      }
    }
  }

  /**
   * Why a call needs approval, if it does: one of our tools (prepared here, and kept for its
   * execute), or `bash` running a destructive command.
   */
  approvalReason(exec: Readonly<ToolExecution>): ApprovalNeed | undefined {
    if (exec.name === 'bash' && !this.registered.has('bash')) return this.bashApproval(exec.arguments, exec)
    const reg = this.registered.get(exec.name)
    if (!reg) return undefined
    const call = prepareCall(reg.tool, exec.arguments, this.where())
    this.prepared.keep(exec, { tool: reg.tool, call })
    // Args that are not words, an op that names no task, a missing runner: execute refuses them unasked, and nothing runs.
    return call.kind === 'resolved' && call.decision.kind === 'ask' ? call.decision.need : undefined
  }

  /**
   * One call of a tool, run through the harness shell: with what `tools/pre-execute` prepared when
   * it prepared this call for this tool, and confirmed when a person allowed that very command line.
   */
  call(tool: PlannedTool, args: unknown, exec: ToolExecution): Promise<ToolOutcome> {
    const kept = this.prepared.take(exec, args)
    const asked = kept?.prepared.call
    const allowed = (call: PlannedCall) =>
      kept?.allowed === true && asked?.kind === 'resolved' && asked.call.command === call.command && asked.call.recipe.cwd === call.recipe.cwd
    return runPlannedTool(tool, args, this.where(), {
      ...(kept?.prepared.tool === tool && asked ? { prepared: asked } : {}),
      confirmed: allowed,
      run: (call) => runInHarnessShell(this.ctx, {
        command: call.command,
        cwd: resolve(this.live.root, call.recipe.cwd),
        timeoutMs: this.config.execution.timeoutMs,
        signal: exec.signal,
        exec,
      }),
    })
  }

  /**
   * The same gate for the built-in `bash`: the judge reads the command line itself, and follows a
   * discovered recipe it invokes by its runner command (`make clean`, `cd web && npm run wipe`).
   */
  bashApproval(args: unknown, exec?: Readonly<ToolExecution>): ApprovalNeed | undefined {
    const command = (args as { command?: unknown })?.command
    if (typeof command !== 'string') return undefined
    const decision = decideShellCommand(command, { ...this.where(), cwd: bashCwd(args, exec) })
    return decision.kind === 'ask' ? decision.need : undefined
  }

  disposeAll(): void {
    for (const reg of this.registered.values()) reg.dispose()
    this.registered.clear()
  }
}

/**
 * Where `bash` runs a call, as dsh's bash tool decides it: `workdir` (relative to the session's
 * directory), else the session's directory, else the process's.
 */
function bashCwd(args: unknown, exec: Readonly<ToolExecution> | undefined): string {
  const session = (exec as { agent?: { session?: { header?: { cwd?: unknown } } } } | undefined)?.agent?.session?.header?.cwd
  const base = typeof session === 'string' && session !== '' ? session : process.cwd()
  const workdir = (args as { workdir?: unknown })?.workdir
  if (typeof workdir !== 'string' || workdir === '') return resolve(base)
  return isAbsolute(workdir) ? workdir : resolve(base, workdir)
}

/** Problems in the user's manifests go to the harness log once each (the person reads them there). */
function reportNewDiagnostics(ctx: Context, diagnostics: readonly Diagnostic[], reported: Set<string>): void {
  for (const d of diagnostics) {
    const where = `${d.file}${d.line ? `:${d.line}` : ''}`
    const key = `${d.source}\0${where}\0${d.message}`
    if (reported.has(key)) continue
    reported.add(key)
    ctx.logger?.(name)[d.severity === 'error' ? 'warn' : 'info']('%s (%s): %s', where, d.source, d.message)
  }
}

export default class CommandScout extends RecipeBookService {
  static inject = ['tools', 'shell']
  static Config = AdapterConfig

  readonly core: { config: Config; live: LiveBook; tools: RecipeTools }

  constructor(ctx: Context, rowConfig: AdapterConfig) {
    super(ctx)
    const config = normalizeAdapterConfig(rowConfig)
    const reported = new Set<string>()
    const live = new LiveBook(resolve(process.cwd(), config.root), {
      onChange: () => {
        core.tools.sync()
        reportNewDiagnostics(ctx, live.diagnostics(), reported)
        ctx.emit('recipes/change')
      },
    })
    const core = { config, live, tools: new RecipeTools(ctx, config, live) }
    this.core = core
    ctx.effect(() => askBeforeRunning(ctx, (exec) => core.tools.approvalReason(exec), (exec) => core.tools.prepared.allow(exec)), 'command-scout approval')
    ctx.effect(() => () => {
      core.tools.disposeAll()
      void live.close()
    }, 'command-scout book')
  }

  get root(): string {
    return this.core.live.root
  }

  contribute(source: string, recipes: readonly Recipe[], diagnostics: readonly Diagnostic[] = []): () => void {
    const live = this.core.live
    return this.ctx.effect(() => live.contribute(source, recipes, diagnostics), `recipes.contribute(${source})`) as () => void
  }

  addCollector(collector: BookCollector): () => void {
    const live = this.core.live
    return this.ctx.effect(() => live.addCollector(collector), `recipes.addCollector(${collector.source})`) as () => void
  }

  book(): RecipeBook {
    return this.core.live.book()
  }

  diagnostics(): readonly Diagnostic[] {
    return this.core.live.diagnostics()
  }

  settled(): Promise<void> {
    return this.core.live.settled()
  }

  /** Names of the tools registered right now (tests and status views). */
  toolNames(): string[] {
    return [...this.core.tools.registered.keys()]
  }
}

export { CommandScout }
