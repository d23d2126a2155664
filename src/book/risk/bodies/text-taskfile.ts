/**
 * Taskfiles (go-task v3) as the gate reads them, through its bounded reader: the root Taskfile
 * (go-task's first default name), its includes followed as go-task follows them (a path relative
 * to the including file, a directory's own Taskfile, `flatten`, `excludes`, namespace aliases, an
 * include's `dir` and `vars`), and one task found by the name `task` accepts (`ns:name`, an alias,
 * a bare namespace for its `default`). The YAML comes from the collector's reader (yaml-tree.ts).
 */
import { dirname, isAbsolute, join } from 'node:path'
import { TASKFILE_NAMES } from '../../../collectors/task/parse.js'
import { parseYamlTree, resolveAlias, scalarOf, toPlain, type YamlDocument, type YamlNode } from '../../../collectors/shared/yaml-tree.js'
import type { BodyContext } from '../types.js'
import { MAX_DEPTH, memoized, relPath } from './text-body.js'

type Map_ = Record<string, unknown>
const isMap = (v: unknown): v is Map_ => !!v && typeof v === 'object' && !Array.isArray(v)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined)
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter((s): s is string => s !== undefined) : [])

export interface IncludeDecl {
  readonly namespace: string
  readonly taskfile: string
  /** The include's `dir`, as written (relative to the including file's directory). */
  readonly dir?: string
  readonly vars: ReadonlyArray<[string, unknown]>
  readonly optional: boolean
  readonly flatten: boolean
  readonly aliases: readonly string[]
  readonly excludes: readonly string[]
  /** Written as a mapping (go-task's "advanced import": only then do `dir` and `vars` apply). */
  readonly advanced: boolean
}

export interface Taskfile {
  readonly abs: string
  readonly rel: string
  readonly tasks: ReadonlyMap<string, unknown>
  readonly vars: ReadonlyArray<[string, unknown]>
  readonly env: ReadonlyArray<[string, unknown]>
  readonly includes: readonly IncludeDecl[]
  /** Each task's line, and the line of each of its `cmds` entries. */
  readonly lines: ReadonlyMap<string, { line: number; cmds: number[] }>
  /** Why the file can't be read, when it can't. */
  readonly problem?: string
}

/** One step down an include: the declaration, and the file it names. */
export interface IncludeStep {
  readonly decl: IncludeDecl
  readonly from: Taskfile
  readonly target: Taskfile
}

export interface FoundTask {
  /** The name `task` knows it by (`ns:name`). */
  readonly name: string
  /** Its key in its own Taskfile. */
  readonly key: string
  readonly def: unknown
  readonly file: Taskfile
  /** The includes that lead to it, outermost first. */
  readonly chain: readonly IncludeStep[]
  /** The namespaces its calls are resolved in (flattened includes add none). */
  readonly namespace: readonly string[]
}

const entries = (v: unknown): Array<[string, unknown]> => (isMap(v) ? Object.entries(v) : [])

function includeDecl(namespace: string, value: unknown): IncludeDecl | undefined {
  const base = { namespace, vars: [], optional: false, flatten: false, aliases: [], excludes: [], advanced: false }
  if (typeof value === 'string') return { ...base, taskfile: value }
  if (!isMap(value) || str(value.taskfile) === undefined) return undefined
  return {
    ...base,
    taskfile: str(value.taskfile)!,
    ...(str(value.dir) !== undefined ? { dir: str(value.dir)! } : {}),
    vars: entries(value.vars),
    optional: value.optional === true,
    flatten: value.flatten === true,
    aliases: strList(value.aliases),
    excludes: strList(value.excludes),
    advanced: true,
  }
}

/** One Taskfile, parsed once per judgement. */
export function readTaskfile(ctx: BodyContext, abs: string): Taskfile | undefined {
  return memoized(ctx.memo, `task:${abs}`, () => {
    const text = ctx.read(abs)
    if (text === undefined) return undefined
    const rel = relPath(ctx.root, abs)
    const empty = { abs, rel, tasks: new Map(), vars: [], env: [], includes: [], lines: new Map() }
    let doc: unknown
    let lines: Map<string, { line: number; cmds: number[] }>
    try {
      const tree = parseYamlTree(text)
      doc = toPlain(tree, tree.contents)
      lines = taskLines(tree)
    } catch (error) {
      return { ...empty, problem: `go-task can't read ${rel} (${String((error as Error)?.message ?? error)})` }
    }
    if (!isMap(doc)) return { ...empty, problem: `${rel} is not a mapping of version and tasks` }
    const includes: IncludeDecl[] = []
    for (const [ns, value] of entries(doc.includes)) {
      const decl = includeDecl(ns, value)
      if (decl) includes.push(decl)
    }
    return { abs, rel, tasks: new Map(entries(doc.tasks)), vars: entries(doc.vars), env: entries(doc.env), includes, lines }
  })
}

/** A mapping node's value for a key. */
function valueAt(doc: YamlDocument, node: YamlNode | undefined, key: string): YamlNode | undefined {
  const map = resolveAlias(doc, node)
  if (map?.kind !== 'map') return undefined
  return resolveAlias(doc, map.pairs.find((p) => scalarOf(p.key) === key)?.value)
}

/** Where each task and each of its commands is written. */
function taskLines(doc: YamlDocument): Map<string, { line: number; cmds: number[] }> {
  const out = new Map<string, { line: number; cmds: number[] }>()
  const tasks = valueAt(doc, doc.contents, 'tasks')
  if (tasks?.kind !== 'map') return out
  for (const { key, value } of tasks.pairs) {
    const node = resolveAlias(doc, value)
    const list = node?.kind === 'seq' ? node : node?.kind === 'map' ? valueAt(doc, node, 'cmds') : undefined
    const cmds = list?.kind === 'seq' ? list.items.map((i) => doc.lineAt(i.start)) : node?.kind === 'scalar' ? [doc.lineAt(node.start)] : []
    out.set(String(scalarOf(key)), { line: doc.lineAt(key.start), cmds })
  }
  return out
}

/** The Taskfile go-task takes in `dir`: the first of its default names that reads. */
export function taskfileIn(ctx: BodyContext, dir: string): Taskfile | undefined {
  for (const name of TASKFILE_NAMES) {
    const file = readTaskfile(ctx, join(dir, name))
    if (file) return file
  }
  return undefined
}

/** The Taskfile an include names, from the including file; undefined when it can't be read here. */
export function includedFile(ctx: BodyContext, from: Taskfile, decl: IncludeDecl, vars: ReadonlyMap<string, string>): Taskfile | undefined {
  return memoized(ctx.memo, `task-include:${from.abs}:${decl.namespace}`, () => {
    const path = decl.taskfile.replace(/\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => vars.get(name) ?? whole)
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('git@') || path.startsWith('~') || path.includes('{{') || path.includes('$')) return undefined
    const abs = isAbsolute(path) ? path : join(dirname(from.abs), path)
    return readTaskfile(ctx, abs) ?? taskfileIn(ctx, abs)
  })
}

/** The root Taskfile of the scan root. */
export function rootTaskfile(ctx: BodyContext): Taskfile | undefined {
  return memoized(ctx.memo, `task-root:${ctx.root}`, () => taskfileIn(ctx, ctx.root))
}

/** Static string values of a file's vars (for include paths). */
export function staticVars(file: Taskfile): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of file.vars) if (str(v) !== undefined && !str(v)!.includes('{{')) out.set(k, str(v)!)
  return out
}

/** Finds a task by the name `task` accepts, from `file` down its includes. */
export function findTask(ctx: BodyContext, root: Taskfile, name: string): FoundTask | undefined {
  return findIn(ctx, root, name, [], [], 0)
}

function findIn(ctx: BodyContext, file: Taskfile, name: string, chain: IncludeStep[], namespace: string[], depth: number): FoundTask | undefined {
  if (depth > MAX_DEPTH) return undefined
  const full = (n: string) => [...namespace, n].join(':')
  if (file.tasks.has(name)) return { name: full(name), key: name, def: file.tasks.get(name), file, chain, namespace }
  for (const [taskName, def] of file.tasks) {
    if (isMap(def) && strList(def.aliases).includes(name)) return { name: full(taskName), key: taskName, def, file, chain, namespace }
  }
  const vars = staticVars(file)
  for (const decl of file.includes) {
    const target = includedFile(ctx, file, decl, vars)
    if (!target || chain.some((s) => s.target.abs === target.abs)) continue
    const step = [...chain, { decl, from: file, target }]
    if (decl.flatten) {
      if (decl.excludes.includes(name)) continue
      const found = findIn(ctx, target, name, step, namespace, depth + 1)
      if (found) return found
      continue
    }
    for (const prefix of [decl.namespace, ...decl.aliases]) {
      const rest = name === prefix ? 'default' : name.startsWith(`${prefix}:`) ? name.slice(prefix.length + 1) : undefined
      if (rest === undefined || decl.excludes.includes(rest)) continue
      const found = findIn(ctx, target, rest, step, [...namespace, decl.namespace], depth + 1)
      if (found) return found
    }
  }
  return undefined
}

/**
 * go-task's global variables: the root file's, then every included file's merged over them, depth
 * first in include order (a later definition replaces an earlier one in place).
 */
export function mergedVars(ctx: BodyContext, root: Taskfile): Array<[string, unknown]> {
  const merged = new Map<string, unknown>()
  const seen = new Set<string>()
  const walk = (file: Taskfile, depth: number) => {
    if (seen.has(file.abs) || depth > MAX_DEPTH) return
    seen.add(file.abs)
    for (const [k, v] of file.vars) merged.set(k, v)
    const vars = staticVars(file)
    for (const decl of file.includes) {
      const target = includedFile(ctx, file, decl, vars)
      if (target) walk(target, depth + 1)
    }
  }
  walk(root, 0)
  return [...merged]
}

export { isMap, str, strList }
