/**
 * The package main: the embedding API (./api.ts) from the main's bundle, dist/src/main.bundle.cjs
 * (scripts/bundle-rows.mjs), run with V8's code cache (./base/bundle-script.ts), so that an import
 * reads one script and deserializes its cache instead of parsing and compiling about 70 modules; the
 * cache is made as the first process that imports it exits. Without the bundle (no esbuild at build
 * time, or COMMAND_SCOUT_MAIN_BUNDLE=off) the API comes from its compiled module (Node's `require`
 * of an ES module, which has no top-level await, so this module has none either and can be required).
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type * as Api from './api.js'
import { readBundle, runBundle } from './base/bundle-script.js'

const BUNDLE_FILE = fileURLToPath(new URL('./main.bundle.cjs', import.meta.url))
const requireHere = createRequire(import.meta.url)

function load(): typeof Api {
  const text = process.env.COMMAND_SCOUT_MAIN_BUNDLE === 'off' ? undefined : readBundle(BUNDLE_FILE)
  if (text) return runBundle(BUNDLE_FILE, text, { name: 'main', require: requireHere }) as unknown as typeof Api
  return requireHere('./api.js') as typeof Api
}

const api = load()

export const {
  discover, onPath, RecipeBook, RESERVED_TOOL_NAMES, sanitizeName, preferredToolName,
  createRecipe, createDiagnostic, recipeId, RecipeError, BUILTIN_SOURCES, runCommand, killTree,
  renderJson, renderMarkdown, scanReport, renderTable, displayWidth, truncateToWidth,
  normalizeConfig, DEFAULT_CONFIG, ConfigError, BUILTIN_COLLECTORS,
  offeredRecipes, effectiveExposure, estimatedToolTokens, recipeToolDescription, TOOLS_TOKEN_BUDGET, CHARS_PER_TOKEN, planTools,
  dispatchTasks, dispatcherDescription, resolveOp, taskToken, DispatchError, PROMPT_TASK_CHARS,
  missingExecutable, missingRunnerMessage, missingRunnerNote, INSTALL_HINTS,
} = api

// The classes are types too.
export type RecipeBook = Api.RecipeBook
export type RecipeError = Api.RecipeError
export type ConfigError = Api.ConfigError
export type DispatchError = Api.DispatchError
export type {
  DiscoverResult, DiscoverOptions, Recipe, RecipeInput, RecipeParameter, Diagnostic, BuiltinSource, RunOptions, RunResult,
  ScanReport, TableOptions, Config, ConfigInput, Collector, CollectContext, CollectorResult, ExposureOptions, PlannedTool, DispatchTask,
} from './api.js'
