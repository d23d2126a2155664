/**
 * The bin, example and test targets of one Cargo package, as cargo infers them (Cargo book,
 * "Target auto-discovery"): declared `[[bin]]`/`[[example]]`/`[[test]]` tables merged with the
 * files cargo finds by itself, unless `package.autobins`/`autoexamples`/`autotests` is false.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export type TargetKind = 'bin' | 'example' | 'test'

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
]

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** Files `<dir>/NAME.rs` and `<dir>/NAME/main.rs`, as [name, relative path], sorted by name. */
function discover(pkgDir: string, dir: string): Array<[string, string]> {
  let entries
  try {
    entries = readdirSync(join(pkgDir, dir), { withFileTypes: true })
  } catch {
    return []
  }
  const found: Array<[string, string]> = []
  for (const e of entries) {
    if (e.isFile() && e.name.endsWith('.rs') && e.name.length > 3) found.push([e.name.slice(0, -3), `${dir}/${e.name}`])
    else if (e.isDirectory() && isFile(join(pkgDir, dir, e.name, 'main.rs'))) found.push([e.name, `${dir}/${e.name}/main.rs`])
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** Lines of each `[[table]]` header, in order (smol-toml keeps no positions). */
function tableLines(text: string, table: string): number[] {
  const lines: number[] = []
  const re = new RegExp(`^[ \\t]*\\[\\[[ \\t]*(?:"${table}"|${table})[ \\t]*\\]\\]`, 'gm')
  for (let m = re.exec(text); m; m = re.exec(text)) lines.push(countLines(text, m.index))
  return lines
}

function countLines(text: string, offset: number): number {
  let n = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++
  return n
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
  for (const { kind, table: key, auto, dir } of KINDS) {
    const raw = pkg.manifest[key]
    const declaredTables = Array.isArray(raw) ? raw : raw === undefined ? [] : null
    if (declaredTables === null) {
      problems.push({ severity: 'error', message: `\`${key}\` must be an array of tables ([[${key}]]); cargo refuses this manifest` })
    }
    const lines = tableLines(pkg.text, key)
    const inferred = kind === 'bin' ? inferredBins(pkg) : discover(pkg.dir, dir)
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
        if (!isFile(join(pkg.dir, path))) {
          problems.push({ ...at, severity: 'error', message: `[[${key}]] \`${name}\` points at ${path}, which does not exist; create the file or fix path (the target is not listed)` })
          return
        }
      } else {
        path = inferred.find(([n]) => n === name)?.[1] ?? defaultPath(pkg, kind, dir, name)
        if (!path) {
          problems.push({ ...at, severity: 'error', message: `can't find [[${key}]] \`${name}\` at ${dir}/${name}.rs or ${dir}/${name}/main.rs; create it or set path = "..." (the target is not listed)` })
          return
        }
      }
      explicit.push({ kind, name, path, requiredFeatures: strings(t['required-features']), declared: true, ...at })
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
function inferredBins(pkg: PackageInput): Array<[string, string]> {
  const bins = discover(pkg.dir, 'src/bin')
  if (isFile(join(pkg.dir, 'src/main.rs'))) bins.unshift([pkg.name, 'src/main.rs'])
  return bins
}

/** Where cargo looks for a declared target without `path` when discovery found none by its name. */
function defaultPath(pkg: PackageInput, kind: TargetKind, dir: string, name: string): string | undefined {
  const candidates = [`${dir}/${name}.rs`, `${dir}/${name}/main.rs`]
  if (kind === 'bin') {
    if (name === pkg.name) candidates.push('src/main.rs')
    if (pkg.edition === '2015') candidates.push(`src/${name}.rs`, 'src/main.rs')
  }
  return candidates.find((c) => isFile(join(pkg.dir, c)))
}
