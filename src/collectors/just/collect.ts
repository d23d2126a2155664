/**
 * The just collector: the root justfile, its imports and its modules (nested), read statically.
 *
 * Choices, following what just 1.57 does when run at the scan root:
 * - The justfile is the one file in the root named `justfile` or `.justfile` in any case; several
 *   such files make just refuse to run, so they give an error and no recipes.
 * - Recipes of imported files are the importing module's own (file = the imported file).
 * - Module recipes are named as just lists them (`mod::recipe`, `a::b::recipe`) and run as
 *   `just mod::recipe` from the root; `scope` is the module path.
 * - Every command runs from the justfile's directory (the root, cwd `.`); just itself moves into a
 *   module's directory, or stays put for `[no-cd]` recipes, as the justfile says.
 * - `_name` and `[private]` recipes, and recipes of private modules, are not listed.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic } from '../../book/recipe.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { isInside, readText, realOrSelf, relPosix } from '../shared/fs.js'
import { realRoot } from '../shared/guard.js'
import { parseJustfile, type ParsedJustfile, type JustRecipeItem } from './parse.js'
import { DirCache, findJustfile } from './files.js'

export { findJustfile } from './files.js'

const SOURCE = 'just'
/** just's OS attributes; a recipe that has any of them exists only on a matching system. */
const OS_ATTRIBUTES = new Set(['android', 'dragonfly', 'freebsd', 'linux', 'macos', 'netbsd', 'openbsd', 'unix', 'windows'])

/** The OS attributes that enable a recipe on `platform` (a `process.platform` value). */
export function osAttributesFor(platform: string): Set<string> {
  const os = platform === 'darwin' ? 'macos' : platform === 'win32' ? 'windows' : platform
  return new Set(os === 'windows' ? ['windows'] : [os, 'unix'])
}

function enabledOn(item: JustRecipeItem, os: ReadonlySet<string>): boolean {
  const wanted = item.attributes.filter((a) => OS_ATTRIBUTES.has(a.name))
  return wanted.length === 0 || wanted.some((a) => os.has(a.name))
}

/** Notes for a person or an agent, after the doc: groups, and a confirmation prompt. */
function describe(item: JustRecipeItem): string {
  const notes = [item.doc]
  if (item.groups.length) notes.push(`[group: ${item.groups.join(', ')}]`)
  if (item.attributes.some((a) => a.name === 'confirm')) notes.push('[confirm: asks before it runs]')
  return notes.filter(Boolean).join(' ')
}


/** Modules nested deeper than this are reported, not followed (just has no limit; cycles aside, real trees are shallow). */
const MAX_MODULE_DEPTH = 16
/** Modules one scan walks (each `mod` line of every module file counts): a tree of them can branch at every level. */
const MAX_MODULES = 2_000

interface Walk {
  root: string
  dirs: DirCache
  /** Public recipes found, made into Recipes once every alias (some point into modules) is known. */
  found: Array<{ name: string; scope: string; prefix: string; item: JustRecipeItem; file: string; variables: string[] }>
  /** Full recipe name → full alias names. */
  aliases: Map<string, string[]>
  diagnostics: Diagnostic[]
  files: string[]
  parsed: Map<string, ParsedJustfile>
  os: ReadonlySet<string>
  /** Each file read, by absolute path → its path relative to the root. */
  relative: Map<string, string>
  /** Modules walked so far (MAX_MODULES). */
  modules: number
}

/** One module's merged items: its own file plus everything it imports. */
interface ModuleItems {
  recipes: Array<{ item: JustRecipeItem; file: string }>
  aliases: Array<{ name: string; target: string; line: number; private: boolean; file: string }>
  assignments: Set<string>
  /** What each assignment reads, to find variables just would call undefined. */
  uses: Array<{ names: string[]; line: number; file: string }>
  modules: Array<{ name: string; path?: string; optional: boolean; line: number; private: boolean; file: string }>
  allowDuplicates: boolean
  /** Files already gathered into this module. */
  gathered: Set<string>
}

function diag(w: Walk, file: string, line: number | undefined, message: string, severity: 'error' | 'warning' = 'error'): void {
  w.diagnostics.push(createDiagnostic({ source: SOURCE, file: relPosix(w.root, file), ...(line ? { line } : {}), message, severity }))
}

function parseFile(w: Walk, file: string): ParsedJustfile | undefined {
  const cached = w.parsed.get(file)
  if (cached) return cached
  const text = readText(file)
  if (text === undefined) return undefined
  const parsed = parseJustfile(text)
  w.parsed.set(file, parsed)
  w.files.push(relPosix(w.root, file))
  w.relative.set(file, w.files[w.files.length - 1]!)
  if (parsed.problems.length > 0 && !isInside(realOrSelf(file), realRoot(w.root))) {
    // Outside the root, a file just refuses lists nothing: its text (a password file, say) must
    // not become recipes. One diagnostic, at its first problem, as just stops there.
    const first = parsed.problems[0]!
    diag(w, file, first.line, `this file is outside the scanned directory and just refuses it: ${first.message}; none of its recipes are listed`)
    const refused: ParsedJustfile = { ...parsed, recipes: [], aliases: [], assignments: [], assignmentUses: [], modules: [], imports: [], settings: {} }
    w.parsed.set(file, refused)
    return refused
  }
  for (const p of parsed.problems) diag(w, file, p.line, `${p.message}; just refuses this justfile until it is fixed`)
  return parsed
}

/** Gathers a module's items from its file and its imports (depth-first, in file order). */
function gather(w: Walk, file: string, into: ModuleItems, chain: string[]): void {
  // just reads a file imported twice into one module once (a diamond of imports), and so does this.
  if (into.gathered.has(file)) return
  into.gathered.add(file)
  const parsed = parseFile(w, file)
  if (!parsed) return
  if (parsed.settings['allow-duplicate-recipes'] === 'true') into.allowDuplicates = true
  for (const a of parsed.assignments) into.assignments.add(a)
  for (const u of parsed.assignmentUses) into.uses.push({ ...u, file })
  for (const r of parsed.recipes) into.recipes.push({ item: r, file })
  for (const a of parsed.aliases) into.aliases.push({ ...a, file })
  for (const m of parsed.modules) into.modules.push({ ...m, file })
  for (const imp of parsed.imports) {
    if (imp.path.startsWith('~')) {
      // A home-directory import is the user's own setup, not the repository's: not read. Optional ones are common and silent.
      if (!imp.optional) diag(w, file, imp.line, `import '${imp.path}' points into the home directory, which a scan does not read; its recipes are missing here (write 'import?' if the file is optional)`, 'warning')
      continue
    }
    const target = isAbsolute(imp.path) ? imp.path : resolve(dirname(file), imp.path)
    if (chain.includes(target)) {
      diag(w, file, imp.line, `import '${imp.path}' imports a file that is already being imported (a cycle); remove one of the imports`)
      continue
    }
    if (!w.dirs.isFile(target)) {
      if (!imp.optional) diag(w, file, imp.line, `import '${imp.path}' not found at ${relPosix(w.root, target)}; create the file, fix the path, or write 'import?' to make it optional`)
      continue
    }
    gather(w, target, into, [...chain, target])
  }
}

/** The source file of `mod name ['path']` declared in `file`, as just finds it. */
function moduleFile(w: Walk, file: string, mod: ModuleItems['modules'][number]): string | undefined {
  const base = dirname(file)
  let candidates: string[]
  if (mod.path !== undefined) {
    const p = resolve(base, mod.path)
    candidates = w.dirs.isDir(p) ? [join(p, 'mod.just'), ...w.dirs.justfiles(p)].filter((c) => w.dirs.isFile(c)) : w.dirs.isFile(p) ? [p] : []
  } else {
    const dir = join(base, mod.name)
    candidates = [join(base, `${mod.name}.just`), join(dir, 'mod.just')].filter((c) => w.dirs.isFile(c))
    if (w.dirs.isDir(dir)) candidates.push(...w.dirs.justfiles(dir))
  }
  if (candidates.length === 1) return candidates[0]
  if (candidates.length > 1) {
    diag(w, file, mod.line, `module \`${mod.name}\` has several source files (${candidates.map((c) => relPosix(w.root, c)).join(', ')}); just refuses this, keep one of them or name it with mod ${mod.name} 'path'`)
  } else if (!mod.optional) {
    const where = mod.path !== undefined ? `'${mod.path}'` : `${mod.name}.just, ${mod.name}/mod.just or ${mod.name}/justfile`
    diag(w, file, mod.line, `module \`${mod.name}\` not found (looked for ${where}); create it, fix the path, or write 'mod? ${mod.name}' to make it optional`)
  }
  return undefined
}

/** just's built-in constants, readable anywhere without an assignment (measured with just 1.57). */
const JUST_CONSTANTS = new Set([
  'HEX', 'HEXLOWER', 'HEXUPPER', 'PATH_SEP', 'PATH_VAR_SEP', 'CLEAR', 'NORMAL', 'BOLD', 'ITALIC', 'UNDERLINE',
  'INVERT', 'HIDE', 'STRIKETHROUGH', 'BLACK', 'RED', 'GREEN', 'YELLOW', 'BLUE', 'MAGENTA', 'CYAN', 'WHITE',
  'BG_BLACK', 'BG_RED', 'BG_GREEN', 'BG_YELLOW', 'BG_BLUE', 'BG_MAGENTA', 'BG_CYAN', 'BG_WHITE',
])

/**
 * just refuses a whole justfile when an assignment, a parameter default or an interpolation reads
 * a variable that no assignment of its module defines (a bare word where a string was meant, say).
 * Reported once per name, at its first use; the recipes are still listed.
 */
function undefinedVariables(w: Walk, items: ModuleItems, recipes: Iterable<{ item: JustRecipeItem; file: string }>): void {
  const reported = new Set<string>()
  const check = (names: readonly string[], known: (name: string) => boolean, file: string, line: number) => {
    for (const name of names) {
      if (known(name) || reported.has(name)) continue
      reported.add(name)
      diag(w, file, line, `variable \`${name}\` not defined; just refuses this justfile until it is fixed (define it with \`${name} := ...\`, or quote it if a string was meant)`)
    }
  }
  const isVariable = (name: string) => items.assignments.has(name) || JUST_CONSTANTS.has(name)
  for (const use of items.uses) check(use.names, isVariable, use.file, use.line)
  for (const { item, file } of recipes) {
    const params = new Set(item.parameters.map((p) => p.name))
    check(item.references, (name) => params.has(name) || isVariable(name), file, item.line)
  }
}

function walkModule(w: Walk, file: string, path: readonly string[], chain: string[]): void {
  const items: ModuleItems = { recipes: [], aliases: [], assignments: new Set(), uses: [], modules: [], allowDuplicates: false, gathered: new Set() }
  gather(w, file, items, chain)
  const prefix = path.length ? `${path.join('::')}::` : ''
  // A later definition replaces an earlier one only under `set allow-duplicate-recipes`.
  const byName = new Map<string, { item: JustRecipeItem; file: string }>()
  for (const entry of items.recipes) {
    // just drops recipes for other systems before anything else (so `[windows] x` and `[unix] x` coexist).
    if (!enabledOn(entry.item, w.os)) continue
    const seen = byName.get(entry.item.name)
    if (seen && !items.allowDuplicates) {
      diag(w, entry.file, entry.item.line, `recipe \`${prefix}${entry.item.name}\` is defined twice (first at ${relPosix(w.root, seen.file)}:${seen.item.line}); rename one, or add 'set allow-duplicate-recipes'`)
      continue
    }
    if (seen) byName.delete(entry.item.name)
    byName.set(entry.item.name, entry)
  }
  for (const a of items.aliases) {
    // Targets in submodules (`alias b := mod::build`) are checked when that module is read.
    if (!a.target.includes('::') && !byName.has(a.target)) {
      diag(w, a.file, a.line, `alias \`${a.name}\` points at recipe \`${a.target}\`, which ${prefix ? `module \`${path.join('::')}\`` : 'the justfile'} does not define; fix the target name`)
      continue
    }
    if (a.private) continue
    const list = w.aliases.get(prefix + a.target) ?? []
    list.push(prefix + a.name)
    w.aliases.set(prefix + a.target, list)
  }
  undefinedVariables(w, items, byName.values())
  for (const { item, file: itemFile } of byName.values()) {
    if (item.private) continue
    const params = new Set(item.parameters.map((p) => p.name))
    const variables = item.references.filter((r) => !params.has(r) && items.assignments.has(r))
    w.found.push({ name: prefix + item.name, scope: path.join('::'), prefix, item, file: itemFile, variables })
  }
  for (const mod of items.modules) {
    const src = moduleFile(w, mod.file, mod)
    if (!src || mod.private) continue
    if (chain.includes(src)) {
      diag(w, mod.file, mod.line, `module \`${mod.name}\` includes a file that contains it (a cycle); remove the mod line`)
      continue
    }
    if (++w.modules > MAX_MODULES) {
      if (w.modules === MAX_MODULES + 1) diag(w, mod.file, mod.line, `the justfiles declare more than ${MAX_MODULES} modules (MAX_MODULES); module \`${[...path, mod.name].join('::')}\` and the rest are not listed`, 'warning')
      continue
    }
    if (path.length + 1 > MAX_MODULE_DEPTH) {
      diag(w, mod.file, mod.line, `module \`${[...path, mod.name].join('::')}\` is nested more than ${MAX_MODULE_DEPTH} levels deep; its recipes are not listed`, 'warning')
      continue
    }
    walkModule(w, src, [...path, mod.name], [...chain, src])
  }
}

/** Collects the recipes of the justfile in `root` (none when there is no justfile). */
export interface JustOptions {
  /** The system whose recipes count (`[linux]`, `[windows]`, ...): default this one. */
  platform?: string
}

export function collectJust(root: string, options: JustOptions = {}): CollectorResult {
  const os = osAttributesFor(options.platform ?? process.platform)
  const w: Walk = {
    root, dirs: new DirCache(), found: [], aliases: new Map(), diagnostics: [], files: [], parsed: new Map(), os, relative: new Map(), modules: 0,
  }
  const { file, candidates } = findJustfile(root, w.dirs)
  if (candidates.length > 1) {
    const names = candidates.map((c) => relPosix(root, c))
    diag(w, candidates[0]!, undefined, `several justfiles in one directory (${names.join(', ')}); just refuses to choose, so none is read: keep one, or rename the others`)
    return { recipes: [], diagnostics: w.diagnostics, files: [] }
  }
  if (file) walkModule(w, file, [], [file])
  const recipes = w.found.map(({ name, scope, prefix, item, file: itemFile, variables }) => createRecipe({
    source: SOURCE,
    runner: 'just',
    name,
    command: `just ${name}`,
    cwd: '.',
    description: describe(item),
    file: w.relative.get(itemFile) ?? relPosix(root, itemFile),
    line: item.line,
    prerequisites: item.dependencies.map((d) => prefix + d),
    variables,
    parameters: item.parameters,
    ...(scope ? { scope } : {}),
    aliases: w.aliases.get(name) ?? [],
  }))
  // just compiles the whole justfile, modules and imports included, before it runs anything:
  // any error above makes it refuse every recipe, so none is offered.
  const errors = w.diagnostics.filter((d) => d.severity === 'error')
  if (errors.length > 0 && recipes.length > 0) {
    const first = errors[0]!
    w.diagnostics.push(createDiagnostic({
      source: SOURCE,
      file: first.file,
      ...(first.line !== undefined ? { line: first.line } : {}),
      message: `just refuses this justfile (first error at ${first.file}${first.line !== undefined ? `:${first.line}` : ''}), so none of its ${recipes.length} recipe${recipes.length === 1 ? '' : 's'} can run and none is listed; fix the error${errors.length === 1 ? '' : 's'} reported above`,
    }))
    return { recipes: [], diagnostics: w.diagnostics, files: w.files }
  }
  return { recipes, diagnostics: w.diagnostics, files: w.files }
}

export const justCollector: Collector = {
  source: SOURCE,
  manifestNames: ['justfile', 'Justfile', 'JUSTFILE', '.justfile', '.Justfile', 'mod.just'],
  collect(ctx: CollectContext): CollectorResult {
    return collectJust(ctx.root)
  },
}
