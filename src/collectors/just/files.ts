/**
 * Finding justfiles as just does: a directory's justfile is its one file named `justfile` or
 * `.justfile` in any case (just refuses to choose between several).
 */
import { dirname, join } from 'node:path'
import { listDir } from '../shared/fs.js'

/** Names just accepts for a justfile, compared case-insensitively. */
function isJustfileName(name: string): boolean {
  const lower = name.toLowerCase()
  return lower === 'justfile' || lower === '.justfile'
}

/** Directory listings, each read once per scan. */
export class DirCache {
  readonly #entries = new Map<string, Map<string, boolean>>()
  /** File and directory names of `dir` → whether each is a directory (empty when unreadable). */
  list(dir: string): Map<string, boolean> {
    let entries = this.#entries.get(dir)
    if (!entries) {
      entries = new Map()
      try {
        for (const e of listDir(dir)) entries.set(e.name, e.isDirectory())
      } catch {
        // missing or unreadable: no entries
      }
      this.#entries.set(dir, entries)
    }
    return entries
  }
  isFile(path: string): boolean {
    return this.list(dirname(path)).get(path.slice(dirname(path).length + 1)) === false
  }
  isDir(path: string): boolean {
    return this.list(dirname(path)).get(path.slice(dirname(path).length + 1)) === true
  }
  /** Justfile candidates in `dir`, sorted so that messages are stable. */
  justfiles(dir: string): string[] {
    return [...this.list(dir)].filter(([n, isDir]) => !isDir && isJustfileName(n)).map(([n]) => join(dir, n)).sort()
  }
}

/** Finds the root justfile as just does; undefined when there is none. */
export function findJustfile(root: string, dirs = new DirCache()): { file?: string; candidates: string[] } {
  const candidates = dirs.justfiles(root)
  return candidates.length === 1 ? { file: candidates[0]!, candidates } : { candidates }
}
