/**
 * The live recipe book: contributions and collectors over one root, kept current by a file
 * watcher. No Cordis here; `adapter.ts` wraps it as the `ctx.recipes` service.
 */
import { statSync } from 'node:fs'
import { basename, relative, sep } from 'node:path'
import { Worker } from 'node:worker_threads'
import { watch, type FSWatcher } from 'chokidar'
import type { CollectorResult } from '../collectors/types.js'
import { BUILTIN_SOURCES, createDiagnostic, type Diagnostic, type Recipe } from './recipe.js'
import { RecipeBook } from './recipe-book.js'
import type { Collector } from '../collectors/types.js'
import type { CollectorConfig } from './config.js'
import { runCollector } from '../collectors/run-collector.js'

/** A collector as the book runs it: the built-in Collector contract, or a third party's. */
export interface BookCollector {
  /** The source name its recipes carry (make, scripts, ..., or a third party's). */
  readonly source: string
  /** File names whose appearance anywhere under the root may change the result. */
  readonly manifestNames: readonly string[]
  /** Reads the root statically; never runs repository code, never throws on bad input. */
  collect(root: string): CollectorResult
  /** For a built-in collector: what a scan worker needs to run it off the main thread. */
  readonly builtin?: { readonly source: string; readonly options: CollectorConfig }
}

/** Folders never watched: dependencies, VCS data and build output hold no manifest of the project's own. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([
  'node_modules', '.git', '.hg', '.svn', 'dist', 'target', '.cache', '.venv', 'venv', '__pycache__',
  'coverage', '.next', '.nuxt', '.turbo', '.parcel-cache', '.pytest_cache', '.mypy_cache',
])

export const DEFAULT_DEBOUNCE_MS = 150
/**
 * Time all collectors' first runs may take together while the session starts. A collector still
 * reading when its share runs out lists what it found, and its full scan goes on in a worker
 * thread (built-in collectors) or after start (third parties): a slow scan never delays the start.
 */
export const STARTUP_BUDGET_MS = 1_000
/**
 * How long after the first collector is added the watcher starts. Its first walk of the tree (every
 * folder but IGNORED_DIRS) would otherwise run beside the session's start, before its first model
 * request: about 100 ms on a 279-package workspace. Nothing is missed meanwhile: once ready, the
 * watcher has every collector run again. After the harness's code cache is made (a second after
 * the start, src/dsh/rows-loader.ts), so that the cache holds only what a start runs. settled()
 * starts it at once.
 */
export const WATCH_AFTER_MS = 1_500
/** Budget of a scan run in the background (a worker is abandoned a little after it). */
const BACKGROUND_BUDGET_MS = 10_000

/** Wraps a built-in collector with its normalized config section. */
export function bookCollector<O extends CollectorConfig>(collector: Collector<O>, options: O): BookCollector {
  return {
    source: collector.source,
    manifestNames: collector.manifestNames,
    collect: (root) => collector.collect({ root, options }),
    builtin: { source: collector.source, options },
  }
}

interface Entry {
  source: string
  recipes: readonly Recipe[]
  diagnostics: readonly Diagnostic[]
  /** Set for collectors: re-run on change. */
  collector?: BookCollector
  /** POSIX paths, relative to the root, the collector read last time. */
  files: ReadonlySet<string>
  /** Its first run ran out of the startup budget: its re-scans run in the background too. */
  slow?: boolean
}

export interface LiveBookOptions {
  /** Watch the root for manifest changes (default true). */
  watch?: boolean
  debounceMs?: number
  /** Called after every change, once the book settled. */
  onChange?: () => void
  /** Shared budget of the collectors' first runs (default STARTUP_BUDGET_MS). */
  startupBudgetMs?: number
  /** Milliseconds from the first collector to the watcher's start (default WATCH_AFTER_MS; 0: at once). */
  watchAfterMs?: number
}

export class LiveBook {
  readonly #entries = new Map<symbol, Entry>()
  readonly #options: Required<Omit<LiveBookOptions, 'onChange'>> & Pick<LiveBookOptions, 'onChange'>
  /** Milliseconds the first runs have taken so far (STARTUP_BUDGET_MS). */
  #startupSpent = 0
  /** Full scans running in the background, awaited by settled(). */
  readonly #background = new Set<Promise<void>>()
  #worker: ScanWorker | undefined
  #book: RecipeBook | undefined
  #diagnostics: Diagnostic[] | undefined
  #watcher: FSWatcher | undefined
  #watcherReady: Promise<void> = Promise.resolve()
  /** The watcher's start, while it waits (WATCH_AFTER_MS). */
  #watchTimer: NodeJS.Timeout | undefined
  readonly #dirty = new Set<symbol>()
  #timer: NodeJS.Timeout | undefined
  #pending: Promise<void> = Promise.resolve()
  #closed = false

  constructor(readonly root: string, options: LiveBookOptions = {}) {
    this.#options = {
      watch: options.watch ?? true,
      debounceMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
      startupBudgetMs: options.startupBudgetMs ?? STARTUP_BUDGET_MS,
      watchAfterMs: options.watchAfterMs ?? WATCH_AFTER_MS,
      onChange: options.onChange,
    }
  }

  contribute(source: string, recipes: readonly Recipe[], diagnostics: readonly Diagnostic[] = []): () => void {
    const key = Symbol(source)
    this.#entries.set(key, { source, recipes: [...recipes], diagnostics: stamp(source, diagnostics), files: new Set() })
    this.#changed()
    return () => this.#remove(key)
  }

  addCollector(collector: BookCollector): () => void {
    const key = Symbol(collector.source)
    this.#entries.set(key, { source: collector.source, recipes: [], diagnostics: [], collector, files: new Set() })
    this.#run(key, true)
    this.#scheduleWatcher()
    this.#changed()
    return () => this.#remove(key)
  }

  book(): RecipeBook {
    this.#book ??= this.#build()
    return this.#book
  }

  diagnostics(): readonly Diagnostic[] {
    this.#diagnostics ??= [
      ...(isDirectory(this.root) ? [] : [createDiagnostic({ source: 'scan', file: '.', message: `scan root ${this.root} is not a directory; set the command-scout row's \`root\` to a folder (relative to the working directory)` })]),
      ...[...this.#entries.values()].flatMap((e) => e.diagnostics),
    ]
    return this.#diagnostics
  }

  /** Whether the watcher has started (WATCH_AFTER_MS after the first collector, or at settled()). */
  get watching(): boolean {
    return this.#watcher !== undefined
  }

  /** Resolves when the watcher is ready and no re-scan is pending. */
  async settled(): Promise<void> {
    if (this.#watchTimer) this.#ensureWatcher()
    await this.#watcherReady
    while (this.#timer !== undefined || this.#dirty.size > 0 || this.#background.size > 0) {
      if (this.#background.size > 0) await Promise.all(this.#background)
      else await new Promise((resolve) => setTimeout(resolve, this.#options.debounceMs))
      await this.#pending
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = undefined
    clearTimeout(this.#watchTimer)
    this.#watchTimer = undefined
    const watcher = this.#watcher
    this.#watcher = undefined
    this.#worker?.close()
    this.#worker = undefined
    await watcher?.close()
  }

  #remove(key: symbol): void {
    if (this.#entries.delete(key)) this.#changed()
  }

  #changed(): void {
    this.#book = undefined
    this.#diagnostics = undefined
    if (!this.#closed) this.#options.onChange?.()
  }

  /**
   * Runs one collector; an unexpected throw becomes a diagnostic and the last recipes go. A
   * first run shares the startup budget; if it runs out, the full scan goes on in the background.
   */
  #run(key: symbol, first = false): void {
    const entry = this.#entries.get(key)
    if (!entry?.collector) return
    try {
      const collector = entry.collector
      const started = performance.now()
      const budgetMs = first ? Math.max(50, this.#options.startupBudgetMs - this.#startupSpent) : undefined
      // Under a guard: a budget, the scan's limits, and diagnostics for files it could not read.
      const rest = first ? 'the rest is read in the background and listed when it is done' : undefined
      const result = runCollector({ source: entry.source, root: this.root, budgetMs, ...(rest ? { rest } : {}) }, () => collector.collect(this.root))
      if (first) this.#startupSpent += performance.now() - started
      if (first && result.overBudget) {
        entry.slow = true
        this.#continueInBackground(key)
      }
      entry.recipes = result.recipes
      entry.diagnostics = stamp(entry.source, result.diagnostics)
      entry.files = new Set(result.files)
    } catch (error) {
      entry.recipes = []
      entry.diagnostics = [createDiagnostic({
        source: entry.source,
        file: '.',
        message: `the ${entry.source} collector failed: ${(error as Error)?.message ?? error}; its recipes are missing until its manifests change again`,
      })]
    }
  }

  /** The full scan of a collector whose first run ran out of the startup budget. */
  #continueInBackground(key: symbol): void {
    const entry = this.#entries.get(key)
    const collector = entry?.collector
    if (!entry || !collector || this.#closed) return
    const job = (async () => {
      // Off the main thread when the collector is a built-in one; a third party's runs after start.
      let result: CollectorResult
      if (collector.builtin) {
        this.#worker ??= new ScanWorker()
        result = await this.#worker.run(this.root, collector.builtin.source, collector.builtin.options, BACKGROUND_BUDGET_MS)
      } else {
        await new Promise((resolve) => setImmediate(resolve))
        result = runCollector({ source: entry.source, root: this.root, budgetMs: BACKGROUND_BUDGET_MS }, () => collector.collect(this.root))
      }
      if (this.#closed || this.#entries.get(key) !== entry) return
      entry.recipes = result.recipes.map((r) => Object.freeze(r))
      entry.diagnostics = stamp(entry.source, result.diagnostics)
      entry.files = new Set(result.files)
      this.#changed()
    })().catch((error) => {
      if (this.#closed || this.#entries.get(key) !== entry) return
      entry.diagnostics = [...entry.diagnostics, createDiagnostic({ source: entry.source, file: '.', message: `the ${entry.source} collector's background scan failed: ${(error as Error)?.message ?? error}; the commands found at start stay listed until its manifests change` })]
      this.#changed()
    }).finally(() => this.#background.delete(job))
    this.#background.add(job)
  }

  #build(): RecipeBook {
    // Built-in sources keep their order; third parties follow in the order they arrived.
    const book = new RecipeBook([], BUILTIN_SOURCES)
    for (const entry of this.#entries.values()) book.addAll(entry.recipes)
    return book
  }

  /** Starts the watcher after WATCH_AFTER_MS (at once for 0); an unref'd timer keeps no process alive. */
  #scheduleWatcher(): void {
    if (!this.#options.watch || this.#watcher || this.#watchTimer || this.#closed) return
    if (this.#options.watchAfterMs <= 0) return this.#ensureWatcher()
    this.#watchTimer = setTimeout(() => this.#ensureWatcher(), this.#options.watchAfterMs)
    this.#watchTimer.unref()
  }

  #ensureWatcher(): void {
    clearTimeout(this.#watchTimer)
    this.#watchTimer = undefined
    if (!this.#options.watch || this.#watcher || this.#closed) return
    const root = this.root
    this.#watcher = watch(root, {
      ignoreInitial: true,
      // Not descending into ignored folders is what keeps the watcher cheap on big trees.
      ignored: (path) => path !== root && relative(root, path).split(sep).some((part) => IGNORED_DIRS.has(part)),
      awaitWriteFinish: false,
    })
    this.#watcherReady = new Promise((resolve) => {
      this.#watcher!.once('ready', () => {
        // A manifest written while the watcher was still scanning the tree raised no event:
        // re-run every collector once (cheap, static reads; no change means no event).
        for (const [key, entry] of this.#entries) if (entry.collector) this.#dirty.add(key)
        this.#schedule()
        resolve()
      })
      this.#watcher!.once('error', () => resolve())
    })
    this.#watcher.on('all', (_event, path) => this.#onFile(path))
    // A watcher error (a folder vanished, too many watches) must not take the harness down.
    this.#watcher.on('error', () => {})
  }

  #onFile(path: string): void {
    const rel = relative(this.root, path).split(sep).join('/')
    const name = basename(path)
    for (const [key, entry] of this.#entries) {
      if (!entry.collector) continue
      if (entry.files.has(rel) || entry.collector.manifestNames.includes(name)) this.#dirty.add(key)
    }
    this.#schedule()
  }

  /** Re-scans the dirty collectors after a quiet period of debounceMs. */
  #schedule(): void {
    if (this.#dirty.size === 0 || this.#closed) return
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#pending = this.#pending.then(() => this.#rescan())
    }, this.#options.debounceMs)
  }

  #rescan(): void {
    if (this.#closed) return
    const keys = [...this.#dirty]
    this.#dirty.clear()
    const before = JSON.stringify(keys.map((k) => this.#entries.get(k)).map((e) => e && [e.recipes, e.diagnostics]))
    for (const key of keys) {
      if (this.#entries.get(key)?.slow) this.#continueInBackground(key)
      else this.#run(key)
    }
    const after = JSON.stringify(keys.map((k) => this.#entries.get(k)).map((e) => e && [e.recipes, e.diagnostics]))
    if (after !== before) this.#changed()
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function stamp(source: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => (d.source ? d : createDiagnostic({ ...d, source })))
}

/** One worker thread for the book's background scans, abandoned (terminated) when one never answers. */
class ScanWorker {
  #worker: Worker | undefined
  #next = 0
  readonly #waiting = new Map<number, { resolve: (r: CollectorResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>()

  run(root: string, source: string, options: unknown, budgetMs: number): Promise<CollectorResult> {
    const worker = (this.#worker ??= this.#start())
    const id = ++this.#next
    return new Promise((resolve, reject) => {
      // The collector's own budget ends it; past that and a margin, the worker is stuck (a read
      // that never returns): it is terminated and the next scan gets a new one.
      const timer = setTimeout(() => {
        this.#waiting.delete(id)
        void this.#worker?.terminate()
        this.#worker = undefined
        reject(new Error(`it did not finish within ${budgetMs + 5_000} ms and was abandoned`))
      }, budgetMs + 5_000)
      timer.unref()
      this.#waiting.set(id, { resolve, reject, timer })
      worker.postMessage({ id, root, source, options, budgetMs })
    })
  }

  #start(): Worker {
    const worker = new Worker(new URL('./scan-worker.js', import.meta.url))
    worker.unref()
    worker.on('message', (m: { id: number; result?: CollectorResult; error?: string }) => {
      const w = this.#waiting.get(m.id)
      if (!w) return
      this.#waiting.delete(m.id)
      clearTimeout(w.timer)
      if (m.result) w.resolve(m.result)
      else w.reject(new Error(m.error ?? 'no result'))
    })
    worker.on('error', (error) => {
      for (const [id, w] of this.#waiting) (clearTimeout(w.timer), w.reject(error), this.#waiting.delete(id))
      this.#worker = undefined
    })
    return worker
  }

  close(): void {
    for (const [, w] of this.#waiting) (clearTimeout(w.timer), w.reject(new Error('the book closed')))
    this.#waiting.clear()
    void this.#worker?.terminate()
    this.#worker = undefined
  }
}
