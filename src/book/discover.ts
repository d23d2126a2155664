/**
 * Runs the enabled collectors over a root and gathers their recipes in a RecipeBook.
 * Statically: nothing here runs repository code. A collector that fails unexpectedly
 * becomes a diagnostic, and the others go on.
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { BUILTIN_COLLECTORS, type Collector } from '../collectors/index.js'
import { noteStat, observing } from '../collectors/shared/observe.js'
import { runCollector } from '../collectors/run-collector.js'
import { normalizeConfig, type Config, type ConfigInput } from './config.js'
import { createDiagnostic, type Diagnostic, type Recipe } from './recipe.js'
import { RecipeBook } from './recipe-book.js'
import { installHint, onPath } from './runners.js'
import { RootCache, type ScanCacheOptions } from './scan-cache.js'
import type { ScanInputs } from './scan-record.js'

export interface DiscoverResult {
  /** Absolute scan root. */
  root: string
  book: RecipeBook
  diagnostics: Diagnostic[]
  /** POSIX paths, relative to the root, of every manifest read, in source order. */
  detectedFiles: string[]
  /** Sources whose earlier result was reused because nothing they read had changed (src/book/scan-cache.ts). */
  reused: string[]
  /**
   * Everything this result was computed from, so that it can be checked again as a whole
   * (src/book/scan-record.ts); only with a cache, and only when every collector's result could be kept.
   */
  inputs?: ScanInputs
}

export interface DiscoverOptions {
  /** Collectors to run instead of the built-in ones (tests, third parties). */
  collectors?: readonly Collector<any>[]
  /** Environment whose PATH decides which runners are available (default process.env). */
  env?: NodeJS.ProcessEnv
  /** Warn about runners missing from PATH (default true); off for output that describes only the repository. */
  checkRunners?: boolean
  /** Wall-clock budget of each collector in milliseconds (default 10 s); past it, what was found is kept. */
  budgetMs?: number
  /**
   * Reuse of each built-in collector's result while all it read is unchanged (src/book/scan-cache.ts):
   * in memory by default, also on disk with `{ dir }`; false computes everything. Collectors given
   * in `collectors` are never cached (what they read is not recorded).
   */
  cache?: false | ScanCacheOptions
}

export function discover(root = '.', config: ConfigInput | Config = {}, options: DiscoverOptions = {}): DiscoverResult {
  const cfg = normalizeConfig(config)
  const absRoot = resolve(root)
  const diagnostics: Diagnostic[] = []
  const detectedFiles: string[] = []
  const seenFiles = new Set<string>()
  const book = new RecipeBook()
  if (!isDirectory(absRoot)) {
    const why = existsSync(absRoot) ? '' : ' (it does not exist)'
    diagnostics.push(createDiagnostic({ source: 'scan', file: '.', message: `scan root ${absRoot} is not a directory${why}` }))
    return { root: absRoot, book, diagnostics, detectedFiles, reused: [] }
  }
  const reused: string[] = []
  const cache = options.collectors || options.cache === false ? undefined : new RootCache(absRoot, options.cache)
  for (const collector of options.collectors ?? BUILTIN_COLLECTORS) {
    const section = cfg.collectors[collector.source] ?? { enabled: true }
    if (!section.enabled) continue
    try {
      let result = cache?.reuse(collector.source, section)
      if (result) reused.push(collector.source)
      else {
        const guarded = { source: collector.source, root: absRoot, budgetMs: options.budgetMs }
        const run = observing(() => runCollector(guarded, () => collector.collect({ root: absRoot, options: section })))
        result = run.value
        cache?.keep(collector.source, section, run.observations, run.value, run.value.overBudget)
      }
      book.addAll(result.recipes)
      diagnostics.push(...result.diagnostics)
      for (const f of result.files) {
        if (!seenFiles.has(f)) seenFiles.add(f), detectedFiles.push(f)
      }
    } catch (error) {
      cache?.incomplete()
      diagnostics.push(createDiagnostic({
        source: collector.source,
        file: '.',
        message: `the ${collector.source} collector failed: ${(error as Error)?.message ?? error}; its recipes are missing from this scan (this is a bug in command-scout, please report it with the manifest)`,
      }))
    }
  }
  cache?.flush()
  const observed = cache?.observed()
  const inputs: ScanInputs | undefined = cache && observed && { ...observed, runners: new Map(), startedAt: cache.startedAt }
  if (inputs) noteStat(inputs, absRoot)
  if (options.checkRunners !== false) diagnostics.push(...missingRunners(book.entries(), options.env ?? process.env, inputs?.runners))
  return { root: absRoot, book, diagnostics, detectedFiles, reused, inputs }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export { onPath }

/** One warning per runner that is not on PATH: its recipes are listed but can't run here. */
export function missingRunners(recipes: readonly Recipe[], env: NodeJS.ProcessEnv = process.env, checked?: Map<string, boolean>): Diagnostic[] {
  const byRunner = new Map<string, Recipe[]>()
  // A source's recipes come together and mostly share a runner: the last one's list first, no look-up.
  let last: string | undefined
  let lastList: Recipe[] = []
  for (let i = 0; i < recipes.length; i++) {
    const r = recipes[i]!
    if (r.runner !== last) {
      last = r.runner
      let list = byRunner.get(last)
      if (list === undefined) byRunner.set(last, (list = []))
      lastList = list
    }
    lastList.push(r)
  }
  const out: Diagnostic[] = []
  for (const [runner, list] of byRunner) {
    const found = onPath(runner, env)
    checked?.set(runner, found)
    if (found) continue
    const files = [...new Set(list.map((r) => r.file))]
    out.push(createDiagnostic({
      source: list[0]!.source,
      file: files[0]!,
      severity: 'warning',
      message: `${runner} is not on PATH: ${list.length} recipe${list.length === 1 ? '' : 's'} from ${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''} ${list.length === 1 ? 'is' : 'are'} listed but can't run here; ${installHint(runner, list.find((r) => r.install)?.install)}`,
    }))
  }
  return out
}
