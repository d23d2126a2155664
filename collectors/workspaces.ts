/**
 * Workspace packages of a JavaScript project: which directories hold the packages whose scripts
 * the project declares. pnpm reads `pnpm-workspace.yaml` (and ignores package.json's `workspaces`);
 * npm, yarn and bun read package.json's `workspaces`. A package that declares workspaces of its own
 * brings its packages too (nested workspaces). Nothing under `node_modules` is ever a package.
 */
import { join, posix } from 'node:path'
import picomatch from 'picomatch'
import { globSync } from 'tinyglobby'
import { parseDocument } from 'yaml'
import type { ScriptRunner } from '../src/config.js'
import { readText } from './fs.js'
import type { ManifestProblem, PackageManifest } from './scripts-manifest.js'

export const PNPM_WORKSPACE = 'pnpm-workspace.yaml'

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

/** The `packages` patterns of a pnpm-workspace.yaml; undefined when it lists none. */
export function parsePnpmWorkspace(text: string): { patterns?: string[]; problems: ManifestProblem[] } {
  const problems: ManifestProblem[] = []
  const doc = parseDocument(text, { uniqueKeys: false })
  const error = doc.errors[0]
  if (error !== undefined) {
    const pos = error.linePos?.[0]
    problems.push({
      ...(pos ? { line: pos.line } : {}),
      severity: 'error',
      message: `pnpm-workspace.yaml is not valid YAML${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}; workspace packages are not listed until it is fixed`,
    })
    return { problems }
  }
  const lineOf = (node: unknown) => {
    const range = (node as { range?: [number, number] } | null)?.range
    if (!range) return {}
    const line = text.slice(0, range[0]).split('\n').length
    return { line }
  }
  const contents = doc.contents as unknown
  if (contents === null || contents === undefined) return { problems }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ line: 1, severity: 'error', message: 'pnpm-workspace.yaml must be a mapping with a "packages:" list; workspace packages are not listed' })
    return { problems }
  }
  const packages = (data as Record<string, unknown>).packages
  if (packages === undefined || packages === null) return { problems }
  const node = doc.get('packages', true)
  if (!Array.isArray(packages)) {
    problems.push({ ...lineOf(node), severity: 'error', message: '"packages" in pnpm-workspace.yaml must be a list of glob patterns; workspace packages are not listed' })
    return { problems }
  }
  const patterns: string[] = []
  packages.forEach((p, i) => {
    if (typeof p === 'string') patterns.push(p)
    else problems.push({ ...lineOf((node as { items?: unknown[] } | undefined)?.items?.[i]), severity: 'error', message: `pnpm-workspace.yaml package pattern must be a string, not ${JSON.stringify(p)}; it is ignored` })
  })
  return { patterns, problems }
}

/** `./packages/*​/` → `packages/*`; `packages/a/package.json` → `packages/a`. */
function normalizePattern(pattern: string): string {
  let p = pattern.trim().replace(/\\/g, '/')
  while (p.startsWith('./')) p = p.slice(2)
  p = p.replace(/\/+$/, '').replace(/(^|\/)package\.json$/, '')
  return p
}

function underNodeModules(path: string): boolean {
  return path === 'node_modules' || path.startsWith('node_modules/') || path.includes('/node_modules/') || path.endsWith('/node_modules')
}

/**
 * Directories (relative to `base`) matched by workspace `patterns`. As pnpm and npm do, a pattern
 * names directories holding a package.json, and a `!pattern` excludes whatever it matches,
 * wherever it stands in the list. For `pnpm`, also says which of them hold a pnpm-workspace.yaml
 * (one directory walk for both).
 */
export function matchWorkspaceDirs(absBase: string, patterns: readonly string[], pnpm: boolean): { dirs: string[]; nested: Set<string> } {
  const positive: string[] = []
  const negative: string[] = []
  for (const raw of patterns) {
    const neg = raw.trim().startsWith('!')
    const p = normalizePattern(neg ? raw.trim().replace(/^!+/, '') : raw)
    if (p === '' || p === '.') continue
    ;(neg ? negative : positive).push(p)
  }
  if (positive.length === 0) return { dirs: [], nested: new Set() }
  const globs = positive.flatMap((p) => (pnpm ? [`${p}/package.json`, `${p}/${PNPM_WORKSPACE}`] : [`${p}/package.json`]))
  // pnpm also skips bower_components (measured with pnpm 12); npm, yarn and bun don't.
  const ignore = pnpm ? ['**/node_modules/**', '**/bower_components/**'] : ['**/node_modules/**']
  const files = globSync(globs, { cwd: absBase, ignore, expandDirectories: false, onlyFiles: true })
  const excluded = negative.length ? picomatch(negative.map((p) => `${p}/package.json`)) : () => false
  const dirs = new Set<string>()
  const nested = new Set<string>()
  for (const file of files) {
    const dir = posix.dirname(file)
    if (dir === '.' || underNodeModules(dir)) continue
    if (excluded(`${dir}/package.json`)) continue
    if (file.endsWith(`/${PNPM_WORKSPACE}`)) nested.add(dir)
    else dirs.add(dir)
  }
  return { dirs: [...dirs], nested }
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
  const rootHasYaml = pnpm ? readText(join(root, PNPM_WORKSPACE)) !== undefined : false
  // A queue of workspace roots: their directory and whether pnpm-workspace.yaml is known to be there.
  const queue: { dir: string; manifest: PackageManifest; hasYaml: boolean }[] = [{ dir: '.', manifest: rootManifest, hasYaml: rootHasYaml }]
  for (let i = 0; i < queue.length; i++) {
    const ws = queue[i]!
    const manifestFile = ws.dir === '.' ? 'package.json' : `${ws.dir}/package.json`
    let patterns: readonly string[] | undefined
    if (pnpm) {
      if (ws.hasYaml) {
        const file = ws.dir === '.' ? PNPM_WORKSPACE : `${ws.dir}/${PNPM_WORKSPACE}`
        files.push(file)
        const parsed = parsePnpmWorkspace(readText(join(root, file)) ?? '')
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
    const { dirs, nested } = matchWorkspaceDirs(join(root, ws.dir), patterns, pnpm)
    for (const rel of dirs) {
      const dir = ws.dir === '.' ? rel : posix.join(ws.dir, rel)
      if (dir === '..' || dir.startsWith('../')) {
        problems.push({ file: manifestFile, severity: 'warning', message: `workspace package ${dir} is outside the scanned directory; scan its parent to list it` })
        continue
      }
      if (seen.has(dir)) continue
      seen.add(dir)
      const manifest = load(dir)
      if (manifest === undefined) continue
      packages.push({ dir, manifest })
      const hasYaml = nested.has(rel)
      if (hasYaml || (!pnpm && manifest.workspaces !== undefined)) queue.push({ dir, manifest, hasYaml })
    }
  }
  packages.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
  return { packages, files, problems }
}

