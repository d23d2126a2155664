/**
 * Reads go-task Taskfiles (version 3) statically: the tasks of one Taskfile and of every
 * Taskfile it includes, merged the way go-task merges them (`taskfile/ast/tasks.go`, `Merge`):
 * namespaces joined with `:`, `flatten`, `internal`, `excludes`, namespace `aliases`, and the
 * `ns` alias of an included `default` task. Nothing is run: include paths with environment
 * variables or templates that need run-time values are reported, not guessed.
 */
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import {
  isMergeKey, parseYamlTree, resolveAlias, scalarOf, toPlain, YamlSyntaxError, type YamlDocument, type YamlMap, type YamlNode,
} from '../shared/yaml-tree.js'
import { envVar, isInside, realOrSelf } from '../shared/fs.js'
import { MAX_RECIPES, realRoot } from '../shared/guard.js'


/** The names go-task looks for, in its order (`DefaultTaskfiles` in go-task's `taskfile/taskfile.go`). */
export const TASKFILE_NAMES = [
  'Taskfile.yml', 'taskfile.yml', 'Taskfile.yaml', 'taskfile.yaml',
  'Taskfile.dist.yml', 'taskfile.dist.yml', 'Taskfile.dist.yaml', 'taskfile.dist.yaml',
] as const

export interface TaskDef {
  /** The name `task` accepts: `ns:name` for included tasks. */
  name: string
  /** The namespaces that lead to it, joined with `:`; empty at the root and for flattened includes. */
  scope: string
  desc: string
  aliases: string[]
  deps: string[]
  variables: string[]
  internal: boolean
  /** Absolute path of the Taskfile that defines it. */
  file: string
  line?: number
}

export interface TaskProblem {
  file: string
  line?: number
  message: string
  severity: 'error' | 'warning'
}

export interface ReadOptions {
  read: (abs: string) => string | undefined
  isFile: (abs: string) => boolean
  isDir: (abs: string) => boolean
  /** Directory relative paths in messages are shown against. */
  root: string
  maxDepth?: number
}

export interface ReadResult {
  tasks: TaskDef[]
  /** Absolute paths of every Taskfile read, each once, in reading order. */
  files: string[]
  problems: TaskProblem[]
}

/** The first repeated key of a mapping anywhere under `map`, except in the `ordered` maps (whose own keys may repeat). */
function duplicateKey(map: YamlMap, ordered: Set<YamlNode | undefined>): YamlNode | undefined {
  const stack: YamlNode[] = [map]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.kind === 'map') {
      const keys = new Set<unknown>()
      for (const { key, value } of node.pairs) {
        const k = key.kind === 'scalar' ? scalarOf(key) : key
        if (!ordered.has(node) && !isMergeKey(key)) {
          if (keys.has(k)) return key
          keys.add(k)
        }
        stack.push(value)
      }
    } else if (node.kind === 'seq') {
      stack.push(...node.items)
    }
  }
  return undefined
}

/** go-task's special variables: set by task itself, never `VAR=value` hints. */
const SPECIAL_VARS = new Set([
  'CLI_ARGS', 'CLI_ARGS_LIST', 'CLI_FORCE', 'CLI_SILENT', 'CLI_VERBOSE', 'CLI_OFFLINE', 'CLI_ASSUME_YES',
  'TASK', 'ALIAS', 'TASK_EXE', 'ROOT_TASKFILE', 'ROOT_DIR', 'TASKFILE', 'TASKFILE_DIR', 'TASK_DIR',
  'USER_WORKING_DIR', 'CHECKSUM', 'TIMESTAMP', 'TASK_VERSION', 'ITEM', 'EXIT_CODE', 'MATCH', 'OS', 'ARCH',
])

interface Include {
  namespace: string
  taskfile: string
  optional: boolean
  internal: boolean
  flatten: boolean
  aliases: string[]
  excludes: string[]
  line?: number
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

function strList(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  const out: string[] = []
  for (const v of value) {
    const s = str(v)
    if (s !== undefined) out.push(s)
  }
  return out
}

/** `taskNameWithNamespace` in go-task: a leading `:` means "from the root", no namespace added. */
function withNamespace(name: string, namespace: string): string {
  return name.startsWith(':') ? name.slice(1) : `${namespace}:${name}`
}

/** Template variables a command uses: `.NAME` inside `{{ ... }}`. */
function templateVariables(text: string, into: Set<string>): void {
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', open + 2)) {
    const close = text.indexOf('}}', open + 2)
    if (close === -1) return
    const action = text.slice(open + 2, close)
    for (const m of action.matchAll(/(?<![\w)\]])\.([A-Za-z_][A-Za-z0-9_]*)/g)) into.add(m[1]!)
  }
}

function commandTexts(cmds: unknown, out: string[]): void {
  const list = Array.isArray(cmds) ? cmds : cmds === undefined || cmds === null ? [] : [cmds]
  for (const c of list) {
    if (typeof c === 'string') out.push(c)
    else if (c && typeof c === 'object' && typeof (c as { cmd?: unknown }).cmd === 'string') out.push((c as { cmd: string }).cmd)
  }
}

/** Tasks the includes of one scan may produce (MAX_TASKS). */
export const MAX_TASKS = MAX_RECIPES
/** Include edges one scan merges (MAX_INCLUDE_EDGES). */
export const MAX_INCLUDE_EDGES = 2_000

export function readTaskfiles(rootFile: string, options: ReadOptions): ReadResult {
  return new TaskfileReader(rootFile, options).read()
}

/** A Taskfile's YAML tree and its top-level mapping. */
interface TaskfileTree {
  readonly doc: YamlDocument
  readonly top: YamlMap
}

/**
 * One read of a root Taskfile and everything it includes: load() reads a file once (its own tasks,
 * then each include merged in), and the problems, the files read and the caps on merging are shared.
 */
class TaskfileReader {
  private readonly rootFile: string
  private readonly options: ReadOptions
  private readonly maxDepth: number
  private readonly problems: TaskProblem[] = []
  private readonly files: string[] = []
  private readonly loaded = new Map<string, TaskDef[]>()
  // Every include copies the included tasks under its namespace, so a diamond of includes doubles
  // them at each level: the copies and the include edges of one scan are bounded.
  private made = 0
  private edges = 0
  private capReported = false

  constructor(rootFile: string, options: ReadOptions) {
    this.rootFile = rootFile
    this.options = options
    this.maxDepth = options.maxDepth ?? 32
  }

  read(): ReadResult {
    const rootTasks = this.load(this.rootFile, [this.rootFile])
    return { tasks: rootTasks, files: this.files, problems: this.problems }
  }

  private show(abs: string): string {
    return relative(this.options.root, abs).split(sep).join('/') || abs
  }

  private load(abs: string, stack: string[]): TaskDef[] {
    const problems = this.problems
    const cached = this.loaded.get(abs)
    if (cached) return cached
    const result: TaskDef[] = []
    this.loaded.set(abs, result)
    const text = this.options.read(abs)
    if (text === undefined) return result
    this.files.push(abs)
    const outside = !isInside(realOrSelf(abs), realRoot(this.options.root))
    const problemsBefore = problems.length
    try {
      this.loadInto(abs, text, result, stack)
    } finally {
      if (outside && problems.length > problemsBefore && problems.slice(problemsBefore).some((p) => p.file === abs && p.severity === 'error')) {
        // Outside the root, a file go-task refuses lists nothing (its text must not become tasks):
        // one diagnostic, at its first error.
        const first = problems.slice(problemsBefore).find((p) => p.file === abs && p.severity === 'error')!
        problems.splice(problemsBefore)
        const message = `this included Taskfile is outside the scanned directory and go-task refuses it: ${first.message}; none of its tasks are listed`
        problems.push({ ...first, message })
        result.length = 0
      }
    }
    return result
  }

  private loadInto(abs: string, text: string, result: TaskDef[], stack: string[]): TaskDef[] {
    const doc = this.parseDocument(abs, text)
    if (!doc) return result
    const top = this.topMapping(abs, doc)
    if (!top) return result
    const tree = { doc, top }
    this.checkVersion(abs, tree)
    const { fileVars, fileVarNames } = fileVariables(tree)
    // The command line overrides the root Taskfile's vars but not an included one's (go-task
    // pull request 1006), so an included file's own vars are no hints for its tasks.
    const fixedVars = abs === this.rootFile ? undefined : fileVarNames
    this.ownTasks(abs, tree, result, fixedVars)
    this.includes(abs, tree, result, stack, fileVars)
    return result
  }

  /** The YAML tree of one Taskfile; undefined (with a problem) when go-task can't read it. */
  private parseDocument(abs: string, text: string): YamlDocument | undefined {
    let doc: YamlDocument
    try {
      doc = parseYamlTree(text)
    } catch (error) {
      if (!(error instanceof YamlSyntaxError)) throw error
      const message = `YAML error: ${error.message}; go-task can't read this Taskfile until it is fixed`
      this.problems.push({ file: abs, ...(error.line ? { line: error.line } : {}), severity: 'error', message })
      return undefined
    }
    if (doc.documents > 1) {
      const message = `YAML error: the file holds ${doc.documents} documents (separated by ---); go-task can't read this Taskfile until it holds one`
      this.problems.push({ file: abs, line: 1, severity: 'error', message })
      return undefined
    }
    return doc
  }

  /** The top-level mapping, when it is one go-task takes (no repeated keys outside "tasks" and "includes"). */
  private topMapping(abs: string, doc: YamlDocument): YamlMap | undefined {
    const top = doc.contents
    if (top === undefined || (top.kind === 'scalar' && scalarOf(top) === null)) {
      const message = `the Taskfile is empty; go-task refuses it without a version: add version: '3' and a tasks mapping`
      this.problems.push({ file: abs, line: 1, severity: 'error', message })
      return undefined
    }
    if (top.kind !== 'map') {
      const message = 'a Taskfile must be a mapping with "version" and "tasks"; go-task rejects this file'
      this.problems.push({ file: abs, line: lineOf(doc, top), severity: 'error', message })
      return undefined
    }
    // go-task accepts a repeated key in "tasks" and "includes" (its ordered maps keep the first
    // position and the last value) and refuses one anywhere else.
    const orderedMaps = new Set<YamlNode | undefined>([resolveAlias(doc, field(top, 'tasks')?.value), resolveAlias(doc, field(top, 'includes')?.value)])
    const duplicate = duplicateKey(top, orderedMaps)
    if (duplicate) {
      const line = lineOf(doc, duplicate)
      const key = JSON.stringify(String(scalarOf(duplicate)))
      const message = `YAML error: Map keys must be unique (${key} is repeated); go-task can't read this Taskfile until it is fixed`
      this.problems.push({ file: abs, ...(line ? { line } : {}), severity: 'error', message })
      return undefined
    }
    return top
  }

  private checkVersion(abs: string, { doc, top }: TaskfileTree): void {
    const version = field(top, 'version')
    const versionValue = version ? scalarOf(resolveAlias(doc, version.value)) : undefined
    const versionText = versionValue === undefined || versionValue === null ? '' : String(versionValue)
    if (!version) {
      const message = `no "version" key; go-task refuses a Taskfile without one: add version: '3' at the top`
      this.problems.push({ file: abs, line: 1, severity: 'error', message })
    } else if (!/^3(\.|$)/.test(versionText)) {
      const message = `version ${JSON.stringify(versionText)} is not supported by go-task 3; `
        + "set version: '3' (and migrate the file if it was written for version 2)"
      this.problems.push({ file: abs, line: lineOf(doc, version.key), severity: 'error', message })
    }
  }

  /** The file's own tasks, in file order. */
  private ownTasks(abs: string, { doc, top }: TaskfileTree, result: TaskDef[], fixedVars: ReadonlySet<string> | undefined): void {
    const problems = this.problems
    const tasksField = field(top, 'tasks')
    const tasksNode = resolveAlias(doc, tasksField?.value)
    if (tasksField && tasksNode?.kind !== 'map' && !(tasksNode?.kind === 'scalar' && scalarOf(tasksNode) === null)) {
      const message = '"tasks" must be a mapping of task names to tasks; go-task rejects this file'
      problems.push({ file: abs, line: lineOf(doc, tasksNode ?? tasksField.value), severity: 'error', message })
      return
    }
    if (tasksNode?.kind !== 'map') return
    const seen = new Map<string, { index: number; line?: number }>()
    for (const pair of tasksNode.pairs) {
      const name = str(scalarOf(pair.key))
      const line = lineOf(doc, pair.key)
      const at = { file: abs, ...(line ? { line } : {}) }
      if (name === undefined || name === '') {
        problems.push({ ...at, severity: 'error', message: 'a task name must be a non-empty string; rename the task' })
        continue
      }
      const value = plain(doc, pair.value)
      const task = value === INVALID ? undefined : taskFrom(name, value, abs, line, fixedVars)
      if (!task) {
        const message = `task "${name}" must be a command string, a list of commands or a mapping; go-task rejects this file`
        problems.push({ ...at, severity: 'error', message })
        continue
      }
      const earlier = seen.get(name)
      if (earlier) {
        // go-task keeps the first position and the last definition.
        const message = `task "${name}" is defined twice (lines ${earlier.line} and ${line}); go-task uses this last definition, so remove or rename the other`
        problems.push({ ...at, severity: 'warning', message })
        result[earlier.index] = task
        earlier.line = line
        continue
      }
      seen.set(name, { index: result.length, ...(line ? { line } : {}) })
      result.push(task)
    }
  }

  /** Included Taskfiles, merged after the file's own tasks, in include order. */
  private includes(abs: string, { doc, top }: TaskfileTree, result: TaskDef[], stack: string[], fileVars: Map<string, string>): void {
    const problems = this.problems
    const includesField = field(top, 'includes')
    const includesNode = resolveAlias(doc, includesField?.value)
    if (includesField && includesNode?.kind !== 'map' && !(includesNode?.kind === 'scalar' && scalarOf(includesNode) === null)) {
      const message = '"includes" must be a mapping of namespaces to Taskfiles; go-task rejects this file'
      problems.push({ file: abs, line: lineOf(doc, includesNode ?? includesField.value), severity: 'error', message })
      return
    }
    if (includesNode?.kind !== 'map') return
    for (const pair of lastOfEachKey(includesNode.pairs)) {
      const include = includeFrom(pair.key, plain(doc, pair.value), lineOf(doc, pair.key))
      if (!include) {
        const message = 'an include must be a path or a mapping with "taskfile"; fix this entry'
        problems.push({ file: abs, line: lineOf(doc, pair.key), severity: 'error', message })
        continue
      }
      const target = this.resolveInclude(abs, include, fileVars)
      if (target === undefined) continue
      const at = { file: abs, ...(include.line ? { line: include.line } : {}) }
      if (stack.includes(target)) {
        const chain = [...stack.slice(stack.indexOf(target)), target].map((f) => this.show(f))
        problems.push({ ...at, severity: 'error', message: `include cycle ${chain.join(' -> ')}: go-task refuses cyclic includes; remove one of them` })
        continue
      }
      if (stack.length >= this.maxDepth) {
        problems.push({ ...at, severity: 'error', message: `include "${include.namespace}" is nested more than ${this.maxDepth} levels deep; not followed` })
        continue
      }
      this.merge(result, this.load(target, [...stack, target]), include, abs)
    }
  }

  private resolveInclude(from: string, include: Include, fileVars: Map<string, string>): string | undefined {
    const { problems, options } = this
    const where = { file: from, ...(include.line ? { line: include.line } : {}) }
    let path = include.taskfile.replace(/\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => fileVars.get(name) ?? whole)
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('git@')) {
      const message = `include "${include.namespace}" is a remote Taskfile (${path}); it is not fetched, so its tasks are not listed`
      problems.push({ ...where, severity: 'warning', message })
      return undefined
    }
    if (path.startsWith('~/')) path = join(envVar('HOME') || homedir(), path.slice(2))
    if (path.includes('{{') || path.includes('$')) {
      const message = `include "${include.namespace}" path ${JSON.stringify(include.taskfile)} needs values known only when task runs `
        + "(templates or environment variables); its tasks are not listed (write the path literally, or set the variable under the Taskfile's vars)"
      problems.push({ ...where, severity: 'warning', message })
      return undefined
    }
    const abs = isAbsolute(path) ? path : join(dirname(from), path)
    if (options.isFile(abs)) return abs
    if (options.isDir(abs)) {
      const found = pickTaskfile(abs, options)
      for (const name of found.shadowing) {
        const message = `include "${include.namespace}": ${this.show(join(abs, name))} is a directory, `
          + `and go-task takes it as the Taskfile of ${this.show(abs)} and fails; `
          + `rename it (the tasks listed are ${found.file ? this.show(found.file) : 'none'}'s)`
        problems.push({ ...where, severity: 'error', message })
      }
      if (found.file) return found.file
    }
    if (!include.optional) {
      const message = `included Taskfile ${JSON.stringify(include.taskfile)} (namespace "${include.namespace}") not found at ${this.show(abs)}; `
        + 'go-task stops here: fix the path, or add optional: true'
      problems.push({ ...where, severity: 'error', message })
    }
    return undefined
  }

  private capped(from: string, include: Include, message: string): void {
    if (!this.capReported) this.problems.push({ file: from, ...(include.line ? { line: include.line } : {}), severity: 'warning', message })
    this.capReported = true
  }

  /** go-task's `Tasks.Merge`: adds an included Taskfile's tasks to the parent's list. */
  private merge(into: TaskDef[], included: TaskDef[], include: Include, from: string): void {
    if (++this.edges > MAX_INCLUDE_EDGES) {
      const message = `the Taskfiles have more than ${MAX_INCLUDE_EDGES} includes (MAX_INCLUDE_EDGES); `
        + `include "${include.namespace}" and the rest are not merged`
      return this.capped(from, include, message)
    }
    const names = new Set(into.map((t) => t.name))
    const ns = include.namespace
    for (const task of included) {
      if (this.made >= MAX_TASKS) {
        const message = `the includes make more than ${MAX_TASKS} tasks (MAX_TASKS: a diamond of includes doubles them at every level); the rest are not listed`
        return this.capped(from, include, message)
      }
      if (include.excludes.includes(task.name)) continue
      const merged = mergedTask(task, include)
      if (names.has(merged.name)) {
        const message = `task "${merged.name}" from include "${ns}" is already defined; go-task refuses the Taskfile with a name conflict: `
          + `rename one of them${include.flatten ? ' or drop flatten: true' : ''}`
        this.problems.push({ file: from, ...(include.line ? { line: include.line } : {}), severity: 'error', message })
        continue
      }
      names.add(merged.name)
      into.push(merged)
      this.made++
    }
    // An included `default` task also answers to the bare namespace (and its aliases).
    if (!include.flatten && included.some((t) => t.name === 'default') && !names.has(ns) && !include.excludes.includes('default')) {
      const def = into.find((t) => t.name === `${ns}:default`)
      if (def) def.aliases.push(ns, ...include.aliases)
    }
  }
}

/** An included task as the including Taskfile sees it: under the include's namespace unless it flattens. */
function mergedTask(task: TaskDef, include: Include): TaskDef {
  const ns = include.namespace
  const merged: TaskDef = { ...task, aliases: [...task.aliases], deps: [...task.deps], internal: task.internal || include.internal }
  if (!include.flatten) {
    merged.deps = task.deps.map((d) => withNamespace(d, ns))
    merged.aliases = task.aliases.map((a) => withNamespace(a, ns))
    for (const nsAlias of include.aliases) {
      merged.aliases.push(withNamespace(task.name, nsAlias))
      for (const a of task.aliases) merged.aliases.push(withNamespace(a, nsAlias))
    }
    merged.name = withNamespace(task.name, ns)
    merged.scope = task.scope ? `${ns}:${task.scope}` : ns
  }
  return merged
}

/** A Taskfile's `vars`: the plain values (for include paths) and every name. */
function fileVariables({ doc, top }: TaskfileTree): { fileVars: Map<string, string>; fileVarNames: Set<string> } {
  const varsNode = resolveAlias(doc, field(top, 'vars')?.value)
  const fileVars = new Map<string, string>()
  const fileVarNames = new Set<string>()
  if (varsNode?.kind === 'map') {
    for (const p of varsNode.pairs) {
      const key = str(scalarOf(p.key))
      const value = str(scalarOf(resolveAlias(doc, p.value)))
      if (key !== undefined) fileVarNames.add(key)
      if (key !== undefined && value !== undefined) fileVars.set(key, value)
    }
  }
  return { fileVars, fileVarNames }
}

function lineOf(doc: YamlDocument, node: YamlNode | undefined): number | undefined {
  return node ? doc.lineAt(node.start) : undefined
}

function field(top: YamlMap, name: string): YamlMap['pairs'][number] | undefined {
  return top.pairs.find((p) => (p.key.kind === 'scalar' ? scalarOf(p.key) : p.key) === name)
}

/** A node's plain value; INVALID for alias bombs and broken aliases. */
function plain(doc: YamlDocument, node: YamlNode | undefined): unknown {
  try {
    return toPlain(doc, node)
  } catch {
    return INVALID
  }
}

/** The pairs with one per key: the last value at the first key's position, as go-task's ordered maps. */
function lastOfEachKey(pairs: YamlMap['pairs']): YamlMap['pairs'] {
  const at = new Map<unknown, number>()
  const out: Array<YamlMap['pairs'][number]> = []
  for (const pair of pairs) {
    const key = pair.key.kind === 'scalar' ? scalarOf(pair.key) : pair.key
    const index = at.get(key)
    if (index === undefined) at.set(key, out.push(pair) - 1)
    else out[index] = { key: out[index]!.key, value: pair.value }
  }
  return out
}

const INVALID = Symbol('invalid')

/**
 * The Taskfile go-task takes in a directory: the first default name that exists (`Exists` in
 * go-task stats the name, so a directory with that name wins and then fails to read). Returns the
 * first regular file, with the names of directories that come before it.
 */
export function pickTaskfile(dir: string, fs: Pick<ReadOptions, 'isFile' | 'isDir'>): { file?: string; shadowing: string[] } {
  const shadowing: string[] = []
  for (const name of TASKFILE_NAMES) {
    const path = join(dir, name)
    if (fs.isFile(path)) return { file: path, shadowing }
    if (fs.isDir(path)) shadowing.push(name)
  }
  return { shadowing }
}

function includeFrom(key: YamlNode, value: unknown, line: number | undefined): Include | undefined {
  const namespace = str(scalarOf(key))
  if (namespace === undefined) return undefined
  const base = { namespace, optional: false, internal: false, flatten: false, aliases: [], excludes: [], ...(line ? { line } : {}) }
  if (typeof value === 'string') return { ...base, taskfile: value }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const v = value as Record<string, unknown>
  const taskfile = str(v.taskfile)
  if (taskfile === undefined) return undefined
  return {
    ...base,
    taskfile,
    optional: v.optional === true,
    internal: v.internal === true,
    flatten: v.flatten === true,
    aliases: strList(v.aliases),
    excludes: strList(v.excludes),
  }
}

function taskFrom(name: string, value: unknown, file: string, line: number | undefined, fixedVars?: ReadonlySet<string>): TaskDef | undefined {
  const task: TaskDef = { name, scope: '', desc: '', aliases: [], deps: [], variables: [], internal: false, file, ...(line ? { line } : {}) }
  const cmds: string[] = []
  if (value === null) return task
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    cmds.push(String(value))
  } else if (Array.isArray(value)) {
    commandTexts(value, cmds)
  } else if (typeof value === 'object') {
    const v = value as Record<string, unknown>
    const desc = str(v.desc)?.trim()
    const summary = str(v.summary)?.split('\n').map((l) => l.trim()).find((l) => l !== '')
    task.desc = desc || summary || ''
    task.aliases = strList(v.aliases)
    task.internal = v.internal === true
    if (Array.isArray(v.deps)) {
      for (const d of v.deps) {
        const depName = typeof d === 'string' ? d : d && typeof d === 'object' ? str((d as { task?: unknown }).task) : undefined
        if (depName) task.deps.push(depName)
      }
    }
    commandTexts(v.cmds, cmds)
    commandTexts(v.cmd, cmds)
    const own = new Set(v.vars && typeof v.vars === 'object' && !Array.isArray(v.vars) ? Object.keys(v.vars) : [])
    const required = (v.requires as { vars?: unknown } | undefined)?.vars
    const variables = new Set<string>()
    if (Array.isArray(required)) {
      for (const r of required) {
        const n = typeof r === 'string' ? r : r && typeof r === 'object' ? str((r as { name?: unknown }).name) : undefined
        if (n) variables.add(n)
      }
    }
    const used = new Set<string>()
    for (const c of cmds) templateVariables(c, used)
    // A task's own vars win over command-line ones (go-task issue 850), so they are hints only
    // when their value reads the same name back, as in `FOO: '{{.FOO | default "x"}}'`.
    if (own.size > 0) {
      for (const [key, value] of Object.entries(v.vars as Record<string, unknown>)) {
        if (typeof value !== 'string') continue
        const refs = new Set<string>()
        templateVariables(value, refs)
        for (const r of refs) if (r === key || !own.has(r)) used.add(r)
        if (refs.has(key)) own.delete(key)
      }
    }
    for (const u of used) if (!own.has(u) && !SPECIAL_VARS.has(u) && !fixedVars?.has(u)) variables.add(u)
    task.variables = [...variables]
    return task
  } else {
    return undefined
  }
  const used = new Set<string>()
  for (const c of cmds) templateVariables(c, used)
  task.variables = [...used].filter((u) => !SPECIAL_VARS.has(u) && !fixedVars?.has(u))
  return task
}
