/**
 * The bin, example, test and bench targets of one Cargo package, as cargo infers them (Cargo book,
 * "Target auto-discovery"): declared `[[bin]]`/`[[example]]`/`[[test]]`/`[[bench]]` tables merged
 * with the files cargo finds by itself, unless `package.autobins`/`autoexamples`/`autotests`/
 * `autobenches` is false.
 */
import { join } from 'node:path'
import { listDir, resolveInsideRoot, statPath } from '../shared/fs.js'
import { activeGuard } from '../shared/guard.js'

export type TargetKind = 'bin' | 'example' | 'test' | 'bench'

export interface CargoTarget {
  readonly kind: TargetKind
  readonly name: string
  /** POSIX path relative to the package directory. */
  readonly path: string
  readonly requiredFeatures: readonly string[]
  /** Whether a `[[kind]]` table declared it (otherwise cargo found it by its file). */
  readonly declared: boolean
  /** 1-based line of its `[[kind]]` table in Cargo.toml. */
  readonly line?: number
  /** An example built as a library (`crate-type = ["cdylib"]`, ...): cargo builds it but refuses to run it. */
  readonly library?: boolean
}

export interface TargetProblem {
  readonly line?: number
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export interface PackageInput {
  /** Absolute package directory. */
  readonly dir: string
  readonly name: string
  /** `package.edition`, already resolved from the workspace when inherited; '2015' when absent. */
  readonly edition: string
  /** The parsed manifest. */
  readonly manifest: Record<string, unknown>
  /** The manifest text, to find the lines of `[[kind]]` tables. */
  readonly text: string
}

const KINDS: ReadonlyArray<{ kind: TargetKind; table: string; auto: string; dir: string }> = [
  { kind: 'bin', table: 'bin', auto: 'autobins', dir: 'src/bin' },
  { kind: 'example', table: 'example', auto: 'autoexamples', dir: 'examples' },
  { kind: 'test', table: 'test', auto: 'autotests', dir: 'tests' },
  { kind: 'bench', table: 'bench', auto: 'autobenches', dir: 'benches' },
]

/**
 * The package's files, each directory listed at most once: a missing directory is known from
 * its parent's listing, so lookups cost no failed system calls.
 */
class PackageFiles {
  readonly #listings = new Map<string, Map<string, 'file' | 'dir' | 'other'> | null>()
  constructor(readonly root: string) {}

  /** Entries of a directory relative to the package (POSIX, no `..`), or null when there is none. */
  list(rel: string): Map<string, 'file' | 'dir' | 'other'> | null {
    const cached = this.#listings.get(rel)
    if (cached !== undefined) return cached
    let listing: Map<string, 'file' | 'dir' | 'other'> | null = null
    const slash = rel.lastIndexOf('/')
    const parent = rel === '' ? undefined : slash === -1 ? '' : rel.slice(0, slash)
    if (parent === undefined || this.kind(parent, rel.slice(slash + 1)) === 'dir') {
      try {
        listing = new Map()
        for (const e of listDir(join(this.root, rel))) {
          listing.set(e.name, e.isFile() ? 'file' : e.isDirectory() ? 'dir' : 'other')
        }
      } catch {
        listing = null
      }
    }
    this.#listings.set(rel, listing)
    return listing
  }

  kind(dir: string, name: string): 'file' | 'dir' | 'other' | undefined {
    const k = this.list(dir)?.get(name)
    if (k !== 'other') return k
    // A symbolic link: follow it, but not out of the scanned root (`examples -> /etc` lists nothing).
    const path = join(this.root, dir, name)
    const st = statPath(path)
    const guard = activeGuard()
    if (st && guard && !resolveInsideRoot(guard.root, path).ok) return 'other'
    return st?.isFile() ? 'file' : st?.isDirectory() ? 'dir' : 'other'
  }

  isFile(rel: string): boolean {
    if (rel.startsWith('/') || rel.split('/').includes('..')) return statPath(join(this.root, rel))?.isFile() ?? false
    const slash = rel.lastIndexOf('/')
    return this.kind(slash === -1 ? '' : rel.slice(0, slash), rel.slice(slash + 1)) === 'file'
  }
}

/** Files `<dir>/NAME.rs` and `<dir>/NAME/main.rs`, as [name, relative path], sorted by name. */
function discover(files: PackageFiles, dir: string): Array<[string, string]> {
  const found: Array<[string, string]> = []
  for (const [name] of files.list(dir) ?? []) {
    const kind = files.kind(dir, name)
    if (kind === 'file' && name.endsWith('.rs') && name.length > 3) found.push([name.slice(0, -3), `${dir}/${name}`])
    else if (kind === 'dir' && files.isFile(`${dir}/${name}/main.rs`)) found.push([name, `${dir}/${name}/main.rs`])
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** Lines of each `[[table]]` header, in order (smol-toml keeps no positions). */
const TABLE_HEADERS = new Map(KINDS.map(({ table }) => [table, new RegExp(`^[ \\t]*\\[\\[[ \\t]*(?:"${table}"|${table})[ \\t]*\\]\\]`, 'gm')]))

function tableLines(text: string, table: string): number[] {
  const lines: number[] = []
  if (!text.includes('[[')) return lines
  const re = TABLE_HEADERS.get(table)!
  re.lastIndex = 0
  // Lines counted on from the previous match: one pass over the text however many tables it has.
  let line = 1
  let at = 0
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (let i = text.indexOf('\n', at); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) line++
    at = m.index
    lines.push(line)
  }
  return lines
}

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '')
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

export function packageTargets(pkg: PackageInput): { targets: CargoTarget[]; problems: TargetProblem[] } {
  const targets: CargoTarget[] = []
  const problems: TargetProblem[] = []
  const table = (pkg.manifest.package ?? {}) as Record<string, unknown>
  const files = new PackageFiles(pkg.dir)
  for (const { kind, table: key, auto, dir } of KINDS) {
    const raw = pkg.manifest[key]
    const declaredTables = Array.isArray(raw) ? raw : raw === undefined ? [] : null
    if (declaredTables === null) {
      problems.push({ severity: 'error', message: `\`${key}\` must be an array of tables ([[${key}]]); cargo refuses this manifest` })
    }
    const lines = tableLines(pkg.text, key)
    const inferred = kind === 'bin' ? inferredBins(pkg, files) : discover(files, dir)
    const inferredPath = new Map<string, string>()
    for (const [n, p] of inferred) if (!inferredPath.has(n)) inferredPath.set(n, p)
    const explicit: CargoTarget[] = []
    const seen = new Set<string>()
    ;(declaredTables ?? []).forEach((entry: unknown, n: number) => {
      const line = lines[n]
      const at = line ? { line } : {}
      if (typeof entry !== 'object' || entry === null) return
      const t = entry as Record<string, unknown>
      const name = typeof t.name === 'string' && t.name !== '' ? t.name : undefined
      if (!name) {
        problems.push({ ...at, severity: 'error', message: `a [[${key}]] table has no name; add name = "..." (cargo requires it)` })
        return
      }
      if (seen.has(name)) {
        problems.push({ ...at, severity: 'error', message: `two [[${key}]] tables are named \`${name}\`; cargo refuses duplicate target names, rename one` })
        return
      }
      seen.add(name)
      let path: string | undefined
      if (typeof t.path === 'string') {
        path = normalize(t.path)
        if (!files.isFile(path)) {
          problems.push({ ...at, severity: 'error', message: `[[${key}]] \`${name}\` points at ${path}, which does not exist; create the file or fix path (the target is not listed)` })
          return
        }
      } else {
        path = inferredPath.get(name) ?? defaultPath(pkg, files, kind, dir, name)
        if (!path) {
          problems.push({ ...at, severity: 'error', message: `can't find [[${key}]] \`${name}\` at ${dir}/${name}.rs or ${dir}/${name}/main.rs; create it or set path = "..." (the target is not listed)` })
          return
        }
      }
      const crateTypes = strings(t['crate-type'])
      const library = kind === 'example' && crateTypes.length > 0 && !crateTypes.includes('bin')
      explicit.push({ kind, name, path, requiredFeatures: strings(t['required-features']), declared: true, ...at, ...(library ? { library } : {}) })
    })
    targets.push(...explicit)
    // Edition 2015: declaring any target of a kind turns that kind's discovery off by default.
    const autoDefault = !(pkg.edition === '2015' && explicit.length > 0)
    const autoValue = table[auto]
    if (autoValue !== undefined && typeof autoValue !== 'boolean') {
      problems.push({ severity: 'error', message: `package.${auto} must be true or false (got ${JSON.stringify(autoValue)})` })
    }
    if (pkg.manifest[auto] !== undefined) {
      problems.push({ severity: 'warning', message: `\`${auto}\` at the top of Cargo.toml is ignored by cargo; move it into [package]` })
    }
    if (!(typeof autoValue === 'boolean' ? autoValue : autoDefault)) continue
    const names = new Set(explicit.map((t) => t.name))
    const paths = new Set(explicit.map((t) => t.path))
    for (const [name, path] of inferred) {
      if (names.has(name) || paths.has(path)) continue
      targets.push({ kind, name, path, requiredFeatures: [], declared: false })
    }
  }
  return { targets, problems }
}

/** `src/main.rs` named after the package, then the files in src/bin. */
function inferredBins(pkg: PackageInput, files: PackageFiles): Array<[string, string]> {
  const bins = discover(files, 'src/bin')
  if (files.isFile('src/main.rs')) bins.unshift([pkg.name, 'src/main.rs'])
  return bins
}

/** Where cargo looks for a declared target without `path` when discovery found none by its name. */
function defaultPath(pkg: PackageInput, files: PackageFiles, kind: TargetKind, dir: string, name: string): string | undefined {
  const candidates = [`${dir}/${name}.rs`, `${dir}/${name}/main.rs`]
  if (kind === 'bin') {
    if (name === pkg.name) candidates.push('src/main.rs')
    if (pkg.edition === '2015') candidates.push(`src/${name}.rs`, 'src/main.rs')
  }
  return candidates.find((c) => files.isFile(c))
}
