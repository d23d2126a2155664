/**
 * What an nx recipe runs (`nx run <project>:<target>`, see src/collectors/nx/collect.ts), with the target
 * resolved as Nx resolves it (json-nx-target.ts): its `dependsOn` targets of the same project first
 * (followed, each once), then what its executor runs. `nx:run-commands` runs `command` or
 * `commands` (strings or `{ command }`) in `options.cwd` (relative to the workspace root; the call's
 * words, which Nx forwards, the judge appends); `nx:run-script` runs the package.json
 * script (json-package.ts); `nx:noop` nothing. Any other executor is plugin code with no shell
 * body: nothing to read, unless its options hold a command, which is then unknown. `^target`
 * (the dependencies' targets) needs the project graph, which is not read: unknown; a target of a
 * named other project stays a line (`nx run other:target`) for the judge to follow.
 */
import { preview } from '../../../collectors/shared/guard.js'
import { boundedMatcher } from '../../../collectors/shared/globs.js'
import { isRecord } from '../../../collectors/shared/json-text.js'
import type { BodyContext, BodyReader } from '../types.js'
import { BodyBuilder, dirOf, insideRel } from './json-body.js'
import { readProject, resolveTarget, targetNames, type Json, type NxProject, type ResolvedTarget } from './json-nx-target.js'
import { readPackage, runScript } from './json-package.js'

const RUN_COMMANDS = new Set(['nx:run-commands', '@nx/workspace:run-commands', '@nrwl/workspace:run-commands'])
const RUN_SCRIPT = new Set(['nx:run-script', '@nrwl/workspace:run-script'])

interface NxRun {
  readonly ctx: BodyContext
  readonly body: BodyBuilder
  readonly project: NxProject
  /** The configuration asked for (`--configuration x`), tried on every target that has it. */
  readonly configuration?: string
}

export const readNxBody: BodyReader = (recipe, ctx, args) => {
  const body = new BodyBuilder()
  const target = recipe.name.slice(recipe.name.lastIndexOf(':') + 1)
  const name = recipe.scope ?? recipe.name.slice(0, recipe.name.lastIndexOf(':'))
  const call = callOptions(args)
  const run: NxRun = { ctx, body, project: readProject(ctx, dirOf(recipe.file), name), ...(call.configuration ? { configuration: call.configuration } : {}) }
  if (!runTarget(run, target, [recipe.command])) {
    const why = `${recipe.file} no longer has the target "${target}" (or can't be read)`
    body.part({ text: recipe.description, file: recipe.file, why, via: [recipe.command] })
  }
  return body.result()
}

/** The call's `--configuration`/`-c` (Nx's own option), which picks the options the commands get. */
function callOptions(args: readonly string[]): { configuration?: string } {
  let configuration: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const inline = /^(?:--configuration|-c)=(.*)$/.exec(a)
    if (inline) configuration = inline[1]
    else if ((a === '--configuration' || a === '-c') && i + 1 < args.length) configuration = args[++i]
  }
  return configuration !== undefined ? { configuration } : {}
}

/** Runs a target of the project; false when no file of the project writes it. */
function runTarget(run: NxRun, name: string, via: readonly string[]): boolean {
  const target = resolveTarget(run.project, name)
  if (target === undefined) return false
  if (!run.body.enter(`nx:${run.project.dir}:${name}`, via, target.file)) return true
  for (const dep of Array.isArray(target.def.dependsOn) ? target.def.dependsOn : []) runDependency(run, dep, target, via)
  const def = configured(target.def, run.configuration)
  const executor = typeof def.executor === 'string' ? def.executor : undefined
  const options = isRecord(def.options) ? def.options : {}
  if (executor === undefined || executor === 'nx:noop') return true // Nx drops a target without an executor
  if (RUN_COMMANDS.has(executor)) runCommands(run, options, target, via)
  else if (RUN_SCRIPT.has(executor)) runScriptTarget(run, options, target, via)
  else pluginTarget(run, executor, options, target, via)
  return true
}

/** The options with the asked (or default) configuration's options over them. */
function configured(def: Json, asked: string | undefined): Json {
  const configurations = isRecord(def.configurations) ? def.configurations : {}
  const fallback = typeof def.defaultConfiguration === 'string' ? def.defaultConfiguration : undefined
  const name = asked !== undefined && Object.hasOwn(configurations, asked) ? asked : fallback
  const extra = name !== undefined && Object.hasOwn(configurations, name) ? configurations[name] : undefined
  return isRecord(extra) ? { ...def, options: { ...(isRecord(def.options) ? def.options : {}), ...extra } } : def
}

function runCommands(run: NxRun, options: Json, target: ResolvedTarget, via: readonly string[]): void {
  const at = { file: target.file, ...(target.line !== undefined ? { line: target.line } : {}) }
  const cwd = typeof options.cwd === 'string' ? insideRel(run.ctx.root, '.', options.cwd) : '.'
  const list = Array.isArray(options.commands) ? options.commands : typeof options.command === 'string' ? [options.command] : []
  for (const item of list) {
    const command = typeof item === 'string' ? item : isRecord(item) && typeof item.command === 'string' ? item.command : undefined
    if (command === undefined) continue // Nx refuses such an entry before running anything
    const text = command
    if (cwd === undefined) {
      run.body.part({ text, ...at, why: `it runs in ${preview(String(options.cwd), 80)}, outside the workspace`, via })
      continue
    }
    run.body.line({ text, cwd, ...at, via })
    const args = [...text.matchAll(/\{args\.([^}]+)\}/g)].map((m) => m[0])
    const named = [...new Set(args)].slice(0, 3)
    const why = `${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} filled in from the call's options when it runs`
    if (named.length > 0) run.body.part({ text, ...at, why, via })
  }
}

function runScriptTarget(run: NxRun, options: Json, target: ResolvedTarget, via: readonly string[]): void {
  const script = typeof options.script === 'string' ? options.script : undefined
  const pkg = readPackage(run.ctx, run.project.dir)
  const at = { file: target.file, ...(target.line !== undefined ? { line: target.line } : {}) }
  if (script === undefined) {
    run.body.part({ text: '', ...at, why: 'an nx:run-script target without a script name', via })
    return
  }
  const step = [...via, `npm run ${script}`]
  if (pkg !== undefined && !('error' in pkg) && runScript({ ctx: run.ctx, body: run.body, call: 'npm run' }, pkg, script, step)) return
  const why = pkg === undefined || 'error' in pkg ? `the project's package.json can't be read` : `${pkg.file} has no script "${preview(script, 60)}"`
  run.body.part({ text: `npm run ${script}`, ...at, why, via: step })
}

function pluginTarget(run: NxRun, executor: string, options: Json, target: ResolvedTarget, via: readonly string[]): void {
  const held = [options.command, ...(Array.isArray(options.commands) ? options.commands : [])]
    .map((c) => (typeof c === 'string' ? c : isRecord(c) && typeof c.command === 'string' ? c.command : undefined))
    .filter((c): c is string => c !== undefined)
  for (const text of held) {
    const why = `the executor ${preview(executor, 60)} is plugin code that decides what to do with this command`
    run.body.part({ text, file: target.file, ...(target.line !== undefined ? { line: target.line } : {}), why, via })
  }
}

/** One `dependsOn` entry: a target of this project, `^target`, or `{ target, projects, dependencies }`. */
function runDependency(run: NxRun, dep: unknown, from: ResolvedTarget, via: readonly string[]): void {
  const at = { file: from.file, ...(from.line !== undefined ? { line: from.line } : {}) }
  const entry = typeof dep === 'string' ? { target: dep.startsWith('^') ? dep.slice(1) : dep, dependencies: dep.startsWith('^') } : isRecord(dep) ? dep : {}
  const target = typeof entry.target === 'string' ? entry.target : undefined
  if (target === undefined) return
  const projects = typeof entry.projects === 'string' ? [entry.projects] : Array.isArray(entry.projects) ? entry.projects : undefined
  if (entry.dependencies === true || projects?.some((p) => p === '{dependencies}' || p === 'dependencies')) {
    run.body.part({ text: `^${target}`, ...at, why: `it runs ${target} in every project this one depends on, and the project graph is not read`, via })
    return
  }
  const others = (projects ?? []).filter((p) => p !== 'self' && p !== '{self}')
  if (projects === undefined || others.length < projects.length) sameProject(run, target, from, via)
  for (const p of others) otherProject(run, p, target, from, via)
}

function sameProject(run: NxRun, target: string, from: ResolvedTarget, via: readonly string[]): void {
  const names = /[*?[{]/.test(target) ? targetNames(run.project).filter(boundedMatcher([target]).match) : [target]
  for (const name of names) {
    const step = [...via, `nx run ${run.project.name}:${name}`]
    if (runTarget(run, name, step)) continue
    const why = `the target ${preview(name, 60)} is not written in the project's files; a plugin may infer it`
    run.body.part({ text: name, file: from.file, ...(from.line !== undefined ? { line: from.line } : {}), why, via })
  }
}

function otherProject(run: NxRun, project: unknown, target: string, from: ResolvedTarget, via: readonly string[]): void {
  const at = { file: from.file, ...(from.line !== undefined ? { line: from.line } : {}) }
  if (typeof project !== 'string' || !/^[A-Za-z0-9@._/-]+$/.test(project) || project.startsWith('tag:')) {
    run.body.part({ text: `${String(project)}:${target}`, ...at, why: 'it names projects by a pattern or tag, and the project graph is not read', via })
    return
  }
  run.body.line({ text: `nx run ${project}:${target}`, cwd: '.', ...at, via })
}
