/** The embedding API of dsh-command-scout. No harness imports here: harness entries are package subpaths. */
export { discover, onPath, type DiscoverResult, type DiscoverOptions } from './book/discover.js'
export { RecipeBook, RESERVED_TOOL_NAMES, sanitizeName, preferredToolName } from './book/recipe-book.js'
export {
  createRecipe, createDiagnostic, recipeId, RecipeError, BUILTIN_SOURCES,
  type Recipe, type RecipeInput, type RecipeParameter, type Diagnostic, type BuiltinSource,
} from './book/recipe.js'
export { runCommand, killTree, type RunOptions, type RunResult } from './book/execute.js'
export { renderJson, renderMarkdown, scanReport, type ScanReport } from './book/report.js'
export { renderTable, displayWidth, truncateToWidth, type TableOptions } from './cli/table.js'
export { normalizeConfig, DEFAULT_CONFIG, ConfigError, type Config, type ConfigInput } from './book/config.js'
export { BUILTIN_COLLECTORS, type Collector, type CollectContext, type CollectorResult } from './collectors/index.js'
export {
  offeredRecipes, effectiveExposure, estimatedToolTokens, recipeToolDescription, missingRunnerNote,
  TOOLS_TOKEN_BUDGET, CHARS_PER_TOKEN, planTools, type ExposureOptions, type PlannedTool,
} from './book/exposure.js'
export { dispatchTasks, dispatcherDescription, resolveOp, taskToken, DispatchError, PROMPT_TASK_CHARS, type DispatchTask } from './book/exposure.js'
export { missingExecutable, missingRunnerMessage, INSTALL_HINTS } from './book/runners.js'
