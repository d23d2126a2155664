/**
 * `dsh-command-scout/adapter`: the recipe book's provider in the harness. It provides
 * `ctx.recipes` (collectors contribute to it), keeps a live book, and hands the book to its tools
 * (tools.ts `RecipeTools`: one per recipe or a dispatcher, kept in step with the book, and the
 * approval of their calls and of the built-in `bash`), which it registers in `tools/pre-execute`.
 */
import { resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-shell'
import type { Config } from '../book/config.js'
import type { Diagnostic, Recipe } from '../book/recipe.js'
import type { RecipeBook } from '../book/recipe-book.js'
import { askBeforeRunning } from './approval.js'
import { LiveBook } from '../book/live-book.js'
import { RecipeBookService, type BookCollector } from './book-service.js'
import { AdapterConfig, normalizeAdapterConfig } from './schema.js'
import { markStarted } from './start-mark.js'
import { RecipeTools } from './tools.js'

export const name = 'command-scout'

export { DISPATCHER_NAME, effectiveExposure } from '../book/exposure.js'

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

  readonly core: { config: Config; live: LiveBook; tools: RecipeTools; flush: () => void }

  constructor(ctx: Context, rowConfig: AdapterConfig) {
    super(ctx)
    const config = normalizeAdapterConfig(rowConfig)
    const reported = new Set<string>()
    // Changes that come together (every collector row adding itself while the harness starts, or
    // leaving as it stops) are answered once, after them (a microtask later): one tool plan, one
    // event. Reading the tools through this service answers a change still queued first.
    let queued = false
    let closed = false
    const answer = () => {
      queued = false
      if (closed) return
      core.tools.sync()
      reportNewDiagnostics(ctx, live.diagnostics(), reported)
      ctx.emit('recipes/change')
      markStarted()
    }
    const live = new LiveBook(resolve(process.cwd(), config.root), {
      onChange: () => {
        if (queued) return
        queued = true
        queueMicrotask(answer)
      },
    })
    const core = { config, live, tools: new RecipeTools(ctx, config, live, name), flush: () => queued && answer() }
    this.core = core
    ctx.effect(() => askBeforeRunning(ctx, (exec) => core.tools.approvalReason(exec), (exec) => core.tools.prepared.allow(exec)), 'command-scout approval')
    ctx.effect(() => () => {
      closed = true
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
    this.core.flush()
    return [...this.core.tools.registered.keys()]
  }
}

export { CommandScout }
