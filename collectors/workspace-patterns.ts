/**
 * Workspace patterns as the filesystem sees them: where a pattern points relative to the scan
 * root (and refusing those that could leave it), the cheap forms read with one readdir, and
 * tinyglobby for the rest without letting it throw.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { join, posix } from 'node:path'
import { tinyglobby } from './lazy.js'

/**
 * A workspace pattern written in directory `base` (root-relative), as a pattern relative to the
 * scan root: `./packages/*​/` in `apps/x` → `apps/x/packages/*`; `a/package.json` → `a`. Undefined
 * when it reaches outside the root (`..` past it, an absolute path, `..` inside braces or a glob):
 * globbing those would walk directories the scan was not asked to read, up to the whole disk.
 */
export function rootRelativePattern(base: string, pattern: string): string | undefined {
  let p = pattern.trim()
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined
  while (p.startsWith('./')) p = p.slice(2)
  p = p.replace(/\/+$/, '').replace(/(^|\/)package\.json$/, '')
  const joined = posix.normalize(base === '.' ? p || '.' : `${base}/${p}`)
  // Any `..` left after normalizing (`../x`, `{..,a}`, `..(x)`) can make the glob library crawl
  // from a parent directory; such patterns are refused whole.
  if (joined.includes('..') || joined.startsWith('/')) return undefined
  // A backslash escapes the next character in a glob; an escaped `/` can make the glob absolute.
  if (joined.includes('\\')) return undefined
  return joined
}

/**
 * tinyglobby's globSync over `patterns`, never throwing: a pattern it can't handle (it throws on
 * some, such as `....../package.json`) is left out and returned in `bad`.
 */
export function globSafely(patterns: readonly string[], options: { cwd: string; ignore: string[] }): { files: string[]; bad: string[] } {
  const opts = { ...options, expandDirectories: false, onlyFiles: true }
  try {
    return { files: tinyglobby().globSync([...patterns], opts), bad: [] }
  } catch {
    const files: string[] = []
    const bad: string[] = []
    for (const p of patterns) {
      try {
        files.push(...tinyglobby().globSync([p], opts))
      } catch {
        bad.push(p)
      }
    }
    return { files: [...new Set(files)], bad }
  }
}

const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/

/** `packages/*` → {prefix: 'packages', star: true}; `apps/web` → {prefix: 'apps/web', star: false}; else undefined. */
export function simplePattern(p: string): { prefix: string; star: boolean } | undefined {
  const star = p === '*' || p.endsWith('/*')
  const prefix = star ? p.slice(0, p === '*' ? 0 : -2) : p
  return GLOB_SYNTAX.test(prefix) ? undefined : { prefix, star }
}

/** Whether `path` is a file, without the cost of an exception when it is missing (one call per package). */
export function fileExists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false
}

export function childDirs(root: string, dir: string): string[] {
  let entries: Dirent[]
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const e of entries) {
    if (e.name.startsWith('.') || !(e.isDirectory() || e.isSymbolicLink())) continue
    out.push(dir === '' ? e.name : `${dir}/${e.name}`)
  }
  return out
}

