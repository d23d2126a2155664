/**
 * A library that follows its files: each read lists and stats the recipe files and reparses only
 * when one was added, removed or changed (parsing costs milliseconds per file; stat-ing next to nothing).
 */
import { statSync } from 'node:fs'
import { watch } from 'chokidar'
import { loadLibrary, recipeFiles } from './load.js'
import type { Library } from './schema.js'

export function liveLibrary(dirs: readonly string[]): () => Library {
  let cached: { signature: string; library: Library } | undefined
  return () => {
    const signature = JSON.stringify(dirs.map((d) => {
      try {
        return recipeFiles(d).map((f) => {
          const st = statSync(f)
          return [f, st.mtimeMs, st.size]
        })
      } catch {
        return d
      }
    }))
    if (cached?.signature !== signature) cached = { signature, library: loadLibrary([...dirs]) }
    return cached.library
  }
}

/**
 * For long-running servers: the same library, reparsed only after a file watcher saw a change, so a
 * request pays nothing to check (stat-ing every recipe file costs a few milliseconds per request).
 */
export function watchedLibrary(dirs: readonly string[]): { read: () => Library; close: () => Promise<void> } {
  let library: Library | undefined
  const watcher = watch([...dirs], { ignoreInitial: true, depth: 2 })
  watcher.on('all', () => {
    library = undefined
  })
  watcher.on('error', () => {
    library = undefined // a watcher that fails must not serve stale recipes: reread each time
  })
  return {
    read: () => (library ??= loadLibrary([...dirs])),
    close: () => watcher.close(),
  }
}
