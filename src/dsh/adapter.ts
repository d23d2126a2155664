/**
 * `dsh-command-scout/adapter`: the recipe book's provider in the harness. It provides
 * `ctx.recipes` (collectors contribute to it), exposes the book as tools (one per recipe, or a
 * dispatcher), keeps the tools in step with the book, runs commands through the harness shell,
 * and sends destructive calls to the harness's approval first: its own tools' calls, judged with
 * their words (book/risk `judgeRecipeCall`), and the built-in `bash` (`judgeCommand`, which follows
 * a recipe invoked by its runner command, `make clean`). A tool call whose approval was not asked
 * in `tools/pre-execute` is judged again before it runs, and refused if destructive.
 */
import { isAbsolute, resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type {} from '@deepseek-ai/dsh-shell'
import type { Config } from '../book/config.js'
import type { Diagnostic, Recipe } from '../book/recipe.js'
import type { RecipeBook } from '../book/recipe-book.js'
import { judgeCommand, type Verdict } from '../book/risk/index.js'
import { callVerdict, guardedJudgement, plannedCall, planTools, reasonClause, type PlannedCall, type PlannedTool } from '../book/exposure.js'
import { askBeforeRunning, refusalText, type ApprovalNeed } from './approval.js'
import { LiveBook } from '../book/live-book.js'
import { RecipeBookService, type BookCollector } from './book-service.js'
import { AdapterConfig, normalizeAdapterConfig } from './schema.js'
import { runInHarnessShell } from './shell-run.js'
import { harnessTool, type RunRecipe } from './tools.js'

export const name = 'command-scout'

export { DISPATCHER_NAME, effectiveExposure } from '../book/exposure.js'

interface Registered {
  signature: string
  dispose: () => void
  tool: PlannedTool
}

/**
 * The tool side, as a plain object: Cordis hands services to other plugins through proxies, so
 * state that must not follow the caller's context lives here, bound to the adapter's own.
 */
class RecipeTools {
  readonly registered = new Map<string, Registered>()
  readonly run: RunRecipe

  constructor(readonly ctx: Context, readonly config: Config, readonly live: LiveBook) {
    this.run = (recipe, command, exec) => runInHarnessShell(ctx, {
      command,
      cwd: resolve(live.root, recipe.cwd),
      timeoutMs: config.execution.timeoutMs,
      signal: exec.signal,
      exec,
    })
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
        const dispose = this.ctx.tools.register(harnessTool(tool, this.run, (call, exec) => this.gate(call, exec)) as Parameters<Context['tools']['register']>[0])
        this.registered.set(toolName, { signature: tool.signature, dispose, tool })
      } catch (error) {
        // Another plugin took the name since the names were assigned, or the adapter is unloading:
        // the next change retries; the harness keeps running either way.
        this.ctx.logger?.(name).warn('tool %s not registered: %s', toolName, (error as Error)?.message ?? error)
      }
    }
  }

  /** Calls judged in `tools/pre-execute` (call id -> the command judged): an ask there was answered yes, or the call was safe. */
  readonly #judged = new Map<string, string>()

  /** Why a call needs approval, if it does: one of our tools, or `bash` running a destructive command. */
  approvalReason(exec: Readonly<ToolExecution>): ApprovalNeed | undefined {
    if (exec.name === 'bash' && !this.registered.has('bash')) return this.bashApproval(exec.arguments, exec)
    const reg = this.registered.get(exec.name)
    if (!reg) return undefined
    let call: PlannedCall
    try {
      call = plannedCall(reg.tool, exec.arguments)
    } catch {
      return undefined // args that are not words, or an op that names no task: execute refuses them, and nothing runs
    }
    const verdict = callVerdict(call, this.live.root, this.live.book())
    this.#remember(exec.callId, call.command)
    return verdict.destructive ? recipeNeed(call.command, verdict) : undefined
  }

  /**
   * The last check in execute: a call that `tools/pre-execute` judged (and, when destructive, a
   * person allowed) runs; any other call is judged now and refused if destructive, so no listener
   * order nor a call made around the registry's events runs a destructive command unasked.
   */
  gate(call: PlannedCall, exec: ToolExecution): void {
    const judged = this.#judged.get(exec.callId)
    this.#judged.delete(exec.callId)
    if (judged === call.command) return
    const verdict = callVerdict(call, this.live.root, this.live.book())
    if (verdict.destructive) throw new Error(refusalText(recipeNeed(call.command, verdict), 'no person was asked to approve this call'))
  }

  #remember(callId: string, command: string): void {
    if (this.#judged.size >= 1000) this.#judged.delete(this.#judged.keys().next().value!)
    this.#judged.set(callId, command)
  }

  /**
   * The same gate for the built-in `bash`: the judge reads the command line itself, and follows a
   * discovered recipe it invokes by its runner command (`make clean`, `cd web && npm run wipe`).
   */
  bashApproval(args: unknown, exec?: Readonly<ToolExecution>): ApprovalNeed | undefined {
    const command = (args as { command?: unknown })?.command
    if (typeof command !== 'string' || command.trim() === '') return undefined
    const cwd = bashCwd(args, exec)
    const verdict = guardedJudgement(() => judgeCommand(command, { root: this.live.root, cwd, book: this.live.book() }))
    return verdict.destructive ? recipeNeed(command, verdict) : undefined
  }

  disposeAll(): void {
    for (const reg of this.registered.values()) reg.dispose()
    this.registered.clear()
  }
}

/** What the person is asked and the model told: the command line and the gate's reason (which names the line and the word). */
function recipeNeed(command: string, verdict: Verdict): ApprovalNeed {
  const reason = reasonClause(verdict)
  return { command, reason, ask: `\`${command}\` needs your approval: ${reason}.` }
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
    ctx.effect(() => askBeforeRunning(ctx, (exec) => core.tools.approvalReason(exec)), 'command-scout approval')
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
