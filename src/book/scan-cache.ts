/**
 * Reuse of a collector's result while everything it looked at is unchanged (src/collectors/shared/observe.ts
 * says why that is proof). Results live in memory for the process (the harness, the MCP server
 * and the HTTP server scan the same roots again and again) and, when the CLI asks for it, in one
 * file per scan root under the user's cache directory, so that the next `command-scout scan` of
 * an unchanged repository reads one file and asks a stat per manifest instead of parsing them.
 *
 * A cached result is reused only when every recorded answer is the same now; it is kept only when
 * the collector finished within its budget and everything it looked at had settled before the
 * scan began. The file is private to the user (a directory of mode 0700 that no one else can
 * change, cache-dir.ts), written whole by rename into a folder kept within a count and a size,
 * keyed by the command-scout build that wrote it; anything in it that does not parse is a miss,
 * never an error.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { settledBefore, SETTLE_MS, stillHolds, type Observations } from '../collectors/shared/observe.js'
import type { CollectorResult } from '../collectors/types.js'
import { cacheFolderPath, ownFile, privateDir, SCANS_BOUND, writePrivate } from '../base/cache-dir.js'
import { fileKey } from '../base/file-key.js'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from './recipe.js'

/** Collector results kept in memory, over all roots (the oldest goes first). */
const MEMORY_ENTRIES = 256
const FILE_FORMAT = 1

interface Entry {
  /** A Map in memory, pairs once read back from a file. */
  readonly seen: Iterable<readonly [string, string]>
  readonly result: CollectorResult
}

const memory = new Map<string, Entry>()

function remember(key: string, entry: Entry): void {
  memory.delete(key)
  memory.set(key, entry)
  if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!)
}

/**
 * Which build of command-scout wrote a file: a result from other code is no result. The version,
 * and this module's size and mtime (the CLI bundle's, in the CLI): a rebuild changes the mtime,
 * and an install from the registry (whose files all get one fixed mtime) changes the version.
 */
let build: string | undefined
function buildId(): string {
  if (build !== undefined) return build
  try {
    const st = statSync(fileURLToPath(import.meta.url))
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown }
    build = `${String(version)}:${st.size}:${st.mtimeMs}`
  } catch {
    build = 'unknown'
  }
  return build
}

/** The directory results are written to: `scans/` in command-scout's cache directory (cache-dir.ts); undefined when COMMAND_SCOUT_CACHE=off. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return cacheFolderPath('scans', env)
}

export interface ScanCacheOptions {
  /** Where to keep results between processes; undefined keeps them in memory only. */
  dir?: string
  /** How long before the scan everything it reads must have last changed (default SETTLE_MS). */
  settleMs?: number
  /**
   * The caller remembers the whole scan when every result can be kept (the CLI's scan, scan-record.ts).
   * Then a root's first scan writes an empty file for it, not its results: a repository scanned once
   * keeps one copy of what it found (the record), not two. The next scan of the root that computes a
   * result (its record no longer holds, or another command line) finds that file and writes them.
   */
  remembersWhole?: boolean
  /**
   * The build of command-scout that computes the results, when the caller knows it (the CLI: its
   * bundle's id, which bin/command-scout reads from the bundle's first line). Without it, the
   * version and this module's size and mtime stand for it (see buildId).
   */
  build?: string
}

/** The results of one scan root: read once, consulted per collector, written once at the end. */
export class RootCache {
  private readonly file: string | undefined
  private fileEntries: Record<string, Entry> | undefined
  /** Whether the root had a file of this build (loadFile found one, empty or not). */
  private hadFile = false
  private changed = false
  readonly startedAt = Date.now()
  /**
   * Everything the scan's results were computed from, fresh or reused, while every result so far
   * could be reused later; undefined from the first one that can't (src/book/scan-record.ts).
   */
  private inputs: Observations | undefined = { seen: new Map(), newest: 0 }

  constructor(private readonly root: string, private readonly options: ScanCacheOptions = {}) {
    this.file = options.dir ? join(options.dir, `${fileKey(root)}.json`) : undefined
  }

  private key(source: string, section: unknown): string {
    return `${this.root}\0${source}\0${JSON.stringify(section)}`
  }

  /** The collector's earlier result when all it looked at still holds. */
  reuse(source: string, section: unknown): CollectorResult | undefined {
    const key = this.key(source, section)
    const entry = memory.get(key) ?? this.fromFile(key)
    if (!entry) return undefined
    if (!stillHolds(entry.seen)) {
      memory.delete(key)
      if (this.fileEntries?.[key]) delete this.fileEntries[key], (this.changed = true)
      return undefined
    }
    remember(key, entry)
    if (this.inputs) for (const [k, v] of entry.seen) if (!this.inputs.seen.has(k)) this.inputs.seen.set(k, v)
    return entry.result
  }

  /** Keeps a fresh result, when it may be reused: finished in time, and nothing it read was changing. */
  keep(source: string, section: unknown, observations: Observations, result: CollectorResult, overBudget: boolean): void {
    if (overBudget || !settledBefore(observations, this.startedAt, this.options.settleMs ?? SETTLE_MS)) return void (this.inputs = undefined)
    if (this.inputs) {
      for (const [k, v] of observations.seen) if (!this.inputs.seen.has(k)) this.inputs.seen.set(k, v)
      this.inputs.newest = Math.max(this.inputs.newest, observations.newest)
    }
    const key = this.key(source, section)
    const entry: Entry = { seen: observations.seen, result: { recipes: result.recipes, diagnostics: result.diagnostics, files: result.files } }
    remember(key, entry)
    if (this.file) {
      this.loadFile()
      this.fileEntries![key] = entry
      this.changed = true
    }
  }

  /** A result that will not be kept (a collector failed): the scan as a whole can't be remembered either. */
  incomplete(): void {
    this.inputs = undefined
  }

  /** What every result of this scan was computed from, when each could be reused: undefined otherwise. */
  observed(): Observations | undefined {
    return this.inputs
  }

  /** Writes the root's results for the next process, if anything changed. Never throws. */
  flush(): void {
    if (!this.file || !this.changed || !this.options.dir) return
    try {
      // A first scan remembered whole: the file, without the results (see remembersWhole).
      const first = this.options.remembersWhole === true && !this.hadFile && this.inputs !== undefined
      const entries = first ? {} : Object.fromEntries(Object.entries(this.fileEntries ?? {}).map(([k, e]) => [k, { seen: [...e.seen], result: e.result }]))
      // A new file made exclusively in the folder, checked again now, renamed into place (cache-dir.ts).
      const text = JSON.stringify({ format: FILE_FORMAT, build: this.options.build ?? buildId(), root: this.root, entries })
      if (writePrivate(this.options.dir, basename(this.file), [text], SCANS_BOUND)) this.changed = false
    } catch {
      // a full disk or a read-only home: the next scan computes again
    }
  }

  private loadFile(): void {
    if (this.fileEntries || !this.file) return
    this.fileEntries = {}
    try {
      // Only the user's own regular file, and only from a folder no one else can change (checked
      // once there is a file: a first scan has none, and its write makes the folder).
      if (!this.options.dir || !ownFile(lstatSync(this.file, { throwIfNoEntry: false }))) return
      if (!privateDir(this.options.dir)) return
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { format?: unknown; build?: unknown; root?: unknown; entries?: unknown }
      const build = this.options.build ?? buildId()
      if (data.format !== FILE_FORMAT || data.build !== build || data.root !== this.root || typeof data.entries !== 'object' || !data.entries) return
      this.fileEntries = data.entries as Record<string, Entry>
      this.hadFile = true
    } catch {
      // missing or unreadable: nothing cached
    }
  }

  private fromFile(key: string): Entry | undefined {
    if (!this.file) return undefined
    this.loadFile()
    const raw = this.fileEntries![key] as { seen?: unknown; result?: unknown } | undefined
    if (!raw) return undefined
    try {
      const entry = revive(raw)
      this.fileEntries![key] = entry
      return entry
    } catch {
      delete this.fileEntries![key]
      this.changed = true
      return undefined
    }
  }
}

/** An entry read back from JSON, rebuilt through the same constructors (and checks) as a fresh one. */
function revive(raw: { seen?: unknown; result?: unknown }): Entry {
  const seen = raw.seen
  const result = raw.result as { recipes?: unknown; diagnostics?: unknown; files?: unknown } | undefined
  if (!Array.isArray(seen) || !seen.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')) throw new Error('bad record')
  if (!result || !Array.isArray(result.recipes) || !Array.isArray(result.diagnostics) || !Array.isArray(result.files)) throw new Error('bad result')
  const recipes: Recipe[] = result.recipes.map((r) => createRecipe(r as Parameters<typeof createRecipe>[0]))
  const diagnostics: Diagnostic[] = result.diagnostics.map((d) => createDiagnostic(d as Parameters<typeof createDiagnostic>[0]))
  const files = result.files.filter((f): f is string => typeof f === 'string')
  return { seen: seen as Array<[string, string]>, result: { recipes, diagnostics, files } }
}

/** Forgets every result held in memory (tests; a long-running process never needs it: reuse checks freshness). */
export function clearScanCache(): void {
  memory.clear()
}
