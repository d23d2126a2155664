/**
 * The embedding API of dsh-command-scout, as the package main (./index.ts) gives it: from the main's
 * bundle (dist/src/main.bundle.cjs, this module bundled by scripts/bundle-rows.mjs) or, without one,
 * this module itself. No harness imports here: harness entries are package subpaths. A scan loads
 * what it needs; running commands loads its process library (execa) on the first run.
 */
import type { RunOptions, RunResult } from './book/execute.js'

export { discover, onPath, type DiscoverResult, type DiscoverOptions } from './book/discover.js'
export { RecipeBook, RESERVED_TOOL_NAMES, sanitizeName, preferredToolName } from './book/recipe-book.js'
export {
  createRecipe, createDiagnostic, recipeId, RecipeError, BUILTIN_SOURCES,
  type Recipe, type RecipeInput, type RecipeParameter, type Diagnostic, type BuiltinSource,
} from './book/recipe.js'
export type { RunOptions, RunResult } from './book/execute.js'

/** The runner of commands, loaded on first use (bench/import-cost.mjs measures what it costs). */
function execute(): Promise<typeof import('./book/execute.js')> {
  return import('./book/execute.js')
}

/** Runs a command line through the platform shell: see src/book/execute.ts. */
export async function runCommand(command: string, options: RunOptions = {}): Promise<RunResult> {
  return (await execute()).runCommand(command, options)
}

/** Signals a process group and every descendant: see src/book/execute.ts. */
export async function killTree(pid: number, signal: NodeJS.Signals, marker?: string): Promise<void> {
  return (await execute()).killTree(pid, signal, marker)
}
export { renderJson, renderMarkdown, scanReport, type ScanReport } from './book/report.js'
export { renderTable, displayWidth, truncateToWidth, type TableOptions } from './cli/table.js'
export { normalizeConfig, DEFAULT_CONFIG, ConfigError, type Config, type ConfigInput } from './book/config.js'
export { BUILTIN_COLLECTORS, type Collector, type CollectContext, type CollectorResult } from './collectors/index.js'
export {
  offeredRecipes, effectiveExposure, estimatedToolTokens, recipeToolDescription,
  TOOLS_TOKEN_BUDGET, CHARS_PER_TOKEN, planTools, type ExposureOptions, type PlannedTool,
} from './book/exposure.js'
// The dispatcher and the runner checks, from the modules that define them.
export { dispatchTasks, dispatcherDescription, resolveOp, taskToken, DispatchError, PROMPT_TASK_CHARS, type DispatchTask } from './book/dispatcher.js'
export { missingExecutable, missingRunnerMessage, missingRunnerNote, INSTALL_HINTS } from './book/runners.js'
