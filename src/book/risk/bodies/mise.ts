/**
 * What a mise task runs, as `mise run <task> -- <words>` would run it from the scan root: its
 * `depends` first (each task with the same arguments once per run, `"name args"` passing
 * arguments, `lint:*` patterns over the config tasks), its `run` entries in order (a string is a
 * shell line, a `#!` string a script, `{ task = … }` a call; the call's words go after the last
 * line, as mise appends them), or its `file`, or a file task's script (text-script.ts says how
 * each interpreter is shown), then `depends_post`. Lines run in the task's `dir` (default the
 * config root, the scan root here).
 */
import { isAbsolute, join } from 'node:path'
import type { Recipe } from '../../recipe.js'
import type { BodyContext, BodyReader, RecipeBody } from '../types.js'
import { BodyBuilder, concat, known, knownText, MAX_DEPTH, reason, relPath, render, shellJoin, unreadable, type LineAt, type Value } from './text-body.js'
import { fileHeaders, findMiseTask, matchingTasks, miseConfig, renderTera, table, type MiseConfig, type MiseTask } from './text-mise-config.js'
import { addScript, shebangWords } from './text-script.js'

interface Call {
  name: string
  args: string[]
}

/** A `depends` entry as calls: `"build --release"`, `["build", "--release"]`, `{ task, args }`. */
function dependsOf(v: unknown): Call[] {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : []
  const out: Call[] = []
  for (const d of list) {
    if (typeof d === 'string') {
      const words = d.trim().split(/\s+/).filter(Boolean)
      if (words.length) out.push({ name: words[0]!, args: words.slice(1) })
    } else if (Array.isArray(d) && typeof d[0] === 'string') out.push({ name: d[0], args: d.slice(1).map(String) })
    else if (typeof table(d)?.task === 'string') {
      const t = table(d)!
      out.push({ name: t.task as string, args: Array.isArray(t.args) ? t.args.map(String) : [] })
    }
  }
  return out
}

class MiseRun {
  readonly out = new BodyBuilder()
  readonly done = new Set<string>()
  constructor(readonly ctx: BodyContext, readonly config: MiseConfig) {}

  render(text: string): Value {
    return renderTera(text, this.ctx.root, this.config.vars)
  }
}

/** A task's fields: a config task's table (a string or list is its `run`), a file task's headers. */
function fields(task: MiseTask): Record<string, unknown> {
  if (typeof task.def === 'string' || Array.isArray(task.def)) return { run: task.def }
  return table(task.def) ?? {}
}

function taskDir(run: MiseRun, f: Record<string, unknown>): string {
  if (typeof f.dir !== 'string') return run.ctx.root
  const text = knownText(run.render(f.dir))
  if (text === undefined) return run.ctx.root
  return isAbsolute(text) ? text : join(run.ctx.root, text)
}

/** Calls the tasks a `depends` entry names (a pattern names every config task it matches). */
function callAll(run: MiseRun, calls: Call[], via: readonly string[], at: LineAt, stack: readonly string[]): void {
  for (const call of calls) {
    const pattern = /[*?]/.test(call.name)
    const targets = pattern ? matchingTasks(run.config, call.name) : [findMiseTask(run.ctx, run.config, call.name)].filter((t): t is MiseTask => !!t)
    if (targets.length === 0) {
      const why = pattern ? `no config task matches ${call.name} (file tasks are not matched by patterns here)` : `mise has no task ${call.name} here`
      run.out.addUnknown(`depends: ${call.name}`, why, at)
    }
    for (const t of targets) runTask(run, t, call.args, [...via, `mise run ${t.name}${call.args.length ? ` ${shellJoin(call.args)}` : ''}`], stack)
  }
}

function runTask(run: MiseRun, task: MiseTask, args: readonly string[], via: readonly string[], stack: readonly string[]): void {
  const key = [task.name, ...args].join('\0')
  const f = fields(task)
  const at: LineAt = { cwd: relPath(run.ctx.root, taskDir(run, f)), file: task.file, ...(task.line ? { line: task.line } : {}), via }
  // A cycle first: mise refuses the whole run, even where the task already ran.
  if (stack.includes(task.name)) return run.out.addUnknown(via[via.length - 1]!, `task ${task.name} depends on itself (a cycle); mise refuses it`, at)
  if (run.done.has(key) || !run.out.step(at)) return
  if (stack.length >= MAX_DEPTH) return run.out.addUnknown(via[via.length - 1]!, `dependencies nest more than ${MAX_DEPTH} deep; not followed`, at)
  run.done.add(key)
  const inner = [...stack, task.name]
  callAll(run, dependsOf(f.depends), via, at, inner)
  if (task.script !== undefined) fileScript(run, task.script, task.file, at, `file task ${task.name}`)
  else if (f.run === undefined && typeof f.file === 'string') fileScript(run, join(run.ctx.root, f.file), f.file, at, `task ${task.name}'s file`)
  else runEntries(run, f.run, args, at, inner, typeof f.shell === 'string' ? f.shell.trim().split(/\s+/) : undefined)
  callAll(run, dependsOf(f.depends_post), via, at, inner)
}

/** A script file the task runs whole. */
function fileScript(run: MiseRun, abs: string, rel: string, at: LineAt, what: string): void {
  const text = run.ctx.read(abs)
  if (text === undefined) return run.out.addUnknown(rel, `${what} (${rel}) can't be read here`, at)
  addScript(run.out, text, shebangWords(text), { ...at, file: relPath(run.ctx.root, abs), line: 1 }, what)
}

/**
 * The `run` entries: lines, scripts and task calls; the words go after the last line. A task's
 * `shell` (`"python3 -c"`, `"bash -c"`) is the interpreter of every line.
 */
function runEntries(run: MiseRun, value: unknown, args: readonly string[], at: LineAt, stack: readonly string[], shell?: string[]): void {
  const entries = typeof value === 'string' ? [value] : Array.isArray(value) ? value : []
  const lastLine = entries.map((e) => typeof e === 'string').lastIndexOf(true)
  entries.forEach((entry, i) => {
    if (typeof entry === 'string') {
      const usesArgs = /\{\{\s*(arg|option|flag)\(/.test(entry)
      const withArgs = i === lastLine && args.length && !usesArgs ? concat(run.render(entry), known(` ${shellJoin(args)}`)) : run.render(entry)
      if (entry.startsWith('#!') || shell) {
        addScript(run.out, render(withArgs), entry.startsWith('#!') ? shebangWords(entry) : shell, at, 'a run script')
        if (knownText(withArgs) === undefined) run.out.addUnknown(entry, 'mise renders parts of this script when it runs', at)
      } else run.out.addValue(withArgs, entry, at)
      return
    }
    const t = table(entry)
    const listed = typeof t?.task === 'string' ? [t.task] : Array.isArray(t?.tasks) ? t.tasks : []
    const names = listed.filter((x): x is string => typeof x === 'string')
    callAll(run, names.map((n) => dependsOf(n)[0]!).filter(Boolean), at.via, at, stack)
  })
}

/** The recipe's own file says which definition it is: a config file's [tasks], or a file task's script. */
function targetTask(ctx: BodyContext, config: MiseConfig, recipe: Recipe): MiseTask | undefined {
  if (recipe.file.endsWith('.toml')) return config.tasks.get(recipe.name) ?? findMiseTask(ctx, config, recipe.name)
  const script = join(ctx.root, recipe.file)
  const text = ctx.read(script)
  if (text === undefined) return findMiseTask(ctx, config, recipe.name)
  return { name: recipe.name, def: fileHeaders(text), file: recipe.file, line: 1, script }
}

function readMise(recipe: Recipe, ctx: BodyContext, words: readonly string[]): RecipeBody {
  const via = [`mise run ${recipe.name}`]
  const config = miseConfig(ctx)
  const run = new MiseRun(ctx, config)
  const task = targetTask(ctx, config, recipe)
  if (!task) return unreadable(recipe.command, `mise's task ${recipe.name} could not be read`, recipe.file, via, recipe.line)
  const dash = words.indexOf('--')
  runTask(run, task, dash === -1 ? words : [...words.slice(0, dash), ...words.slice(dash + 1)], via, [])
  return run.out.result()
}

export const readMiseBody: BodyReader = (recipe, ctx, args) => {
  try {
    return readMise(recipe, ctx, args)
  } catch (error) {
    return unreadable(recipe.command, `mise's tasks could not be read (${reason(error)})`, recipe.file, [`mise run ${recipe.name}`], recipe.line)
  }
}
