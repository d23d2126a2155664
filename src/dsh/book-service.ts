/**
 * Service Definition of the recipe book in the harness: `ctx.recipes`. It says WHAT a recipe
 * book does; `adapter.ts` is the provider that also turns the book into tools.
 *
 * Semantics every implementation owes:
 * - **Contributions compose independently.** Each `contribute`/`addCollector` call adds one
 *   source's recipes; the book dedupes by recipe id (the first contribution wins), orders by
 *   source (the built-in order, then third parties in arrival order), then by file order.
 * - **Disposers, bound to the caller.** Both return a disposer, and the contribution also goes
 *   away when the calling plugin unloads (like `ctx.tools.register`).
 * - **Collectors stay current.** A collector added with `addCollector` is run against `root`
 *   at once, and again (debounced) when a file it read changes or a file named like one of
 *   its `manifestNames` appears, changes or goes anywhere under the root.
 * - **Diagnostics are stamped** with the contributing source; they never throw.
 * - **Change is observable** through the `recipes/change` event, after the book settled.
 */
import { Service, type Context } from '@deepseek-ai/cordis'
import type { Diagnostic, Recipe } from '../book/recipe.js'
import type { RecipeBook } from '../book/recipe-book.js'
import type { BookCollector } from '../book/live-book.js'

export { bookCollector, type BookCollector } from '../book/live-book.js'

declare module '@deepseek-ai/cordis' {
  interface Context {
    recipes: RecipeBookService
  }
  interface Events {
    /** The book's recipes or diagnostics changed (after a contribution, a removal or a re-scan). */
    'recipes/change'(): void
  }
}

export abstract class RecipeBookService extends Service {
  constructor(ctx: Context) {
    super(ctx, 'recipes')
  }
  /** Absolute path of the scanned root. */
  abstract readonly root: string
  /** Adds one source's recipes (and the problems found reading them); returns a disposer. */
  abstract contribute(source: string, recipes: readonly Recipe[], diagnostics?: readonly Diagnostic[]): () => void
  /** Runs a collector now and again when its manifests change; returns a disposer. */
  abstract addCollector(collector: BookCollector): () => void
  /** The current book (a snapshot: later changes make a new one). */
  abstract book(): RecipeBook
  abstract diagnostics(): readonly Diagnostic[]
  /** Resolves once pending re-scans have run (tests, and callers that just wrote a manifest). */
  abstract settled(): Promise<void>
}
