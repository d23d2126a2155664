/**
 * Workspace packages of a JavaScript project: which directories hold the packages whose scripts
 * the project declares. pnpm reads `pnpm-workspace.yaml` (and ignores package.json's `workspaces`);
 * npm, yarn and bun read package.json's `workspaces`. A package that declares workspaces of its own
 * brings its packages too (nested workspaces). Nothing under `node_modules` is ever a package.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { join, posix } from 'node:path'
import type { ScriptRunner } from '../src/config.js'
import { readText } from './fs.js'
import { picomatch, tinyglobby, yaml } from './lazy.js'
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

// The usual pnpm-workspace.yaml, line by line: comments, blank lines, `packages:` and its items as
// plain or quoted scalars. Loading the YAML library costs more than a whole small scan (measured
// with bench/scan.bench.mjs), so this shape is read directly; anything else (other keys, anchors,
// flow style, escapes, tags) goes to the library. The fuzz test checks both agree.
const YAML_SKIP = /^\s*(?:#.*)?$/
const YAML_PACKAGES = /^packages:[ \t]*(?:#.*)?$/
const YAML_ITEM = /^([ \t]*)-[ \t]+(?:'([^']*)'|"([^"\\]*)"|([A-Za-z0-9_.\/][^\s#'"]*?))[ \t]*(?:[ \t]#.*)?$/

function simplePnpmWorkspace(text: string): string[] | undefined {
  let patterns: string[] | undefined
  let indent: string | undefined
  for (const line of text.split(/\r?\n/)) {
    if (YAML_SKIP.test(line)) continue
    if (patterns === undefined) {
      if (!YAML_PACKAGES.test(line)) return undefined
      patterns = []
      continue
    }
    const item = YAML_ITEM.exec(line)
    if (item === null || (indent !== undefined && item[1] !== indent)) return undefined
    const plain = item[4]
    // `a: b` is a mapping; `null`, `true`, `1.5`, `0x1f`, `.inf` are not strings in YAML.
    if (plain !== undefined && (/: |:$/.test(plain) || /^[0-9.]|^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(plain))) return undefined
    indent = item[1]
    patterns.push(item[2] ?? item[3] ?? plain!)
  }
  return patterns
}

/** The `packages` patterns of a pnpm-workspace.yaml; undefined when it lists none. */
export function parsePnpmWorkspace(text: string): { patterns?: string[]; problems: ManifestProblem[] } {
  const problems: ManifestProblem[] = []
  const simple = simplePnpmWorkspace(text)
  if (simple !== undefined) return simple.length ? { patterns: simple, problems } : { problems }
  const doc = yaml().parseDocument(text, { uniqueKeys: false })
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
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: 100 })
  } catch (error) {
    // An alias with no anchor, or an alias bomb past maxAliasCount.
    problems.push({ line: 1, severity: 'error', message: `pnpm-workspace.yaml can't be read: ${(error as Error).message}; workspace packages are not listed until it is fixed` })
    return { problems }
  }
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

export interface WorkspaceMatch {
  /** Candidate package directories, relative to the scan root: each may hold a package.json. */
  readonly dirs: string[]
  /** Of those, the ones holding a pnpm-workspace.yaml (pnpm only). */
  readonly nested: Set<string>
  /** Patterns skipped because they reach outside the scan root. */
  readonly outside: string[]
  /** Patterns the glob library could not read. */
  readonly unreadable: string[]
}

const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/

/** `packages/*` → {prefix: 'packages', star: true}; `apps/web` → {prefix: 'apps/web', star: false}; else undefined. */
export function simplePattern(p: string): { prefix: string; star: boolean } | undefined {
  const star = p === '*' || p.endsWith('/*')
  const prefix = star ? p.slice(0, p === '*' ? 0 : -2) : p
  return GLOB_SYNTAX.test(prefix) ? undefined : { prefix, star }
}

/**
 * Directories matched by the workspace `patterns` of the workspace root `base` (root-relative).
 * As pnpm and npm do, a pattern names directories holding a package.json, and a `!pattern`
 * excludes whatever it matches, wherever it stands in the list. The common forms (`packages/*`,
 * `apps/web`) cost one readdir of their parent; others go to tinyglobby, which must read every
 * directory under the pattern's static part (for pnpm, that walk also finds pnpm-workspace.yaml).
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
  if (positive.length === 0) return { dirs: [], nested, outside, unreadable }
  // pnpm also skips bower_components (measured with pnpm 12); npm, yarn and bun don't.
  const skipped = pnpm ? ['node_modules', 'bower_components'] : ['node_modules']
  const excluded = negative.length ? picomatch()(negative.map((p) => `${p}/package.json`)) : () => false
  const keep = (dir: string) => dir !== '.' && dir !== base && !dir.startsWith('/') && !dir.split('/').some((seg) => skipped.includes(seg)) && !excluded(`${dir}/package.json`)

  const globs: string[] = []
  for (const p of positive) {
    const simple = simplePattern(p)
    if (simple === undefined) {
      globs.push(`${p}/package.json`)
      if (pnpm) globs.push(`${p}/${PNPM_WORKSPACE}`)
      continue
    }
    const candidates = simple.star ? childDirs(root, simple.prefix) : [simple.prefix]
    for (const dir of candidates) {
      if (!keep(dir) || dirs.has(dir)) continue
      dirs.add(dir)
      if (pnpm && fileExists(join(root, dir, PNPM_WORKSPACE))) nested.add(dir)
    }
  }
  if (globs.length > 0) {
    const ignore = skipped.map((name) => `**/${name}/**`)
    const { files, bad } = globSafely(globs, { cwd: root, ignore })
    unreadable.push(...new Set(bad.map((g) => g.slice(0, g.lastIndexOf('/')))))
    for (const file of files) {
      const dir = posix.dirname(file)
      if (!keep(dir)) continue
      if (file.endsWith(`/${PNPM_WORKSPACE}`)) nested.add(dir)
      else dirs.add(dir)
    }
  }
  return { dirs: [...dirs], nested, outside, unreadable }
}

/** Subdirectories (and symlinks, as globs follow them) of a root-relative directory, minus dot-directories. */
/** Whether `path` is a file, without the cost of an exception when it is missing (one call per package). */
function fileExists(path: string): boolean {
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
  const rootHasYaml = pnpm && fileExists(join(root, PNPM_WORKSPACE))
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
    const { dirs, nested, outside, unreadable } = matchWorkspaceDirs(root, ws.dir, patterns, pnpm)
    for (const pattern of unreadable) {
      problems.push({ file: patternsFile, severity: 'warning', message: `workspace pattern "${pattern}" is not a glob command-scout can read, so it is skipped; write it as a directory path or a plain glob like packages/*` })
    }
    for (const pattern of outside) {
      problems.push({ file: patternsFile, severity: 'warning', message: `workspace pattern "${pattern}" could reach outside the scanned directory (it has "..", a leading "/" or a backslash), so it is not followed; scan the directory that holds those packages to list them` })
    }
    for (const dir of dirs) {
      if (seen.has(dir)) continue
      seen.add(dir)
      const manifest = load(dir)
      if (manifest === undefined) continue
      packages.push({ dir, manifest })
      const hasYaml = nested.has(dir)
      if (hasYaml || (!pnpm && manifest.workspaces !== undefined)) queue.push({ dir, manifest, hasYaml })
    }
  }
  packages.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))
  return { packages, files, problems }
}

