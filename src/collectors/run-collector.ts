/**
 * Runs one collector under a guard (guard.ts): its budget, the limits on what it returns, and the
 * problems its file reads met, all turned into diagnostics. Both the CLI's `discover` and the
 * harness's live book run collectors through here, third parties' too.
 */
import { createDiagnostic, type Diagnostic } from '../book/recipe.js'
import { relPosix } from './shared/fs.js'
import { boundRecipes, BudgetStop, DEFAULT_BUDGET_MS, MAX_DIAGNOSTICS, MAX_DIRECTORIES, preview, runGuarded, type ScanGuard } from './shared/guard.js'
import type { CollectorResult } from './types.js'

export interface GuardedCollect {
  /** The collector's source, for its diagnostics. */
  readonly source: string
  /** Absolute scan root. */
  readonly root: string
  /** Wall-clock budget in milliseconds (default DEFAULT_BUDGET_MS). */
  readonly budgetMs?: number
  /** What happens to the rest when the budget runs out, for the diagnostic (default: it is not read). */
  readonly rest?: string
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

/**
 * `collect` run under a guard. Near the end of its budget the file helpers answer as if nothing
 * more were there, so the collector finishes with what it has, and a diagnostic names it; one that
 * is still running at the budget (a loop, a parser on a hostile file) is stopped there by the wall
 * clock, with a diagnostic and nothing listed. A throw becomes a diagnostic too (the caller adds
 * its own wording).
 */
export function runCollector(options: GuardedCollect, collect: () => CollectorResult): CollectorResult & { overBudget: boolean } {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS
  let value: CollectorResult
  let guard: ScanGuard
  let stopped = false
  try {
    ;({ value, guard } = runGuarded(options.root, budgetMs, collect))
  } catch (error) {
    // Stopped by the wall clock at its budget, wherever it was: what it found is lost with it.
    if (!(error instanceof BudgetStop) || !error.guard) throw error
    guard = error.guard
    value = { recipes: [], diagnostics: [], files: [] }
    stopped = true
  }
  const diagnostics: Diagnostic[] = [...value.diagnostics]
  for (const p of guard.problems) {
    const file = relPosix(options.root, p.path)
    diagnostics.push(createDiagnostic({ source: options.source, file: preview(file, 240), message: `${preview(file)} ${p.message}`, severity: p.severity }))
  }
  if (guard.directoriesCapped) {
    diagnostics.push(createDiagnostic({ source: options.source, file: '.', severity: 'warning', message: `glob patterns of the ${options.source} collector listed more than ${MAX_DIRECTORIES} directories (MAX_DIRECTORIES); the rest of the tree was not searched, so some matches may be missing` }))
  }
  const bounded = boundRecipes(value.recipes, options.source, value.found)
  for (const message of bounded.messages) diagnostics.push(createDiagnostic({ source: options.source, file: '.', severity: 'warning', message }))
  if (stopped) {
    diagnostics.push(createDiagnostic({
      source: options.source,
      file: '.',
      severity: 'error',
      message: `the ${options.source} collector ran past the scan's time budget of ${seconds(budgetMs)}; it was stopped there and none of its commands are listed, ${options.rest ?? 'as its manifests were not all read'}`,
    }))
  } else if (guard.expired) {
    diagnostics.push(createDiagnostic({
      source: options.source,
      file: '.',
      severity: 'error',
      message: `the ${options.source} collector ran past the scan's time budget of ${seconds(budgetMs)}; the ${bounded.recipes.length} command${bounded.recipes.length === 1 ? '' : 's'} it found until then ${bounded.recipes.length === 1 ? 'is' : 'are'} listed, ${options.rest ?? 'the rest of its manifests were not read'}`,
    }))
  }
  if (diagnostics.length > MAX_DIAGNOSTICS) {
    const more = diagnostics.length - MAX_DIAGNOSTICS
    diagnostics.splice(MAX_DIAGNOSTICS - 1, diagnostics.length, createDiagnostic({ source: options.source, file: '.', severity: 'warning', message: `${more + 1} more ${options.source} diagnostics are not shown (at most ${MAX_DIAGNOSTICS} per source, MAX_DIAGNOSTICS); fix the ones above and scan again` }))
  }
  return { recipes: bounded.recipes, diagnostics, files: value.files, overBudget: guard.expired }
}
