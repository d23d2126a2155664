/**
 * The shipped library's skills, made at build time (scripts/skills-catalog.mjs writes
 * `dist/src/skills/catalog.json` from `recipeSkills(loadLibrary())`), so that a dsh session lists
 * them without parsing every recipe's YAML at its start. The catalog carries a fingerprint of the
 * library folder it was made from; it is used only while the folder still has that fingerprint (any
 * file added, removed, renamed or edited changes it), so it never drifts from the library: on a
 * mismatch the caller reads the library itself.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { SkillFile } from './write.js'

/** Where the build writes the catalog (beside this module in dist/src/skills/). */
export const CATALOG_FILE = new URL('./catalog.json', import.meta.url)

/** Beyond these, the folder is not the shipped library as built: no fingerprint, the library is read. */
const MAX_ENTRIES = 5_000
const MAX_BYTES = 16 << 20

export interface SkillCatalog {
  fingerprint: string
  skills: SkillFile[]
}

/**
 * A hash of every name, kind and file's bytes under `dir` (links followed, as the loader follows
 * them), in sorted order; undefined when the folder can't be read whole or is over the bounds.
 */
export function libraryFingerprint(dir: string): string | undefined {
  const hash = createHash('sha256')
  let entries = 0
  let bytes = 0
  const walk = (path: string, rel: string, depth: number): boolean => {
    let names: string[]
    try {
      names = readdirSync(path).sort()
    } catch {
      return false
    }
    for (const name of names) {
      if (++entries > MAX_ENTRIES || depth > 8) return false
      const child = join(path, name)
      const childRel = `${rel}/${name}`
      let stat
      try {
        stat = statSync(child)
      } catch {
        hash.update(`dangling\0${childRel}\0`)
        continue
      }
      if (stat.isDirectory()) {
        hash.update(`dir\0${childRel}\0`)
        if (!walk(child, childRel, depth + 1)) return false
      } else if (!stat.isFile()) {
        // A FIFO, socket or device is never read (it could block): it only marks the folder as changed.
        hash.update(`other\0${childRel}\0`)
      } else {
        bytes += stat.size
        if (bytes > MAX_BYTES) return false
        let text: Buffer
        try {
          text = readFileSync(child)
        } catch {
          return false
        }
        hash.update(`file\0${childRel}\0${text.length}\0`).update(text)
      }
    }
    return true
  }
  return walk(dir, '', 0) ? hash.digest('hex') : undefined
}

/** The built catalog's skills when `dir` is still the folder it was made from; otherwise undefined. */
export function catalogSkills(dir: string, file: URL | string = CATALOG_FILE): SkillFile[] | undefined {
  let catalog: SkillCatalog
  try {
    catalog = JSON.parse(readFileSync(file, 'utf8')) as SkillCatalog
  } catch {
    return undefined
  }
  if (typeof catalog?.fingerprint !== 'string' || !Array.isArray(catalog.skills)) return undefined
  return libraryFingerprint(dir) === catalog.fingerprint ? catalog.skills : undefined
}
