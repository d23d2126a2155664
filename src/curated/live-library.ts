/**
 * A library that follows its files: each read lists and stats the recipe files and reparses only
 * when one was added, removed or changed (parsing costs milliseconds per file; stat-ing next to nothing).
 */
import { statSync } from 'node:fs'
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
