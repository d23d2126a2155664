/**
 * A justfile's modules as just compiles them, read through the gate's bounded reader: the root
 * justfile, each module's file with everything it imports (depth first, a file once per module,
 * cycles cut), its recipes (for this system's OS attributes), aliases, assignments, settings and
 * submodules, found where just looks for them. The items come from the collector's parser
 * (just-parse.ts); this module only adds what a body needs (tokens, body lines, values).
 */
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { osAttributesFor } from '../../../collectors/just/collect.js'
import { parseJustfile, type JustModuleItem, type JustRawItem, type JustRecipeItem, type ParsedJustfile } from '../../../collectors/just/parse.js'
import type { BodyContext } from '../types.js'
import { MAX_DEPTH, memoized, relPath } from './text-body.js'

/** The names just accepts for a justfile (it compares them without case; these are the spellings in use). */
const JUSTFILE_NAMES = ['justfile', 'Justfile', 'JUSTFILE', '.justfile', '.Justfile', '.JUSTFILE']
const OS_ATTRIBUTES = new Set(['android', 'dragonfly', 'freebsd', 'linux', 'macos', 'netbsd', 'openbsd', 'unix', 'windows'])
/** Modules one judgement loads (each `mod` line of every module counts). */
export const MAX_MODULES = 200

export interface JustFileRead {
  readonly abs: string
  readonly rel: string
  readonly parsed: ParsedJustfile
  /** Items by their first line. */
  readonly raw: ReadonlyMap<number, JustRawItem>
}

export interface JustRecipeDef {
  readonly item: JustRecipeItem
  readonly raw: JustRawItem
  readonly file: JustFileRead
}

export interface JustAssignment {
  readonly name: string
  readonly raw: JustRawItem
  readonly file: JustFileRead
  /** Index of the value's first token (after `name :=`, `export name :=`). */
  readonly from: number
}

export interface JustModule {
  readonly path: readonly string[]
  readonly source: JustFileRead
  readonly recipes: Map<string, JustRecipeDef>
  readonly aliases: Map<string, string>
  readonly assignments: Map<string, JustAssignment>
  readonly settings: Map<string, { raw: JustRawItem; value: string }>
  readonly modules: Map<string, { item: JustModuleItem; file: JustFileRead }>
  /** Submodules loaded so far (null: declared but not found). */
  readonly children: Map<string, JustModule | null>
  /** Files of this module, to cut import cycles and diamonds. */
  readonly gathered: Set<string>
  readonly loader: Loader
}

export interface Loader {
  ctx: BodyContext
  os: ReadonlySet<string>
  loaded: number
}

/** Reads and parses one justfile, once per judgement. */
function readFile(ctx: BodyContext, abs: string): JustFileRead | undefined {
  return memoized(ctx.memo, `just:${abs}`, () => {
    const text = ctx.read(abs)
    if (text === undefined) return undefined
    const raw = new Map<number, JustRawItem>()
    const parsed = parseJustfile(text.replace(/^\uFEFF/, ''), (item) => raw.set(item.line, item))
    return { abs, rel: relPath(ctx.root, abs), parsed, raw }
  })
}

/** The root module (the scan root's justfile), or undefined when there is none to read. */
export function rootModule(ctx: BodyContext): JustModule | undefined {
  return memoized(ctx.memo, `just-root:${ctx.root}`, () => {
    const loader: Loader = { ctx, os: osAttributesFor(process.platform), loaded: 0 }
    for (const name of JUSTFILE_NAMES) {
      const file = readFile(ctx, join(ctx.root, name))
      if (file) return loadModule(loader, file, [])
    }
    return undefined
  })
}

function loadModule(loader: Loader, source: JustFileRead, path: readonly string[]): JustModule {
  const mod: JustModule = {
    path,
    source,
    recipes: new Map(),
    aliases: new Map(),
    assignments: new Map(),
    settings: new Map(),
    modules: new Map(),
    children: new Map(),
    gathered: new Set(),
    loader,
  }
  gather(loader, mod, source, [source.abs])
  return mod
}

function enabled(item: JustRecipeItem, os: ReadonlySet<string>): boolean {
  const wanted = item.attributes.filter((a) => OS_ATTRIBUTES.has(a.name))
  return wanted.length === 0 || wanted.some((a) => os.has(a.name))
}

/** Adds one file's items to its module, then its imports' (as just reads them). */
function gather(loader: Loader, mod: JustModule, file: JustFileRead, chain: readonly string[]): void {
  if (mod.gathered.has(file.abs) || chain.length > MAX_DEPTH) return
  mod.gathered.add(file.abs)
  const allowDuplicates = file.parsed.settings['allow-duplicate-recipes'] === 'true' || mod.settings.has('allow-duplicate-recipes')
  for (const item of file.parsed.recipes) {
    const raw = file.raw.get(item.line)
    if (!raw || !enabled(item, loader.os)) continue
    if (mod.recipes.has(item.name) && !allowDuplicates) continue
    mod.recipes.set(item.name, { item, raw, file })
  }
  for (const a of file.parsed.aliases) if (!mod.aliases.has(a.name)) mod.aliases.set(a.name, a.target)
  for (const raw of file.raw.values()) {
    if (raw.kind === 'assignment') {
      const from = raw.toks[0]!.t === 'name' && raw.toks[1]?.v === ':=' ? 2 : 3
      const name = raw.toks[from - 2]!.v
      mod.assignments.set(name, { name, raw, file, from })
    } else if (raw.kind === 'set') {
      const name = raw.toks[1]?.v ?? ''
      mod.settings.set(name, { raw, value: file.parsed.settings[name] ?? '' })
    }
  }
  for (const m of file.parsed.modules) if (!mod.modules.has(m.name)) mod.modules.set(m.name, { item: m, file })
  for (const imp of file.parsed.imports) {
    if (imp.path.startsWith('~')) continue
    const target = isAbsolute(imp.path) ? imp.path : resolve(dirname(file.abs), imp.path)
    if (chain.includes(target)) continue
    const imported = readFile(loader.ctx, target)
    if (imported) gather(loader, mod, imported, [...chain, target])
  }
}

/** Where just finds the source of `mod name ['path']` declared in `file`. */
function moduleCandidates(file: JustFileRead, item: JustModuleItem): string[] {
  const base = dirname(file.abs)
  const inDir = (dir: string) => [join(dir, 'mod.just'), ...JUSTFILE_NAMES.map((n) => join(dir, n))]
  if (item.path !== undefined) {
    const p = resolve(base, item.path)
    return [p, ...inDir(p)]
  }
  return [join(base, `${item.name}.just`), ...inDir(join(base, item.name))]
}

/** A submodule of `mod` by name, loaded on first use; undefined when not declared or not found. */
export function childModule(mod: JustModule, name: string): JustModule | undefined {
  const cached = mod.children.get(name)
  if (cached !== undefined) return cached ?? undefined
  const loader = mod.loader
  const decl = mod.modules.get(name)
  let child: JustModule | null = null
  if (decl && mod.path.length < MAX_DEPTH && loader.loaded < MAX_MODULES) {
    for (const candidate of moduleCandidates(decl.file, decl.item)) {
      const file = readFile(loader.ctx, candidate)
      if (!file) continue
      loader.loaded++
      child = loadModule(loader, file, [...mod.path, name])
      break
    }
  }
  mod.children.set(name, child)
  return child ?? undefined
}

/** The module at `path` below `root`, or undefined. */
export function moduleAt(root: JustModule, path: readonly string[]): JustModule | undefined {
  let mod: JustModule | undefined = root
  for (const name of path) {
    mod = mod && childModule(mod, name)
    if (!mod) return undefined
  }
  return mod
}

/** Every module below `root` that loads (breadth first, bounded), for just's eager assignments. */
export function allModules(root: JustModule): JustModule[] {
  const out = [root]
  for (let i = 0; i < out.length && out.length < MAX_MODULES; i++) {
    for (const name of out[i]!.modules.keys()) {
      const child = childModule(out[i]!, name)
      if (child) out.push(child)
    }
  }
  return out
}

/** A recipe of `mod` by name or alias. */
export function recipeIn(mod: JustModule, name: string): JustRecipeDef | undefined {
  return mod.recipes.get(name) ?? (mod.aliases.has(name) && !mod.aliases.get(name)!.includes('::') ? mod.recipes.get(mod.aliases.get(name)!) : undefined)
}

/** A setting's first string argument (`set script-interpreter := ['bash', '-eu']` → the words). */
export function settingWords(mod: JustModule, name: string): string[] | undefined {
  const s = mod.settings.get(name)
  if (!s) return undefined
  const words = s.raw.toks.slice(3).filter((t) => t.t === 'str').map((t) => t.v)
  return words.length ? words : undefined
}
