/**
 * What a Taskfile task runs, as `task <name> <words>` would run it from the scan root (go-task v3):
 * the `sh:` commands of the variables it evaluates, its `deps` first, its `preconditions` and
 * `status` checks, its `cmds` (strings, `{cmd}`, `{task}` calls followed with their vars, `for`
 * loops, `platforms` filters for this system), then its `defer`s in reverse. Templates are expanded
 * from the static variables in go-task's order: the Taskfiles' merged globals with the call's
 * `VAR=value` words over them, the include's vars, the vars of the file that includes it (as
 * go-task's merge hands them over), the caller's vars, the task's vars. Words after `--` are `CLI_ARGS`; other words name further tasks, as go-task
 * reads them. Each line runs in the task's `dir` (joined to its include's `dir`).
 */
import { dirname, isAbsolute, join } from 'node:path'
import type { Recipe } from '../../recipe.js'
import type { BodyContext, BodyReader, RecipeBody } from '../types.js'
import { BodyBuilder, holes, knownText, MAX_DEPTH, reason, relPath, render, shellJoin, unreadable, type LineAt, type Value } from './text-body.js'
import { goText, renderTemplate, type TaskVar, type TemplateVars } from './text-gotemplate.js'
import { findTask, isMap, mergedVars, rootTaskfile, staticVars, str, strList, type FoundTask, type Taskfile } from './text-taskfile.js'

type Scope = Map<string, TaskVar>
type Def = Record<string, unknown>

const GO_OS = process.platform === 'win32' ? 'windows' : process.platform
const GO_ARCH = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch

/** Whether a `platforms` list lets a task or command run here (`linux`, `amd64`, `linux/amd64`). */
function onThisPlatform(list: unknown): boolean {
  const wanted = strList(list)
  if (!Array.isArray(list) || wanted.length === 0) return true
  return wanted.some((p) => {
    const [os, arch] = p.split('/')
    return arch !== undefined ? os === GO_OS && arch === GO_ARCH : p === GO_OS || p === GO_ARCH
  })
}

/** A task's definition as a mapping (a string or list is its `cmds`). */
function normalize(def: unknown): Def {
  if (typeof def === 'string' || typeof def === 'number' || typeof def === 'boolean') return { cmds: [String(def)] }
  if (Array.isArray(def)) return { cmds: def }
  return isMap(def) ? def : {}
}

const lookup = (scope: Scope): TemplateVars => (name) => scope.get(name)

/** One `task …` invocation being read. */
class TaskRun {
  readonly out = new BodyBuilder()
  readonly globals: Scope = new Map()
  /** Tasks already run, for `run: once` (by name) and `run: when_changed` (by name and vars). */
  readonly ranOnce = new Set<string>()
  /** `sh:` commands already reported (go-task runs each once and caches it). */
  readonly #ran = new Set<string>()

  constructor(readonly ctx: BodyContext, readonly root: Taskfile, readonly cliArgs: readonly string[]) {}

  /** Evaluates variable definitions in order into `scope`; an `sh:` one reports its command. */
  evalVars(defs: ReadonlyArray<[string, unknown]>, scope: Scope, at: LineAt): void {
    for (const [name, raw] of defs) {
      if (this.out.full) return
      scope.set(name, this.evalVar(name, raw, scope, at))
    }
  }

  evalVar(name: string, raw: unknown, scope: Scope, at: LineAt): TaskVar {
    if (typeof raw === 'string') return asVar(renderTemplate(raw, lookup(scope), name), name, `${name}: ${raw}`)
    if (raw === null || raw === undefined) return { plain: '' }
    if (!isMap(raw)) return { plain: raw }
    if (raw.sh !== undefined) {
      const command = renderTemplate(str(raw.sh) ?? '', lookup(scope), name)
      this.sh(command, str(raw.sh) ?? '', at)
      return { hole: { hole: name, why: `go-task runs \`${render(command)}\` to set ${name}`, source: `${name}: {sh: ${str(raw.sh)}}` } }
    }
    if (raw.ref !== undefined) {
      const m = /^\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(str(raw.ref) ?? '')
      return (m && scope.get(m[1]!)) || { hole: { hole: name, why: `go-task resolves the reference ${str(raw.ref)} when it runs` } }
    }
    if (raw.map !== undefined) return { plain: raw.map }
    if (raw.value !== undefined) return { plain: raw.value }
    return { plain: raw }
  }

  sh(command: Value, raw: string, at: LineAt): void {
    const key = `${at.cwd}\0${render(command)}`
    if (this.#ran.has(key)) return
    this.#ran.add(key)
    this.out.addValue(command, raw, at)
  }
}

function asVar(value: Value, name: string, source: string): TaskVar {
  const text = knownText(value)
  if (text !== undefined) return { plain: text }
  const first = holes(value)[0]!
  return { hole: { hole: name, why: first.why, source: first.source ? `${source}\n${first.source}` : source } }
}

/**
 * The directory of a task: its own `dir`, joined (while relative) to the directory of each mapping
 * include that leads to it, innermost first (the include's `dir`, else the including file's
 * directory), then to the root (go-task's `Tasks.Merge` and compiler).
 */
function taskDir(run: TaskRun, found: FoundTask, def: Def, scope: Scope): { abs: string; unknown?: string } {
  const own = str(def.dir) ?? ''
  let unknown: string | undefined
  let dir = ''
  if (own !== '') {
    const text = knownText(renderTemplate(own, lookup(scope), 'dir'))
    if (text === undefined) unknown = own
    else dir = text
  }
  for (const step of [...found.chain].reverse()) {
    if (!step.decl.advanced || isAbsolute(dir)) continue
    const from = dirname(step.from.abs)
    const incDir = step.decl.dir ? renderStatic(step.decl.dir, staticVars(step.from)) : ''
    dir = join(isAbsolute(incDir) ? incDir : join(from, incDir), dir)
  }
  return { abs: isAbsolute(dir) ? dir : join(run.ctx.root, dir), ...(unknown !== undefined ? { unknown } : {}) }
}

/** `{{.VAR}}` in an include's `dir`, from the including file's static vars. */
function renderStatic(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => vars.get(name) ?? whole)
}

/** The variables go-task sets itself for a task. */
function specialVars(run: TaskRun, found: FoundTask, scope: Scope): void {
  const set = (k: string, v: unknown) => scope.set(k, { plain: v })
  set('TASK', found.name)
  set('ALIAS', found.name)
  set('ROOT_DIR', run.ctx.root)
  set('ROOT_TASKFILE', run.root.abs)
  set('TASKFILE', found.file.abs)
  set('TASKFILE_DIR', dirname(found.file.abs))
  set('USER_WORKING_DIR', run.ctx.root)
  set('TASK_EXE', 'task')
  set('CLI_ARGS', shellJoin(run.cliArgs))
  set('CLI_ARGS_LIST', [...run.cliArgs])
  for (const flag of ['CLI_FORCE', 'CLI_SILENT', 'CLI_VERBOSE', 'CLI_OFFLINE', 'CLI_ASSUME_YES']) set(flag, false)
}

/** The scope a task's templates read, in go-task's order. */
function taskScope(run: TaskRun, found: FoundTask, def: Def, callVars: Scope, at: LineAt): Scope {
  const scope: Scope = new Map(run.globals)
  specialVars(run, found, scope)
  for (const step of [...found.chain].reverse()) if (step.decl.advanced) run.evalVars(step.decl.vars, scope, at)
  // The "included Taskfile vars" are the vars of the file that holds the outermost mapping
  // include, with its own includes' vars merged in (`Taskfile.Merge` hands `t1.Vars` over).
  const outer = found.chain.find((step) => step.decl.advanced)
  if (outer) run.evalVars(mergedVars(run.ctx, outer.from), scope, at)
  for (const [k, v] of callVars) scope.set(k, v)
  run.evalVars(isMap(def.vars) ? Object.entries(def.vars) : [], scope, at)
  return scope
}

/**
 * The full name a call inside a task names: go-task's `taskNameWithNamespace` at each include
 * that is not flattened, innermost first (`:x` drops its colon there instead of taking the
 * namespace; a name never namespaced keeps its colon, and names no task).
 */
function callName(found: FoundTask, name: string): string {
  let out = name
  for (const step of [...found.chain].reverse()) {
    if (step.decl.flatten) continue
    out = out.startsWith(':') ? out.slice(1) : `${step.decl.namespace}:${out}`
  }
  return out
}

/** A call's `vars`, templated in the caller's scope. */
function callVarsOf(run: TaskRun, vars: unknown, scope: Scope, at: LineAt): Scope {
  const out: Scope = new Map()
  const callerScope: Scope = new Map(scope)
  for (const [k, raw] of isMap(vars) ? Object.entries(vars) : []) out.set(k, run.evalVar(k, raw, callerScope, at))
  return out
}

/** The items a `for` walks, or undefined when they are known only at run time. */
function forItems(spec: unknown, scope: Scope): unknown[] | undefined {
  if (Array.isArray(spec)) return spec
  if (!isMap(spec) || typeof spec.var !== 'string') return undefined
  const v = scope.get(spec.var)
  if (!v || 'hole' in v) return undefined
  if (Array.isArray(v.plain)) return v.plain
  const text = goText(v.plain)
  return typeof spec.split === 'string' ? text.split(spec.split) : text.split(/\s+/).filter(Boolean)
}

/** Runs one task: go-task's `RunTask`, read statically. */
function runTask(run: TaskRun, found: FoundTask, callVars: Scope, via: readonly string[], stack: readonly string[]): void {
  const def = normalize(found.def)
  if (!onThisPlatform(def.platforms) || run.out.full) return
  const own = found.file.lines.get(found.key)
  const base: LineAt = { cwd: '.', file: found.file.rel, ...(own ? { line: own.line } : {}), via }
  if (!run.out.step(base)) return
  if (stack.includes(found.name)) return run.out.addUnknown(via[via.length - 1]!, `task ${found.name} calls itself (a cycle); not followed`, base)
  if (stack.length >= MAX_DEPTH) return run.out.addUnknown(via[via.length - 1]!, `task calls nest more than ${MAX_DEPTH} deep; not followed`, base)
  // `sh:` variables run before the task's templates are known: in its dir as written, when literal.
  const literalDir = typeof def.dir === 'string' && !def.dir.includes('{{') ? def.dir : undefined
  const early: LineAt = { ...base, cwd: relPath(run.ctx.root, taskDir(run, found, { dir: literalDir }, new Map()).abs) }
  if (def.run === 'once' || def.run === 'when_changed') {
    const vars = [...callVars].map(([k, v]) => `${k}=${'plain' in v ? goText(v.plain) : v.hole.hole}`)
    const key = def.run === 'once' ? found.name : [found.name, ...vars].join('\0')
    if (run.ranOnce.has(key)) return
    run.ranOnce.add(key)
  }
  const scope = taskScope(run, found, def, callVars, early)
  const dir = taskDir(run, found, def, scope)
  scope.set('TASK_DIR', { plain: dir.abs })
  const at: LineAt = { ...base, cwd: relPath(run.ctx.root, dir.abs) }
  if (dir.unknown !== undefined) {
    run.out.addUnknown(`dir: ${dir.unknown}`, "go-task picks the directory of this task at run time; its lines are shown in the include's directory", at)
  }
  const inner = [...stack, found.name]
  for (const [k, raw] of isMap(def.env) ? Object.entries(def.env) : []) if (isMap(raw) && raw.sh !== undefined) run.evalVar(k, raw, new Map(scope), at)
  for (const dep of Array.isArray(def.deps) ? def.deps : []) {
    const name = typeof dep === 'string' ? dep : isMap(dep) ? str(dep.task) : undefined
    if (name !== undefined) callTask(run, found, name, isMap(dep) ? dep.vars : undefined, scope, at, inner)
  }
  for (const p of Array.isArray(def.preconditions) ? def.preconditions : []) {
    const text = typeof p === 'string' ? p : isMap(p) ? str(p.sh) : undefined
    if (text !== undefined) run.out.addValue(renderTemplate(text, lookup(scope)), text, at)
  }
  for (const s of strList(def.status)) run.out.addValue(renderTemplate(s, lookup(scope)), s, at)
  const cmds = Array.isArray(def.cmds) ? def.cmds : def.cmds !== undefined ? [def.cmds] : def.cmd !== undefined ? [def.cmd] : []
  const defers: Array<[unknown, LineAt]> = []
  cmds.forEach((cmd, i) => {
    const lineAt = own?.cmds[i] !== undefined ? { ...at, line: own.cmds[i] } : at
    if (isMap(cmd) && cmd.defer !== undefined) defers.unshift([cmd.defer, lineAt])
    else runCmd(run, found, cmd, scope, lineAt, inner)
  })
  for (const [d, lineAt] of defers) runCmd(run, found, d, scope, lineAt, inner)
}

/** One `cmds` entry: a line, a `{cmd}`, or a `{task}` call, with its `for` loop and `platforms`. */
function runCmd(run: TaskRun, found: FoundTask, cmd: unknown, scope: Scope, at: LineAt, stack: readonly string[]): void {
  if (typeof cmd === 'string' || typeof cmd === 'number' || typeof cmd === 'boolean') {
    return run.out.addValue(renderTemplate(String(cmd), lookup(scope)), String(cmd), at)
  }
  if (!isMap(cmd) || !onThisPlatform(cmd.platforms)) return
  const once = (s: Scope) => {
    if (typeof cmd.task === 'string') callTask(run, found, cmd.task, cmd.vars, s, at, stack)
    else if (cmd.cmd !== undefined) run.out.addValue(renderTemplate(goText(cmd.cmd), lookup(s)), goText(cmd.cmd), at)
  }
  if (cmd.for === undefined) return once(scope)
  const items = forItems(cmd.for, scope)
  const as = isMap(cmd.for) && typeof cmd.for.as === 'string' ? cmd.for.as : 'ITEM'
  if (!items) {
    const text = typeof cmd.task === 'string' ? `task: ${cmd.task}` : goText(cmd.cmd)
    run.out.addUnknown(text, `go-task finds the items of this for loop (${JSON.stringify(cmd.for)}) when it runs`, at)
    return once(new Map(scope).set(as, { hole: { hole: as, why: 'an item of a for loop known only when go-task runs' } }))
  }
  for (const item of items.slice(0, 1_000)) once(new Map(scope).set(as, { plain: item }))
}

function callTask(run: TaskRun, found: FoundTask, name: string, vars: unknown, scope: Scope, at: LineAt, stack: readonly string[]): void {
  const rendered = renderTemplate(name, lookup(scope))
  const text = knownText(rendered)
  const target = text !== undefined ? findTask(run.ctx, run.root, callName(found, text)) : undefined
  if (!target) {
    const why = text === undefined ? 'go-task picks the task to call at run time' : `task ${callName(found, text)} is not defined in these Taskfiles`
    run.out.addUnknown(`task: ${name}`, why, at)
    return
  }
  runTask(run, target, callVarsOf(run, vars, scope, at), [...at.via, `task ${target.name}`], stack)
}

/** go-task's command line: task names, `VAR=value` words, and what follows `--` (CLI_ARGS). */
function commandLine(words: readonly string[]): { tasks: string[]; vars: Array<[string, string]>; cliArgs: string[]; flags: string[] } {
  const dash = words.indexOf('--')
  const before = dash === -1 ? words : words.slice(0, dash)
  const out = { tasks: [] as string[], vars: [] as Array<[string, string]>, cliArgs: dash === -1 ? [] : words.slice(dash + 1), flags: [] as string[] }
  for (const w of before) {
    const eq = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w)
    if (eq) out.vars.push([eq[1]!, eq[2]!])
    else if (w.startsWith('-')) out.flags.push(w)
    else out.tasks.push(w)
  }
  return out
}

function readTask(recipe: Recipe, ctx: BodyContext, words: readonly string[]): RecipeBody {
  const via = [`task ${recipe.name}`]
  const root = rootTaskfile(ctx)
  if (!root) return unreadable(recipe.command, 'the Taskfile could not be read', recipe.file, via, recipe.line)
  if (root.problem) return unreadable(recipe.command, root.problem, recipe.file, via, recipe.line)
  const line = commandLine(words)
  const run = new TaskRun(ctx, root, line.cliArgs)
  const top: LineAt = { cwd: '.', file: root.rel, via }
  for (const flag of line.flags) {
    if (!/^-(d|t|g)$|^--(dir|taskfile|global)\b/.test(flag)) continue
    run.out.addUnknown(`task ${flag}`, `go-task's ${flag} flag changes which Taskfile or directory it runs; not read`, top)
  }
  run.evalVars(root.env, run.globals, top)
  // The command line's VAR=value words replace the globals' definitions in place (go-task's ordered
  // Vars.Merge), so a global defined from one of them sees the new value.
  const globals = new Map<string, unknown>(mergedVars(ctx, root))
  for (const [k, v] of line.vars) globals.set(k, v)
  run.evalVars([...globals], run.globals, top)
  for (const name of [recipe.name, ...line.tasks]) {
    const found = findTask(ctx, root, name)
    const at: LineAt = { ...top, via: [`task ${name}`] }
    if (!found) {
      run.out.addUnknown(`task ${name}`, `task ${name} is not defined in these Taskfiles`, at)
      continue
    }
    runTask(run, found, new Map(), at.via, [])
  }
  return run.out.result()
}

export const readTaskBody: BodyReader = (recipe, ctx, args) => {
  try {
    return readTask(recipe, ctx, args)
  } catch (error) {
    return unreadable(recipe.command, `the Taskfile could not be read (${reason(error)})`, recipe.file, [`task ${recipe.name}`], recipe.line)
  }
}
