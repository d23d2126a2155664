/**
 * The cargo collector: the bin, example, test and bench targets of the Cargo package or workspace
 * at the root, read statically from Cargo.toml files (parsed with smol-toml) and the source layout.
 *
 * Names and commands follow the recipe-tool seed: one package gives `bin/<name>` →
 * `cargo run --bin <name>`, `example/<name>` → `cargo run --example <name>`, `test/<name>` →
 * `cargo test --test <name>`, `bench/<name>` → `cargo bench --bench <name>`; a workspace of
 * several packages prefixes the package (`<package>/bin/<name>` → `cargo run -p <package> --bin
 * <name>`, scope = the package). Every command runs from the root (the workspace root). A target
 * with `required-features` gets `--features` so that the command runs as written.
 */
import { join, resolve } from 'node:path'
import type { TomlError } from 'smol-toml'
import { smolToml } from '../../base/lazy.js'
import { shellWord } from '../../base/quote.js'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { preview, readText, relPosix } from '../shared/fs.js'
import { packageTargets, type CargoTarget } from './targets.js'
import { expandMembers, isUnder, memberInside, pathDependencies, WorkspaceRules } from './workspace.js'

const SOURCE = 'cargo'


interface Manifest {
  readonly file: string
  readonly text: string
  readonly doc: Record<string, unknown>
}

export interface CargoPackage {
  readonly name: string
  readonly dir: string
  readonly manifest: Manifest
  readonly targets: CargoTarget[]
}

interface Scan {
  root: string
  diagnostics: Diagnostic[]
  files: string[]
}

function diag(s: Scan, file: string, message: string, line?: number, severity: 'error' | 'warning' = 'error'): void {
  s.diagnostics.push(createDiagnostic({ source: SOURCE, file: relPosix(s.root, file), ...(line ? { line } : {}), message, severity }))
}

/** Reads and parses one Cargo.toml; a TOML error is a diagnostic with its line. */
function readManifest(s: Scan, file: string): Manifest | 'missing' | 'invalid' {
  const text = readText(file)
  if (text === undefined) return 'missing'
  s.files.push(relPosix(s.root, file))
  try {
    return { file, text, doc: smolToml().parse(text) as Record<string, unknown> }
  } catch (error) {
    const e = error as TomlError
    const first = String(e?.message ?? error).split('\n')[0]!.replace(/^Invalid TOML document: /, '')
    diag(s, file, `Cargo.toml is not valid TOML: ${first}; fix the syntax (cargo refuses it too)`, typeof e?.line === 'number' ? e.line : undefined)
    return 'invalid'
  }
}

function table(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

function edition(pkg: Record<string, unknown>, workspace: Record<string, unknown> | undefined): string {
  const e = pkg.edition
  if (typeof e === 'string') return e
  if (table(e)?.workspace === true) {
    const inherited = table(workspace?.package)?.edition
    if (typeof inherited === 'string') return inherited
  }
  return '2015'
}

/** The packages of the root manifest: itself, or its workspace's members. */
export function loadPackages(root: string): { packages: CargoPackage[]; diagnostics: Diagnostic[]; files: string[] } {
  const s: Scan = { root, diagnostics: [], files: [] }
  const rootFile = join(root, 'Cargo.toml')
  const rootManifest = readManifest(s, rootFile)
  if (typeof rootManifest === 'string') return { packages: [], diagnostics: s.diagnostics, files: s.files }
  const workspace = table(rootManifest.doc.workspace)
  const dirs: Array<{ dir: string; via?: string }> = []
  if (rootManifest.doc.package !== undefined) dirs.push({ dir: root })
  const rules = workspace ? new WorkspaceRules(root, workspace) : undefined
  if (workspace && rules) {
    const { members, problems } = expandMembers(root, workspace, rules)
    for (const p of problems) diag(s, rootFile, p.message, undefined, p.severity)
    dirs.push(...members)
  } else if (rootManifest.doc.package === undefined) {
    diag(s, rootFile, 'Cargo.toml has neither [package] nor [workspace]; add one of them (cargo refuses this manifest)')
  }
  const packages: CargoPackage[] = []
  const byName = new Map<string, CargoPackage>()
  // Each directory once, in order: the root package, the members, then path dependencies found on the way.
  const queued = new Set<string>()
  for (let k = 0; k < dirs.length; k++) {
    const { dir, via } = dirs[k]!
    if (queued.has(dir)) continue
    queued.add(dir)
    const file = join(dir, 'Cargo.toml')
    const manifest = dir === root ? rootManifest : readManifest(s, file)
    if (manifest === 'missing') {
      diag(s, rootFile, `workspace member ${preview(relPosix(root, dir))}${via && via !== relPosix(root, dir) ? ` (from "${preview(via)}")` : ''} has no Cargo.toml; add one, or remove it from members (or add it to exclude)`)
      continue
    }
    if (manifest === 'invalid') continue
    const pkgTable = table(manifest.doc.package)
    if (!pkgTable) {
      if (dir !== root) diag(s, file, 'workspace member has no [package] table; add [package] with a name, or remove it from the workspace members')
      continue
    }
    if (dir !== root && manifest.doc.workspace !== undefined) {
      diag(s, file, 'this member declares its own [workspace] inside the root workspace; cargo refuses nested workspaces, remove one [workspace]', undefined, 'warning')
    }
    const name = pkgTable.name
    if (typeof name !== 'string' || name === '') {
      diag(s, file, '[package] has no name; add name = "..." (cargo requires it)')
      continue
    }
    const dup = byName.get(name)
    if (dup) {
      diag(s, file, `two workspace packages are named \`${name}\` (also ${preview(relPosix(root, dup.manifest.file))}); cargo refuses this, rename one`)
      continue
    }
    const { targets, problems } = packageTargets({ dir, name, edition: edition(pkgTable, workspace), manifest: manifest.doc, text: manifest.text })
    for (const p of problems) diag(s, file, p.message, p.line, p.severity)
    const pkg: CargoPackage = { name, dir, manifest, targets }
    packages.push(pkg)
    byName.set(name, pkg)
    // Path dependencies inside the workspace are members too (cargo's implicit membership).
    if (workspace && rules) {
      for (const dep of pathDependencies(manifest.doc, dir)) {
        if (!isUnder(dep, root) || rules.excluded(dep)) continue
        // By real path: a path dependency through a link out of the root is not a member.
        const m = memberInside(root, dep)
        if ('dir' in m && !queued.has(m.dir)) dirs.push({ dir: m.dir })
      }
    }
  }
  return { packages, diagnostics: s.diagnostics, files: s.files }
}

const KIND_TEXT = { bin: 'binary', example: 'example', test: 'integration test', bench: 'benchmark' } as const

/** Recipes for the packages' targets: seed names and commands, prefixed when there are several packages. */
export function cargoRecipes(root: string, packages: readonly CargoPackage[]): Recipe[] {
  const multi = packages.length > 1
  const recipes: Recipe[] = []
  for (const pkg of packages) {
    // Paths relative to the root, computed once per package (path.relative is costly at scale).
    const dir = relPosix(root, pkg.dir)
    const under = (p: string) => (p.startsWith('/') || p.split('/').includes('..') ? relPosix(root, resolve(pkg.dir, p)) : dir === '.' ? p : `${dir}/${p}`)
    const file = under('Cargo.toml')
    for (const t of pkg.targets) {
      const features = t.requiredFeatures.length ? ` --features ${shellWord(t.requiredFeatures.join(','))}` : ''
      // cargo refuses to run a library example ("is a library and cannot be executed"); it builds it.
      const verb = t.kind === 'test' || t.kind === 'bench' ? t.kind : t.library ? 'build' : 'run'
      const notes = [`${t.library ? 'library example' : KIND_TEXT[t.kind]} \`${t.name}\` (${under(t.path)})`]
      if (multi) notes.push(`of package ${pkg.name}`)
      if (t.requiredFeatures.length) notes.push(`requires features ${t.requiredFeatures.join(', ')}`)
      recipes.push(createRecipe({
        source: SOURCE,
        runner: 'cargo',
        name: `${multi ? `${pkg.name}/` : ''}${t.kind}/${t.name}`,
        command: `cargo ${verb}${multi ? ` -p ${shellWord(pkg.name)}` : ''} --${t.kind} ${shellWord(t.name)}${features}`,
        cwd: '.',
        description: `Cargo ${notes.join(', ')}`,
        file,
        ...(t.line ? { line: t.line } : {}),
        ...(multi ? { scope: pkg.name } : {}),
      }))
    }
  }
  return recipes
}

/** What `cargo build` and friends cover at the root: a virtual workspace's default members, or the root package. */
function everydayScope(root: string, packages: readonly CargoPackage[]): string {
  const rootPackage = packages.find((p) => p.dir === root)
  if (packages.length === 1) return `package ${packages[0]!.name}`
  if (rootPackage) return `the root package ${rootPackage.name} (add --workspace for all ${packages.length} packages)`
  return `the workspace's ${packages.length} packages (its default-members, when set)`
}

const EVERYDAY = [
  ['build', 'compiles'],
  ['check', 'type-checks without producing binaries'],
  ['test', 'builds and runs the unit, integration and doc tests of'],
] as const

/**
 * `cargo build`, `cargo check` and `cargo test` at the root: no Cargo.toml line declares them,
 * but every Cargo package or workspace has them, and they are what Rust users run most.
 */
function everydayRecipes(root: string, packages: readonly CargoPackage[]): Recipe[] {
  if (packages.length === 0) return []
  const what = everydayScope(root, packages)
  const file = relPosix(root, join(root, 'Cargo.toml'))
  return EVERYDAY.map(([verb, does]) => createRecipe({
    source: SOURCE,
    runner: 'cargo',
    name: verb,
    command: `cargo ${verb}`,
    cwd: '.',
    description: `cargo ${verb} ${does} ${what}; implied by Cargo.toml, not declared in it`,
    file,
    implied: true,
  }))
}

export function collectCargo(root: string): CollectorResult {
  const { packages, diagnostics, files } = loadPackages(root)
  return { recipes: [...everydayRecipes(root, packages), ...cargoRecipes(root, packages)], diagnostics, files }
}

export const cargoCollector: Collector = {
  source: SOURCE,
  manifestNames: ['Cargo.toml'],
  collect(ctx: CollectContext): CollectorResult {
    return collectCargo(ctx.root)
  },
}
