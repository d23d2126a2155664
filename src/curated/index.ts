/**
 * The curated recipe library (Recipe Specification v0.1): load, validate, render, search.
 * Harness-free; the dsh tools are in `../dsh/curated-tools.js` (package subpath `./curated/plugin`, through `../dsh/entries/curated.js`).
 */
export { loadLibrary, SHIPPED_RECIPES_DIR } from './load.js'
export { validateLibrary, type ValidateOptions } from './validate.js'
export {
  renderRecipe, RecipeRenderError, currentPlatform, stepsFor, supportedPlatforms,
  type RenderedRecipe, type RenderedCommand, type RenderOptions, type RenderErrorCode,
} from './render.js'
export { searchLibrary, type SearchQuery } from './search.js'
export { runRendered, renderRunText, type RecipeRunValue, type StepOutcome, type CheckOutcome, type RunCommandLine } from './run.js'
export { formatIssue, formatIssues } from './format.js'
export { quotePosix, quotePowerShell, quoteFor } from '../base/quote.js'
export { writes, destroys, safetyFindings } from './commands.js'
export { notImperative } from './rules.js'
export {
  CATEGORIES, RISKS, PLATFORMS, PARAM_TYPES, RULES, riskRank,
  type Category, type Risk, type Platform, type ParamType, type ParamValue, type Parameter, type Step, type PlatformEntry,
  type VerificationStep, type Undo, type CuratedRecipe, type ValidationIssue, type Library, type RuleCode,
} from './schema.js'
