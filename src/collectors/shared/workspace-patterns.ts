/**
 * Workspace patterns as the filesystem sees them: where a pattern points relative to the scan
 * root (and refusing those that could leave it), the cheap forms read with one readdir, and
 * tinyglobby for the rest without letting it throw.
 */
import type { Dirent } from 'node:fs'
import { posix } from 'node:path'
import { joinPath, listDir, resolveInsideRoot, statPath } from './fs.js'
import { realRoot } from './guard.js'
import { boundedGlob, boundedMatcher, crawler, globTooComplex } from './globs.js'

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
export function globSafely(
  patterns: readonly string[], options: { cwd: string; ignore: string[] },
): { files: string[]; bad: string[]; reasons: Map<string, string> } {
  const { files, bad } = boundedGlob(patterns, { ...options, root: options.cwd, insideRoot: true })
  return { files, bad: bad.map((b) => b.pattern), reasons: new Map(bad.map((b) => [b.pattern, b.reason])) }
}

/** Characters a glob needs: a pattern without any of them is a plain path. */
export const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/

/** `libs/**` → 'libs', `**` → '': a pattern for every directory under a plain prefix; else undefined. */
export function globstarPrefix(p: string): string | undefined {
  const prefix = p === '**' ? '' : p.endsWith('/**') ? p.slice(0, -3) : undefined
  return prefix === undefined || GLOB_SYNTAX.test(prefix) ? undefined : prefix
}

/**
 * The directories at or under `prefix` (root-relative, '' for the root) holding a package.json,
 * and those holding `nestedFile` (pnpm-workspace.yaml), as tinyglobby finds
 * `prefix/**​/package.json`: dot-directories and the `skipped` names (node_modules) are not
 * entered, links are followed, and the crawl has globs.ts's rules (each real directory listed
 * once, never outside the root, the directory cap and the budget). One listing per directory
 * tells all of it, where the glob library would also compile and match every entry's path.
 */
export function manifestDirsUnder(
  root: string, prefix: string, skipped: readonly string[], nestedFile?: string, realOf?: Map<string, string>,
): { dirs: string[]; nested: string[] } {
  const fs = crawler(root, { insideRoot: true })
  const base = realRoot(root)
  const dirs: string[] = []
  const nested: string[] = []
  // `real`: the directory's real path relative to the root's, when known without asking (see
  // childDirs); then the crawler needn't ask for it either.
  const visit = (rel: string, real: string | undefined) => {
    const entries = fs.readdir(rel === '' ? root : joinPath(root, rel), real === undefined ? undefined : real === '.' ? base : joinPath(base, real))
    const below: Array<[string, string | undefined]> = []
    const self = rel === '' ? '.' : rel
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      let isDir = e.isDirectory()
      const link = !isDir && e.isSymbolicLink()
      if (link) {
        try {
          isDir = fs.stat(joinPath(root, rel === '' ? e.name : `${rel}/${e.name}`)).isDirectory()
        } catch {
          continue
        }
      }
      if (isDir) {
        if (!skipped.includes(e.name)) below.push([rel === '' ? e.name : `${rel}/${e.name}`, real === undefined || link ? undefined : real === '.' ? e.name : `${real}/${e.name}`])
      } else if (e.name === 'package.json') {
        dirs.push(self)
        if (real !== undefined) realOf?.set(self, real)
      } else if (nestedFile !== undefined && e.name === nestedFile) nested.push(self)
    }
    for (const [child, childReal] of below) visit(child, childReal)
  }
  const start = resolveInsideRoot(root, prefix === '' ? '.' : prefix)
  if (start.ok) visit(prefix, start.rel)
  return { dirs, nested }
}

/** A name picomatch reads as itself: letters, digits, `_`, `.`, `~`, space and `-` (`|`, `$`, `^` and the like are regular-expression syntax to it). */
const PLAIN_SEGMENT = /^[\w.~ -]+$/

/**
 * A matcher for patterns made of plain names and whole-segment stars (`examples/*​/package.json`),
 * as picomatch matches them (a star: one segment of at least one character, not a dot-name), or
 * undefined when any pattern has more glob syntax. The common exclusions of a workspace then need
 * neither the glob library nor its compiled expressions, a good part of a small first scan.
 */
export function segmentMatcher(patterns: readonly string[]): { match: (path: string) => boolean; refused: string[] } | undefined {
  const compiled: string[][] = []
  for (const p of patterns) {
    // One the glob library would refuse goes to it, to be refused with its reason.
    if (globTooComplex(p) !== undefined) return undefined
    const segments = p.split('/')
    if (segments.some((seg) => seg === '.' || seg === '..' || (seg !== '*' && !PLAIN_SEGMENT.test(seg)))) return undefined
    compiled.push(segments)
  }
  const matchOne = (segments: string[], parts: string[]) =>
    segments.length === parts.length && segments.every((seg, i) => (seg === '*' ? parts[i]! !== '' && parts[i]!.charCodeAt(0) !== 46 : seg === parts[i]))
  // picomatch has its own answers for empty segments (`*` matches `/`): such paths, which no
  // listing yields, go to it.
  let glob: ((path: string) => boolean) | undefined
  return {
    match: (path) => {
      if (path === '' || path.charCodeAt(0) === 47 || path.endsWith('/') || path.includes('//')) return (glob ??= boundedMatcher(patterns).match)(path)
      const parts = path.split('/')
      return compiled.some((segments) => matchOne(segments, parts))
    },
    refused: [],
  }
}

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

/**
 * Subdirectories (and symlinks, as globs follow them) of a root-relative directory, minus
 * dot-directories unless `dot`. A plain subdirectory's real path is its parent's plus its name: with `realOf`,
 * each such child's real path relative to the root's is put there, so that no one asks for it.
 */
export function childDirs(root: string, dir: string, realOf?: Map<string, string>, dot = false): string[] {
  let entries: Dirent[]
  // A parent that is a link out of the root (`packages -> /etc`) is not listed at all.
  const parent = resolveInsideRoot(root, dir === '' ? '.' : dir)
  if (!parent.ok) return []
  try {
    entries = listDir(dir === '' ? root : joinPath(root, dir))
  } catch {
    return []
  }
  const out: string[] = []
  for (const e of entries) {
    if ((!dot && e.name.startsWith('.')) || !(e.isDirectory() || e.isSymbolicLink())) continue
    const child = dir === '' ? e.name : `${dir}/${e.name}`
    out.push(child)
    if (realOf && e.isDirectory()) realOf.set(child, parent.rel === '.' ? e.name : `${parent.rel}/${e.name}`)
  }
  return out
}
