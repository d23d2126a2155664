/**
 * `dsh-command-scout/adapter`: the recipe book's provider in the harness. It provides
 * `ctx.recipes` (collectors contribute to it), exposes the book as tools (one per recipe, or a
 * dispatcher), keeps the tools in step with the book, runs commands through the harness shell,
 * and sends destructive commands to the harness's approval first.
 */
import { resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type {} from '@deepseek-ai/dsh-shell'
import type { Config } from '../config.js'
import type { Diagnostic, Recipe } from '../recipe.js'
import type { RecipeBook } from '../recipe-book.js'
import { confirmationNeed, plannedCommand, planTools, type PlannedTool } from '../exposure.js'
import { askBeforeRunning, type ApprovalNeed } from './approval.js'
import { LiveBook } from './live-book.js'
import { RecipeBookService, type BookCollector } from './recipes.js'
import { classifyCommandRisk, classifyRecipeRisk, simpleCommandArgv } from './risk.js'
import { AdapterConfig, normalizeAdapterConfig } from './schema.js'
import { runInHarnessShell } from './shell-run.js'
import { harnessTool, type RunRecipe } from './tools.js'

export const name = 'command-scout'

export { DISPATCHER_NAME, effectiveExposure } from '../exposure.js'

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
    const wanted = new Map(planTools(this.live.book(), this.config, others).map((t) => [t.name, t]))
    for (const [toolName, reg] of this.registered) {
      if (wanted.get(toolName)?.signature === reg.signature) continue
      reg.dispose()
      this.registered.delete(toolName)
    }
    for (const [toolName, tool] of wanted) {
      if (this.registered.has(toolName)) continue
      try {
        const dispose = this.ctx.tools.register(harnessTool(tool, this.run) as Parameters<Context['tools']['register']>[0])
        this.registered.set(toolName, { signature: tool.signature, dispose, tool })
      } catch (error) {
        // Another plugin took the name since the names were assigned, or the adapter is unloading:
        // the next change retries; the harness keeps running either way.
        this.ctx.logger?.(name).warn('tool %s not registered: %s', toolName, (error as Error)?.message ?? error)
      }
    }
  }

  /** Why a call needs approval, if it does: one of our tools, or `bash` running a destructive command. */
  approvalReason(exec: Readonly<ToolExecution>): ApprovalNeed | undefined {
    if (exec.name === 'bash' && !this.registered.has('bash')) return this.bashApproval(exec.arguments)
    const reg = this.registered.get(exec.name)
    if (!reg) return undefined
    const target = plannedCommand(reg.tool, exec.arguments)
    if (!target) return undefined // an op that doesn't resolve fails in execute with the task list
    return confirmationNeed(target.recipe, target.command)
  }

  /**
   * The same check for the built-in `bash`: a destructive recipe invoked by its runner command
   * (`make nuke`, `cd web && npm run wipe`), or a command line the classifier finds destructive.
   */
  bashApproval(args: unknown): ApprovalNeed | undefined {
    const command = (args as { command?: unknown })?.command
    if (typeof command !== 'string' || command.trim() === '') return undefined
    const lines = simpleCommandArgv(command)
    for (const { recipe, invocation, reason } of this.destructiveRecipes()) {
      if (lines.some((argv) => invocation.every((word, k) => argv[k] === word))) {
        return { command, reason: `runs the project's ${recipe.source} recipe \`${recipe.command}\`, which ${reason}` }
      }
    }
    const risk = classifyCommandRisk(command)
    return risk.destructive ? { command, reason: risk.reason! } : undefined
  }

  #destructive: { book: RecipeBook; list: Array<{ recipe: Recipe; invocation: string[]; reason: string }> } | undefined

  /** The book's destructive recipes with their runner invocation, classified once per book. */
  destructiveRecipes(): Array<{ recipe: Recipe; invocation: string[]; reason: string }> {
    const book = this.live.book()
    if (this.#destructive?.book !== book) {
      const list = []
      for (const recipe of book.entries()) {
        const risk = classifyRecipeRisk(recipe, recipe.command)
        const invocation = risk.destructive ? simpleCommandArgv(recipe.command)[0] : undefined
        if (invocation?.length) list.push({ recipe, invocation, reason: risk.reason! })
      }
      this.#destructive = { book, list }
    }
    return this.#destructive.list
  }

  disposeAll(): void {
    for (const reg of this.registered.values()) reg.dispose()
    this.registered.clear()
  }
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
