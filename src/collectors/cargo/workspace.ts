/**
 * Workspace members as cargo finds them: `workspace.members` paths and globs (a glob's matches
 * under an `exclude` path are dropped; a member named literally stays), the root package, and
 * path dependencies inside the workspace that are not excluded.
 */
import { tinyglobby } from '../../base/lazy.js'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { preview, resolveInsideRoot, statPath } from '../shared/fs.js'
import { boundedGlob } from '../shared/globs.js'
import { childDirs, GLOB_SYNTAX, simplePattern } from '../shared/workspace-patterns.js'

/** `crates/*` → 'crates', `*` → '': every directory of one plain directory, the usual member glob. */
function starPrefix(pattern: string): string | undefined {
  const simple = simplePattern(pattern)
  return simple?.star ? simple.prefix : undefined
}

/** Whether a members entry is a glob: asked of the glob library only when the text could be one. */
function isGlob(pattern: string): boolean {
  return GLOB_SYNTAX.test(pattern) && (starPrefix(pattern) !== undefined || tinyglobby().isDynamicPattern(pattern))
}

/**
 * The directories `prefix/*` matches, as cargo's glob finds them (dot-directories too, links
 * followed to directories), absolute and sorted; one listing, and none when the prefix is a link
 * out of the root. A plain directory comes with its real path relative to the root's (its parent's
 * and its name), so that no one asks for it again.
 */
function starMatches(root: string, prefix: string): { dir: string; real?: string }[] {
  const realOf = new Map<string, string>()
  const out: { dir: string; real?: string }[] = []
  for (const rel of childDirs(root, prefix, realOf, true)) {
    const real = realOf.get(rel)
    const dir = join(root, ...rel.split('/'))
    if (real !== undefined) out.push({ dir, real })
    else if (statPath(dir)?.isDirectory()) out.push({ dir })
  }
  return out.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
}

/**
 * A member or path dependency by real path, when it is inside the root: the root itself as given
 * (callers compare with it), others as absolute real paths. Undefined with a reason otherwise.
 */
export function memberInside(root: string, dir: string): { dir: string } | { refused: string } | { missing: true } {
  const inside = resolveInsideRoot(root, dir)
  if (inside.ok) return { dir: inside.rel === '.' ? root : join(root, ...inside.rel.split('/')) }
  return inside.why === 'missing' ? { missing: true } : { refused: inside.message }
}

/** `members` entries read (each costs at least a stat or a directory listing). */
export const MAX_MEMBER_ENTRIES = 1_000

export interface MemberProblem {
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export interface MemberSpec {
  /** Absolute directory. */
  readonly dir: string
  /** The `members` entry it came from, for messages. */
  readonly via: string
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function trimSlashes(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '')
}

/** Whether `dir` is `base` or inside it, component-wise (cargo's Path::starts_with). */
export function isUnder(dir: string, base: string): boolean {
  const rel = relative(base, dir)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`))
}

export class WorkspaceRules {
  readonly excludes: string[]
  readonly literalMembers: string[]
  constructor(readonly root: string, workspace: Record<string, unknown>) {
    this.excludes = strings(workspace.exclude).map((e) => resolve(root, trimSlashes(e)))
    this.literalMembers = strings(workspace.members)
      .filter((m) => !isGlob(trimSlashes(m)))
      .map((m) => resolve(root, trimSlashes(m)))
  }
  /** cargo's is_excluded: under an exclude path and not under a literally named member. */
  excluded(dir: string): boolean {
    return this.excludes.some((ex) => isUnder(dir, ex)) && !this.literalMembers.some((m) => isUnder(dir, m))
  }
}

/** Expands `workspace.members` in order; each glob's matches are sorted. */
export function expandMembers(root: string, workspace: Record<string, unknown>, rules: WorkspaceRules): { members: MemberSpec[]; problems: MemberProblem[] } {
  const problems: MemberProblem[] = []
  const members: MemberSpec[] = []
  const raw = workspace.members
  if (raw !== undefined && !Array.isArray(raw)) {
    problems.push({ severity: 'error', message: 'workspace.members must be a list of paths or globs, like members = ["crates/*"]' })
    return { members, problems }
  }
  let entries = (raw ?? []) as unknown[]
  if (entries.length > MAX_MEMBER_ENTRIES) {
    problems.push({ severity: 'warning', message: `workspace.members has ${entries.length} entries; only the first ${MAX_MEMBER_ENTRIES} are read (MAX_MEMBER_ENTRIES)` })
    entries = entries.slice(0, MAX_MEMBER_ENTRIES)
  }
  for (const entry of entries) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      problems.push({ severity: 'error', message: `workspace.members has an entry that is not a path: ${preview(JSON.stringify(entry) ?? String(entry))}` })
      continue
    }
    const pattern = trimSlashes(entry)
    if (!isGlob(pattern)) {
      const m = memberInside(root, resolve(root, pattern))
      if ('refused' in m) problems.push({ severity: 'error', message: `workspace member "${preview(entry)}": ${m.refused}; command-scout reads only members inside the scanned directory` })
      else members.push({ dir: 'dir' in m ? m.dir : resolve(root, pattern), via: entry })
      continue
    }
    if (isAbsolute(pattern) || pattern.split('/').includes('..')) {
      problems.push({ severity: 'error', message: `workspace member glob "${preview(entry)}" reaches outside the scanned directory (a leading "/" or ".."); it is not searched` })
      continue
    }
    const matches: string[] = []
    const add = (dir: string) => !matches.includes(dir) && matches.push(dir)
    const star = starPrefix(pattern)
    if (star !== undefined) {
      for (const m of starMatches(root, star)) {
        if (m.real !== undefined) add(join(root, ...m.real.split('/')))
        else {
          const inside = memberInside(root, m.dir)
          if ('dir' in inside) add(inside.dir)
        }
      }
    } else {
      // Without `**` a pattern matches at a fixed depth; telling the crawler so keeps it out of
      // every crate's own tree (src/, target/), which otherwise dominates the scan.
      const segments = pattern.split('/').filter((p) => p !== '' && p !== '.')
      const deep = pattern.includes('**') ? Infinity : Math.max(0, segments.length - 1)
      const { files: found, bad } = boundedGlob([pattern], { cwd: root, root, insideRoot: true, onlyDirectories: true, dot: true, absolute: true, deep })
      if (bad.length > 0) {
        problems.push({ severity: 'error', message: `workspace member glob "${preview(entry)}" is not a glob command-scout can read (${bad[0]!.reason}); it is skipped` })
        continue
      }
      for (const m of found.map((f) => resolve(f)).sort()) {
        const inside = memberInside(root, m)
        if ('dir' in inside) add(inside.dir)
      }
    }
    if (matches.length === 0) {
      problems.push({ severity: 'error', message: `workspace member glob "${preview(entry)}" matches no directory; cargo fails to load the workspace: fix the glob or remove it` })
      continue
    }
    for (const dir of matches) if (!rules.excluded(dir)) members.push({ dir, via: entry })
  }
  return { members, problems }
}

/** Directories of `path = "..."` dependencies in every dependency table of a manifest. */
export function pathDependencies(manifest: Record<string, unknown>, dir: string): string[] {
  const out: string[] = []
  const tables: unknown[] = [manifest.dependencies, manifest['dev-dependencies'], manifest['build-dependencies']]
  const target = manifest.target
  if (target && typeof target === 'object') {
    for (const t of Object.values(target as Record<string, unknown>)) {
      if (t && typeof t === 'object') {
        const tt = t as Record<string, unknown>
        tables.push(tt.dependencies, tt['dev-dependencies'], tt['build-dependencies'])
      }
    }
  }
  for (const table of tables) {
    if (!table || typeof table !== 'object') continue
    for (const dep of Object.values(table as Record<string, unknown>)) {
      if (dep && typeof dep === 'object' && typeof (dep as Record<string, unknown>).path === 'string') {
        out.push(join(dir, (dep as Record<string, string>).path))
      }
    }
  }
  return out.map((p) => resolve(p))
}
