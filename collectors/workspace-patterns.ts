/**
 * Workspace patterns as the filesystem sees them: where a pattern points relative to the scan
 * root (and refusing those that could leave it), the cheap forms read with one readdir, and
 * tinyglobby for the rest without letting it throw.
 */
import type { Dirent } from 'node:fs'
import { join, posix } from 'node:path'
import { listDir, resolveInsideRoot, statPath } from './fs.js'
import { boundedGlob } from './globs.js'

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
 * tinyglobby's globSync over `patterns` inside `root` (globs.ts: bounded patterns, each real
 * directory listed once, never outside the root), never throwing: a pattern it can't handle or
 * that is too complex is left out and returned in `bad`, with the reason in `reasons`.
 */
export function globSafely(patterns: readonly string[], options: { cwd: string; ignore: string[] }): { files: string[]; bad: string[]; reasons: Map<string, string> } {
  const { files, bad } = boundedGlob(patterns, { ...options, root: options.cwd, insideRoot: true })
  return { files, bad: bad.map((b) => b.pattern), reasons: new Map(bad.map((b) => [b.pattern, b.reason])) }
}

const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/

/** `packages/*` → {prefix: 'packages', star: true}; `apps/web` → {prefix: 'apps/web', star: false}; else undefined. */
export function simplePattern(p: string): { prefix: string; star: boolean } | undefined {
  const star = p === '*' || p.endsWith('/*')
  const prefix = star ? p.slice(0, p === '*' ? 0 : -2) : p
  return GLOB_SYNTAX.test(prefix) ? undefined : { prefix, star }
}

/**
 * Whether something other than a directory is at `path` (one call per package). A FIFO or a
 * device counts, so that reading it gives a diagnostic instead of the file looking absent.
 */
export function fileExists(path: string): boolean {
  const st = statPath(path)
  return st !== undefined && !st.isDirectory()
}

export function childDirs(root: string, dir: string): string[] {
  let entries: Dirent[]
  // A parent that is a link out of the root (`packages -> /etc`) is not listed at all.
  if (!resolveInsideRoot(root, dir === '' ? '.' : dir).ok) return []
  try {
    entries = listDir(join(root, dir))
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

