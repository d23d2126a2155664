/** The contract every collector keeps: read one manifest format statically, never run repository code. */
import type { BuiltinSource, Diagnostic, Recipe } from '../book/recipe.js'
import type { CollectorConfig } from '../book/config.js'

export interface CollectContext<O extends CollectorConfig = CollectorConfig> {
  /** Absolute path of the scan root. */
  readonly root: string
  /** The collector's own config section, normalized. */
  readonly options: O
}

export interface CollectorResult {
  /** In file order: the order a person reads them in the manifest(s). */
  recipes: Recipe[]
  /** Problems in the user's files; a collector never throws on bad input. */
  diagnostics: Diagnostic[]
  /** POSIX paths, relative to the root, of every manifest that was read (watch list and `detectedFiles`). */
  files: string[]
  /**
   * How many commands there are, when `recipes` holds fewer: a collector may stop making recipes
   * one past MAX_RECIPES (guard.ts), which is all the run-collector keeps; its diagnostic gives this count.
   */
  found?: number
}

export interface Collector<O extends CollectorConfig = CollectorConfig> {
  readonly source: BuiltinSource
  /** File names whose appearance anywhere under the root may change this collector's result. */
  readonly manifestNames: readonly string[]
  collect(ctx: CollectContext<O>): CollectorResult
}
