/**
 * Workspace packages of a JavaScript project: which directories hold the packages whose scripts
 * the project declares. pnpm reads `pnpm-workspace.yaml` (and ignores package.json's `workspaces`);
 * npm, yarn and bun read package.json's `workspaces`. A package that declares workspaces of its own
 * brings its packages too (nested workspaces). Nothing under `node_modules` is ever a package.
 */
import { posix } from 'node:path'
import type { ScriptRunner } from '../../book/config.js'
import { joinPath, readText, resolveInsideRoot } from './fs.js'
import { boundedMatcher, globTooComplex } from './globs.js'
import { parsePnpmWorkspace } from './pnpm-workspace.js'
import type { ManifestProblem, PackageManifest } from '../scripts/manifest.js'
import { childDirs, fileExists, globSafely, globstarPrefix, manifestDirsUnder, rootRelativePattern, segmentMatcher, simplePattern } from './workspace-patterns.js'

export const PNPM_WORKSPACE = 'pnpm-workspace.yaml'
/** Patterns read from one workspace file. */
export const MAX_WORKSPACE_PATTERNS = 1_000

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

export interface WorkspacePackage {
  /** POSIX directory relative to the scan root (never `.`: the root is not a workspace package). */
  readonly dir: string
  readonly manifest: PackageManifest
}

export interface WorkspaceProblem extends ManifestProblem {
  /** POSIX path of the file the problem is in, relative to the scan root. */
  readonly file: string
}

export interface WorkspaceScan {
  /** Sorted by directory. */
  readonly packages: readonly WorkspacePackage[]
  /** Every pnpm-workspace.yaml read. */
  readonly files: readonly string[]
  readonly problems: readonly WorkspaceProblem[]
}

export interface WorkspaceMatch {
  /** Candidate package directories, relative to the scan root: each may hold a package.json. */
  readonly dirs: string[]
  /** Of those, the ones holding a pnpm-workspace.yaml (pnpm only). */
  readonly nested: Set<string>
  /** Patterns skipped because they reach outside the scan root. */
  readonly outside: string[]
  /** Patterns the glob library could not read, or that are too complex to try. */
  readonly unreadable: string[]
  /** Why, for the patterns refused as too complex. */
  readonly reasons: Map<string, string>
  /** Of `dirs`, the real path relative to the root's of those whose listing told it (plain directories). */
  readonly realOf: Map<string, string>
}

/**
 * Directories matched by the workspace `patterns` of the workspace root `base` (root-relative).
 * As pnpm and npm do, a pattern names directories holding a package.json, and a `!pattern`
 * excludes whatever it matches, wherever it stands in the list. The common forms (`packages/*`,
 * `apps/web`) cost one readdir of their parent, `libs/**` one readdir per directory under it;
 * others go to tinyglobby, which must read every directory under the pattern's static part (for
 * pnpm, that walk also finds pnpm-workspace.yaml).
 */
export function matchWorkspaceDirs(root: string, base: string, patterns: readonly string[], pnpm: boolean): WorkspaceMatch {
  const positive: string[] = []
  const negative: string[] = []
  const outside: string[] = []
  const unreadable: string[] = []
  for (const raw of patterns) {
    const neg = raw.trim().startsWith('!')
    const p = rootRelativePattern(base, neg ? raw.trim().replace(/^!+/, '') : raw)
    if (p === undefined) {
      if (!neg) outside.push(raw)
      continue
    }
    if (p === base) continue
    // A leading `!` left after normalizing (`a/../!x`) would turn the glob into an exclusion.
    if (p.startsWith('!')) {
      if (!neg) unreadable.push(raw)
      continue
    }
    ;(neg ? negative : positive).push(p)
  }
  const dirs = new Set<string>()
  const nested = new Set<string>()
  const reasonsOut = new Map<string, string>()
  const realOf = new Map<string, string>()
  if (positive.length === 0) return { dirs: [], nested, outside, unreadable, reasons: reasonsOut, realOf }
  // pnpm also skips bower_components (measured with pnpm 12); npm, yarn and bun don't.
  const skipped = pnpm ? ['node_modules', 'bower_components'] : ['node_modules']
  const excludedFiles = negative.map((p) => `${p}/package.json`)
  const exclusion = segmentMatcher(excludedFiles) ?? boundedMatcher(excludedFiles)
  unreadable.push(...exclusion.refused.map((p) => `!${p.slice(0, -'/package.json'.length)}`))
  const excluded = negative.length ? exclusion.match : () => false
  const keep = (dir: string) => dir !== '.' && dir !== base && !dir.startsWith('/') && !hasSegment(dir, skipped) && !excluded(`${dir}/package.json`)

  const globs: string[] = []
  for (const p of positive) {
    const simple = simplePattern(p)
    const under = simple === undefined ? globstarPrefix(p) : undefined
    if (under !== undefined) {
      const found = manifestDirsUnder(root, under, skipped, pnpm ? PNPM_WORKSPACE : undefined, realOf)
      for (const dir of found.dirs) if (keep(dir)) dirs.add(dir)
      for (const dir of found.nested) if (keep(dir)) nested.add(dir)
      continue
    }
    if (simple === undefined) {
      globs.push(`${p}/package.json`)
      if (pnpm) globs.push(`${p}/${PNPM_WORKSPACE}`)
      continue
    }
    const candidates = simple.star ? childDirs(root, simple.prefix, realOf) : [simple.prefix]
    for (const dir of candidates) {
      if (!keep(dir) || dirs.has(dir)) continue
      dirs.add(dir)
      if (pnpm && fileExists(joinPath(root, `${dir}/${PNPM_WORKSPACE}`))) nested.add(dir)
    }
  }
  if (globs.length > 0) {
    const ignore = skipped.map((name) => `**/${name}/**`)
    const { files, bad, reasons } = globSafely(globs, { cwd: root, ignore })
    for (const g of bad) {
      const pattern = g.slice(0, g.lastIndexOf('/'))
      if (!unreadable.includes(pattern)) unreadable.push(pattern)
      const reason = reasons.get(g)
      if (reason) reasonsOut.set(pattern, reason)
    }
    for (const file of files) {
      const dir = posix.dirname(file)
      if (!keep(dir)) continue
      if (file.endsWith(`/${PNPM_WORKSPACE}`)) nested.add(dir)
      else dirs.add(dir)
    }
  }
  return { dirs: [...dirs], nested, outside, unreadable, reasons: reasonsOut, realOf }
}

/**
 * The packages sorted by directory, as comparing the strings with `<` does: the directories (each
 * once) sorted by the default comparison, which compares the same UTF-16 code units without a call
 * back into a comparator per pair, thousands of times for a big workspace.
 */
function byDirectory(packages: readonly WorkspacePackage[]): WorkspacePackage[] {
  const byDir = new Map(packages.map((p) => [p.dir, p]))
  return packages.map((p) => p.dir).sort().map((dir) => byDir.get(dir)!)
}

/** Whether a segment of the POSIX path `dir` is one of `names` (plain names without `/`), without splitting it: asked of every candidate package. */
export function hasSegment(dir: string, names: readonly string[]): boolean {
  for (const name of names) {
    if (!dir.includes(name)) continue
    if (dir === name || dir.startsWith(`${name}/`) || dir.endsWith(`/${name}`) || dir.includes(`/${name}/`)) return true
  }
  return false
}

/**
 * The workspace packages under `root`, breadth first through nested workspaces, each read once
 * through `load` (which caches and reports the manifest's own problems).
 */
export function findWorkspacePackages(
  root: string,
  runner: ScriptRunner,
  rootManifest: PackageManifest,
  load: (dir: string) => PackageManifest | undefined,
): WorkspaceScan {
  const packages: WorkspacePackage[] = []
  const files: string[] = []
  const problems: WorkspaceProblem[] = []
  const seen = new Set<string>(['.'])
  const pnpm = runner === 'pnpm'
  const rootHasYaml = pnpm && fileExists(joinPath(root, PNPM_WORKSPACE))
  // A queue of workspace roots: their directory and whether pnpm-workspace.yaml is known to be there.
  const queue: { dir: string; manifest: PackageManifest; hasYaml: boolean }[] = [{ dir: '.', manifest: rootManifest, hasYaml: rootHasYaml }]
  for (let i = 0; i < queue.length; i++) {
    const ws = queue[i]!
    const manifestFile = ws.dir === '.' ? 'package.json' : `${ws.dir}/package.json`
    let patterns: readonly string[] | undefined
    let patternsFile = manifestFile
    if (pnpm) {
      if (ws.hasYaml) {
        const file = ws.dir === '.' ? PNPM_WORKSPACE : `${ws.dir}/${PNPM_WORKSPACE}`
        patternsFile = file
        files.push(file)
        const parsed = parsePnpmWorkspace(readText(joinPath(root, file)) ?? '')
        problems.push(...parsed.problems.map((p) => ({ ...p, file })))
        patterns = parsed.patterns
      } else if (ws.manifest.workspaces !== undefined && ws.dir === '.') {
        problems.push({
          file: manifestFile,
          severity: 'warning',
          message: `pnpm ignores "workspaces" in package.json and there is no ${PNPM_WORKSPACE}; only the root scripts are listed. Move the patterns to ${PNPM_WORKSPACE} ("packages:"), or set "packageManager" to the manager the project uses`,
        })
      }
    } else {
      patterns = ws.manifest.workspaces
    }
    if (patterns === undefined || patterns.length === 0) continue
    if (patterns.length > MAX_WORKSPACE_PATTERNS) {
      // Bounded: each pattern costs at least a directory listing.
      problems.push({ file: patternsFile, severity: 'warning', message: `${patterns.length} workspace patterns; only the first ${MAX_WORKSPACE_PATTERNS} are read (MAX_WORKSPACE_PATTERNS)` })
      patterns = patterns.slice(0, MAX_WORKSPACE_PATTERNS)
    }
    const { dirs, nested, outside, unreadable, reasons, realOf } = matchWorkspaceDirs(root, ws.dir, patterns, pnpm)
    for (const pattern of unreadable) {
      const why = reasons.get(pattern) ?? globTooComplex(pattern.replace(/^!/, ''))
      problems.push({ file: patternsFile, severity: 'warning', message: `workspace pattern "${shorten(pattern)}" is not a glob command-scout can read${why ? ` (${why})` : ''}, so it is skipped; write it as a directory path or a plain glob like packages/*` })
    }
    for (const pattern of outside) {
      problems.push({ file: patternsFile, severity: 'warning', message: `workspace pattern "${shorten(pattern)}" could reach outside the scanned directory (it has "..", a leading "/" or a backslash), so it is not followed; scan the directory that holds those packages to list them` })
    }
    for (const found of dirs) {
      // Members count by real path, inside the root: a link out of it is refused, and two paths
      // to one directory (`l1 -> .`, `pkgs -> packages`) give one package.
      const known = realOf.get(found)
      const inside = known !== undefined ? ({ ok: true, rel: known } as const) : resolveInsideRoot(root, found)
      if (!inside.ok) {
        if (inside.why === 'outside' || inside.why === 'unreadable') problems.push({ file: patternsFile, severity: 'warning', message: `workspace member ${inside.message}; keep workspace packages inside the repository` })
        continue
      }
      const dir = inside.rel
      if (seen.has(dir)) continue
      seen.add(dir)
      const manifest = load(dir)
      if (manifest === undefined) continue
      packages.push({ dir, manifest })
      const hasYaml = nested.has(found) || nested.has(dir)
      if (hasYaml || (!pnpm && manifest.workspaces !== undefined)) queue.push({ dir, manifest, hasYaml })
    }
  }
  return { packages: byDirectory(packages), files, problems }
}

