/**
 * The cmake collector: the presets of CMakePresets.json and CMakeUserPresets.json at the root
 * (the user file includes the project file implicitly) and of the files they `include`. Every
 * visible preset whose `condition` holds here becomes a recipe: `configure/<p>` → `cmake --preset
 * <p>`, `build/<p>` → `cmake --build --preset <p>`, `test/<p>` → `ctest --preset <p>`,
 * `package/<p>` → `cpack --preset <p>`, `workflow/<p>` → `cmake --workflow --preset <p>`, as
 * `cmake --list-presets=all` lists them: hidden presets and presets whose condition is false are
 * left out; `inherits` carries conditions, configure presets and environments down.
 */
import { dirname, join, resolve } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { envVar, readText, relPosix } from '../shared/fs.js'
import { insideRoot } from '../shared/inside-root.js'
import { listObjectLines } from '../shared/json-list-lines.js'
import { isRecord, kind, parseJsonText, positionLocator } from '../shared/json-text.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

const SOURCE = 'cmake'
const PROJECT = 'CMakePresets.json'
const USER = 'CMakeUserPresets.json'
const KINDS = [
  { key: 'configurePresets', kind: 'configure', runner: 'cmake', command: (p: string) => `cmake --preset ${p}` },
  { key: 'buildPresets', kind: 'build', runner: 'cmake', command: (p: string) => `cmake --build --preset ${p}` },
  { key: 'testPresets', kind: 'test', runner: 'ctest', command: (p: string) => `ctest --preset ${p}` },
  { key: 'packagePresets', kind: 'package', runner: 'cpack', command: (p: string) => `cpack --preset ${p}` },
  { key: 'workflowPresets', kind: 'workflow', runner: 'cmake', command: (p: string) => `cmake --workflow --preset ${p}` },
] as const
type Kind = (typeof KINDS)[number]['kind']
const HOST = process.platform === 'win32' ? 'Windows' : process.platform === 'darwin' ? 'Darwin' : process.platform === 'linux' ? 'Linux' : process.platform

interface Preset {
  kind: Kind
  name: string
  raw: Record<string, unknown>
  file: string
  line?: number
}

type Json = Record<string, unknown>

export function collectCmake(root: string): CollectorResult {
  const presets = new CmakePresets(root)
  const projectAbs = join(root, PROJECT)
  const userAbs = join(root, USER)
  if (readText(userAbs) !== undefined) presets.load(userAbs, undefined, [])
  else if (readText(projectAbs) !== undefined) presets.load(projectAbs, undefined, [])
  const { diagnostics, files } = presets
  if (files.length === 0) return { recipes: [], diagnostics, files }
  return { recipes: presets.recipes(), diagnostics, files }
}

/** Where an include line is: the file it is in, and its line when known. */
interface IncludedFrom {
  file: string
  line?: number
}

/**
 * The presets of one scan: load() reads the files (each file's presets, then its includes'), then
 * recipes() judges each preset as cmake would (inherits, conditions, configure presets, workflow
 * steps) and lists the visible ones. The diagnostics gather along the way.
 */
class CmakePresets {
  readonly diagnostics: Diagnostic[] = []
  readonly files: string[] = []
  private readonly root: string
  private readonly presets: Preset[] = []
  private readonly byKey = new Map<string, Preset>()
  private readonly loaded = new Set<string>()
  /** Each file's direct includes (relative paths): a preset may only use presets its file reaches. */
  private readonly includesOf = new Map<string, string[]>()
  private readonly reachCache = new Map<string, Set<string>>()
  private readonly slowPatterns = new Set<Preset>()
  private readonly visible = new Map<string, boolean>()

  constructor(root: string) {
    this.root = root
  }

  private report(file: string, message: string, line?: number, severity: 'error' | 'warning' = 'error'): void {
    this.diagnostics.push(createDiagnostic({ source: SOURCE, file, ...(line ? { line } : {}), message, severity }))
  }

  /** Reads one presets file and, first, the files it includes (cmake's order). */
  load(abs: string, from: IncludedFrom | undefined, chain: string[]): void {
    const root = this.root
    const rel = relPosix(root, abs)
    if (from) this.includesOf.set(from.file, [...(this.includesOf.get(from.file) ?? []), rel])
    if (chain.includes(abs)) {
      this.report(from!.file, `include cycle ${[...chain, abs].map((f) => relPosix(root, f)).join(' -> ')}; cmake refuses cyclic includes`, from!.line)
      return
    }
    if (this.loaded.has(abs)) return // cmake reads a file included twice once
    if (!insideRoot(root, abs)) {
      this.report(from!.file, `include ${rel} is outside the scanned directory (by its real path); its presets are not listed`, from!.line, 'warning')
      return
    }
    const text = readText(abs)
    if (text === undefined) {
      if (from) this.report(from.file, `included file ${rel} does not exist; cmake refuses the presets ("File not found")`, from.line)
      return
    }
    this.loaded.add(abs)
    this.files.push(rel)
    const doc = this.document(text, rel)
    if (!doc) return
    for (const k of KINDS) this.addPresets(k, doc[k.key], text, rel)
    this.followIncludes(abs, rel, doc, text, chain)
  }

  /** A presets file's top-level object, when cmake would take it (valid JSON, an object, an integer version). */
  private document(text: string, rel: string): (Json & { version: number }) | undefined {
    let doc: unknown
    try {
      doc = JSON.parse(text)
    } catch {
      const { error } = parseJsonText(text, false)
      const where = error ? ` (line ${error.line}, column ${error.column}: ${error.message})` : ''
      this.report(rel, `${rel} is not valid JSON${where}; cmake refuses every preset until it is fixed`, error?.line)
      return undefined
    }
    if (!isRecord(doc)) {
      this.report(rel, `${rel} must hold an object, not ${kind(doc)}`, 1)
      return undefined
    }
    if (typeof doc.version !== 'number' || !Number.isInteger(doc.version) || doc.version < 1) {
      this.report(rel, `${rel} has no integer "version"; cmake refuses it (add "version": 6 or the schema version it was written for)`, 1)
      return undefined
    }
    return doc as Json & { version: number }
  }

  /** One file's list of presets of one kind (`configurePresets`, ...). */
  private addPresets(k: (typeof KINDS)[number], list: unknown, text: string, rel: string): void {
    if (list === undefined) return
    if (!Array.isArray(list)) {
      this.report(rel, `"${k.key}" must be a list of presets, not ${kind(list)}; cmake refuses the file`)
      return
    }
    const keyLines = listObjectLines(text, k.key)
    list.forEach((raw, index) => {
      const line = keyLines[index]
      if (!isRecord(raw) || typeof raw.name !== 'string' || raw.name === '') {
        this.report(rel, `${k.key}[${index}] has no "name"; cmake refuses the file`, line)
        return
      }
      const key = `${k.kind}\0${raw.name}`
      const dup = this.byKey.get(key)
      if (dup) {
        this.report(rel, `${k.kind} preset "${raw.name}" is defined twice (also in ${dup.file}); cmake refuses duplicate preset names`, line)
        return
      }
      const preset: Preset = { kind: k.kind, name: raw.name, raw, file: rel, ...(line ? { line } : {}) }
      this.presets.push(preset)
      this.byKey.set(key, preset)
    })
  }

  // A file's own presets come first, then its includes' (the order cmake --list-presets shows).
  private followIncludes(abs: string, rel: string, doc: Json & { version: number }, text: string, chain: string[]): void {
    const root = this.root
    const at = positionLocator(text)
    const includes = Array.isArray(doc.include) ? doc.include : []
    if (doc.include !== undefined && doc.version < 4) {
      this.report(rel, `"include" needs presets version 4 or later (this file says ${doc.version}); cmake refuses it`, undefined)
    }
    for (const inc of includes) {
      if (typeof inc !== 'string') continue
      this.load(resolve(dirname(abs), inc), { file: rel, line: lineOfText(text, JSON.stringify(inc), at) }, [...chain, abs])
    }
    // CMakeUserPresets.json includes CMakePresets.json implicitly.
    if (abs === join(root, USER) && readText(join(root, PROJECT)) !== undefined) this.load(join(root, PROJECT), { file: rel }, [...chain, abs])
  }

  private reachable(file: string): Set<string> {
    let set = this.reachCache.get(file)
    if (set) return set
    set = new Set([file])
    const queue = [file]
    while (queue.length) for (const next of this.includesOf.get(queue.pop()!) ?? []) if (!set.has(next)) set.add(next), queue.push(next)
    this.reachCache.set(file, set)
    return set
  }

  private unreachable(p: Preset, other: Preset | undefined): boolean {
    return other !== undefined && !this.reachable(p.file).has(other.file)
  }

  /** A preset's field, looked up through `inherits` (first parent wins, as cmake's order). */
  private inherited(p: Preset, field: string, seen: string[] = []): unknown {
    if (p.raw[field] !== undefined) return p.raw[field]
    for (const parentName of parents(p)) {
      const parent = this.byKey.get(`${p.kind}\0${parentName}`)
      if (!parent || seen.includes(parentName)) continue
      const v = this.inherited(parent, field, [...seen, p.name])
      if (v !== undefined) return v
    }
    return undefined
  }

  private cyclic(p: Preset, seen: string[]): string[] | undefined {
    for (const parentName of parents(p)) {
      if (seen.includes(parentName)) return [...seen, parentName]
      const parent = this.byKey.get(`${p.kind}\0${parentName}`)
      if (parent) {
        const c = this.cyclic(parent, [...seen, parentName])
        if (c) return c
      }
    }
    return undefined
  }

  /** The environment a preset's macros see: its (inherited) `environment`, then the process's. */
  private environmentOf(p: Preset): Json {
    const chain: Json[] = []
    const walk = (q: Preset, seen: string[]) => {
      if (isRecord(q.raw.environment)) chain.push(q.raw.environment)
      for (const n of parents(q)) {
        const parent = this.byKey.get(`${q.kind}\0${n}`)
        if (parent && !seen.includes(n)) walk(parent, [...seen, n])
      }
    }
    walk(p, [p.name])
    return Object.assign({}, ...chain.reverse())
  }

  /** A condition's string with its macros (`${sourceDir}`, `$env{X}`, ...) replaced. */
  private expand(value: unknown, p: Preset): string | undefined {
    if (typeof value !== 'string') return undefined
    const root = this.root
    const env = this.environmentOf(p)
    const macros = /\$(env|penv)\{([^}]*)\}|\$\{([^}]*)\}|\$vendor\{[^}]*\}/g
    return value.replace(macros, (whole, scope: string | undefined, envName: string | undefined, macro: string | undefined) => {
      if (scope) {
        const own = scope === 'env' && typeof env[envName!] === 'string' ? (env[envName!] as string) : undefined
        return own ?? envVar(envName!) ?? ''
      }
      if (macro === undefined) return ''
      switch (macro) {
        case 'sourceDir': return root
        case 'sourceParentDir': return dirname(root)
        case 'sourceDirName': return root.split(/[\\/]/).pop() ?? ''
        case 'presetName': return p.name
        case 'hostSystemName': return HOST
        case 'fileDir': return resolve(root, dirname(p.file))
        case 'dollar': return '$'
        case 'pathListSep': return process.platform === 'win32' ? ';' : ':'
        case 'generator': return typeof this.inherited(p, 'generator') === 'string' ? (this.inherited(p, 'generator') as string) : ''
        default: return whole
      }
    })
  }

  /** Whether a preset's condition holds here; `bad` when cmake can't evaluate it. */
  private holds(condition: unknown, p: Preset, depth = 0): boolean | 'bad' {
    if (condition === undefined || condition === null) return true
    if (typeof condition === 'boolean') return condition
    if (!isRecord(condition) || depth > 100) return 'bad'
    const c = condition
    const all = (list: unknown, every: boolean): boolean | 'bad' => {
      if (!Array.isArray(list)) return 'bad'
      const results = list.map((x) => this.holds(x, p, depth + 1))
      if (results.includes('bad')) return 'bad'
      return every ? results.every(Boolean) : results.some(Boolean)
    }
    switch (c.type) {
      case 'const': return typeof c.value === 'boolean' ? c.value : 'bad'
      case 'equals': case 'notEquals': {
        const l = this.expand(c.lhs, p)
        const r = this.expand(c.rhs, p)
        if (l === undefined || r === undefined) return 'bad'
        return (l === r) === (c.type === 'equals')
      }
      case 'inList': case 'notInList': {
        const s = this.expand(c.string, p)
        if (s === undefined || !Array.isArray(c.list)) return 'bad'
        const found = c.list.some((x) => this.expand(x, p) === s)
        return found === (c.type === 'inList')
      }
      case 'matches': case 'notMatches': return this.matches(c, p)
      case 'anyOf': return all(c.conditions, false)
      case 'allOf': return all(c.conditions, true)
      case 'not': {
        const v = this.holds(c.condition, p, depth + 1)
        return v === 'bad' ? v : !v
      }
      default: return 'bad'
    }
  }

  /** A `matches` or `notMatches` condition. */
  private matches(c: Json, p: Preset): boolean | 'bad' {
    const s = this.expand(c.string, p)
    if (s === undefined || typeof c.regex !== 'string') return 'bad'
    const pattern = this.expand(c.regex, p)!
    // A repeated group that itself repeats can backtrack for ages on a crafted string (a scan
    // must not hang on a hostile file): such a condition is taken to hold, with a warning.
    if (/\([^)]*[+*}][^)]*\)[+*{]/.test(pattern) || pattern.length > 1000 || s.length > 10_000) {
      this.slowPatterns.add(p)
      return c.type === 'matches'
    }
    let re: RegExp
    try {
      re = new RegExp(pattern)
    } catch {
      return 'bad'
    }
    return re.test(s) === (c.type === 'matches')
  }

  private isVisible(p: Preset): boolean {
    const key = `${p.kind}\0${p.name}`
    let v = this.visible.get(key)
    if (v === undefined) {
      const cond = this.holds(this.inherited(p, 'condition'), p)
      v = p.raw.hidden !== true && cond === true
      this.visible.set(key, v)
    }
    return v
  }

  /** A recipe per visible preset, in reading order. */
  recipes(): Recipe[] {
    const recipes: Recipe[] = []
    for (const p of this.presets) {
      const recipe = this.recipeOf(p)
      if (recipe) recipes.push(recipe)
    }
    return recipes
  }

  /** One preset's recipe, after what cmake checks of it; undefined when it is not listed. */
  private recipeOf(p: Preset): Recipe | undefined {
    const k = KINDS.find((x) => x.kind === p.kind)!
    this.checkParents(p)
    const cycle = this.cyclic(p, [p.name])
    if (cycle) {
      this.report(p.file, `${p.kind} presets inherit in a cycle (${cycle.join(' -> ')}); cmake refuses the presets`, p.line)
      return undefined
    }
    const cond = this.holds(this.inherited(p, 'condition'), p)
    if (cond === 'bad') {
      const message = `${p.kind} preset "${p.name}" has a condition cmake can't evaluate (an unknown type, or a missing field); cmake refuses the presets`
      this.report(p.file, message, p.line)
    }
    if (this.slowPatterns.has(p)) {
      const message = `${p.kind} preset "${p.name}" has a "matches" condition whose regular expression repeats a repeated group; `
        + 'it is not evaluated here (it could take very long) and is taken to hold'
      this.report(p.file, message, p.line, 'warning')
    }
    if (!this.isVisible(p)) return undefined
    const prerequisites = this.prerequisitesOf(p)
    if (!prerequisites) return undefined
    const displayName = typeof p.raw.displayName === 'string' ? p.raw.displayName : ''
    const description = typeof p.raw.description === 'string' ? p.raw.description : ''
    const both = displayName && description && displayName !== description
    return createRecipe({
      source: SOURCE,
      runner: k.runner,
      name: `${p.kind}/${p.name}`,
      command: k.command(shellWord(p.name)),
      description: both ? `${displayName}: ${description}` : displayName || description || `${p.kind} preset ${p.name}`,
      file: p.file,
      ...(p.line ? { line: p.line } : {}),
      prerequisites,
    })
  }

  /** Every parent a preset inherits must be a preset of its kind that its file reaches. */
  private checkParents(p: Preset): void {
    for (const parentName of parents(p)) {
      const parent = this.byKey.get(`${p.kind}\0${parentName}`)
      if (!parent) {
        this.report(p.file, `${p.kind} preset "${p.name}" inherits "${parentName}", which is not a ${p.kind} preset; cmake refuses the presets`, p.line)
      } else if (this.unreachable(p, parent)) {
        const message = `${p.kind} preset "${p.name}" inherits "${parentName}" from ${parent.file}, which ${p.file} does not include; `
          + 'cmake refuses the presets ("Inherited preset is unreachable"): include that file'
        this.report(p.file, message, p.line)
      }
    }
  }

  /** What runs before a preset: its configure preset, or a workflow's steps; undefined when cmake refuses it. */
  private prerequisitesOf(p: Preset): string[] | undefined {
    const prerequisites: string[] = []
    if (p.kind !== 'configure' && p.kind !== 'workflow') {
      const conf = this.inherited(p, 'configurePreset')
      const target = typeof conf === 'string' ? this.byKey.get(`configure\0${conf}`) : undefined
      if (typeof conf !== 'string') {
        this.report(p.file, `${p.kind} preset "${p.name}" names no configurePreset (nor inherits one); cmake refuses the presets`, p.line)
        return undefined
      }
      if (!target) {
        this.report(p.file, `${p.kind} preset "${p.name}" uses configure preset "${conf}", which is not defined; cmake refuses the presets`, p.line)
        return undefined
      }
      if (this.unreachable(p, target)) {
        const message = `${p.kind} preset "${p.name}" uses configure preset "${conf}" from ${target.file}, which ${p.file} does not include; `
          + 'cmake refuses the presets: include that file'
        this.report(p.file, message, p.line)
      }
      prerequisites.push(`configure/${conf}`)
    }
    if (p.kind === 'workflow') {
      const steps = Array.isArray(p.raw.steps) ? p.raw.steps : []
      for (const step of steps) {
        if (!isRecord(step) || typeof step.type !== 'string' || typeof step.name !== 'string') continue
        if (!this.byKey.has(`${step.type}\0${step.name}`)) {
          this.report(p.file, `workflow preset "${p.name}" runs ${step.type} preset "${step.name}", which is not defined; cmake refuses the presets`, p.line)
        }
        prerequisites.push(`${step.type}/${step.name}`)
      }
      if (steps.length === 0 || !isRecord(steps[0]) || steps[0].type !== 'configure') {
        this.report(p.file, `workflow preset "${p.name}" must start with a configure step; cmake refuses the presets`, p.line)
      }
    }
    return prerequisites
  }
}

/** The presets a preset names in `inherits` (one name or a list). */
function parents(p: Preset): string[] {
  if (typeof p.raw.inherits === 'string') return [p.raw.inherits]
  return Array.isArray(p.raw.inherits) ? p.raw.inherits.filter((x): x is string => typeof x === 'string') : []
}

function lineOfText(text: string, needle: string, at: (offset: number) => { line: number }): number | undefined {
  const i = text.indexOf(needle)
  return i === -1 ? undefined : at(i).line
}

export const cmakeCollector: Collector = {
  source: SOURCE,
  manifestNames: [PROJECT, USER],
  collect(ctx: CollectContext): CollectorResult {
    return collectCmake(ctx.root)
  },
}
