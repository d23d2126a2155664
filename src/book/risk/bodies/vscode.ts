/**
 * What a vscode recipe runs (a task of `.vscode/tasks.json`, JSONC, see src/collectors/vscode/collect.ts), as
 * VS Code would run it on this platform: its `dependsOn` tasks first (a label, a list, or task
 * identifiers such as `{ "type": "npm", "script": "build" }`; followed by label, each once; the
 * order of parallel dependencies does not matter to the gate), then its command: a `shell` task's
 * command and args as the shell gets them, a `process` task's words, built by json-vscode-line.ts
 * in `options.cwd`, with the `linux`/`osx`/`windows` overrides for `process.platform`. An `npm`
 * task runs the package.json script at its `path` (json-package.ts). Tasks of other types come
 * from extensions, whose code decides what runs: unknown.
 */
import { basename } from 'node:path'
import { preview } from '../../../collectors/shared/guard.js'
import { isRecord } from '../../../collectors/shared/json-text.js'
import type { BodyContext, BodyReader } from '../types.js'
import { BodyBuilder, insideRel } from './json-body.js'
import { items, lineOfNode, plain, prop, readJsonDoc, str, type JsonDoc, type Node } from './json-doc.js'
import { readPackage, runScript } from './json-package.js'
import { processLine, shellLine, substitute, substituteCommand, type CommandString, type Substitution } from './json-vscode-line.js'

const SOURCE = 'vscode'
const FILE = '.vscode/tasks.json'
const HOST_KEY = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux'

type Json = Record<string, unknown>

interface TasksRun {
  readonly ctx: BodyContext
  readonly body: BodyBuilder
  readonly doc: JsonDoc
  /** Tasks by label, the first of a repeated label (VS Code runs that one). */
  readonly tasks: ReadonlyMap<string, Node>
  readonly globalOptions: Json
}

export const readVscodeBody: BodyReader = (recipe, ctx) => {
  const body = new BodyBuilder()
  const via = [`VS Code task ${recipe.name}`]
  const read = readJsonDoc(ctx, SOURCE, FILE, true)
  if (!('doc' in read)) {
    const why = 'missing' in read ? `${FILE} is gone` : `${read.error}; VS Code can't read its tasks either`
    body.part({ text: recipe.command, file: FILE, why, via })
    return body.result()
  }
  const run: TasksRun = { ctx, body, doc: read.doc, tasks: labelled(read.doc.root), globalOptions: globalOptions(read.doc.root) }
  if (!run.tasks.has(recipe.name)) {
    body.part({ text: recipe.command, file: FILE, why: `${FILE} no longer has a task labelled "${recipe.name}"`, via })
    return body.result()
  }
  runTask(run, recipe.name, via)
  return body.result()
}

function labelled(root: Node): Map<string, Node> {
  const tasks = new Map<string, Node>()
  for (const node of items(prop(root, 'tasks'))) {
    const label = str(prop(node, 'label')) ?? str(prop(node, 'taskName'))
    if (label !== undefined && !tasks.has(label)) tasks.set(label, node)
  }
  return tasks
}

function globalOptions(root: Node): Json {
  const options = plain(prop(root, 'options'))
  const host = plain(prop(prop(root, HOST_KEY), 'options'))
  return { ...(isRecord(options) ? options : {}), ...(isRecord(host) ? host : {}) }
}

/** A task with its host overrides applied (options merged, as VS Code merges them). */
function effectiveTask(node: Node): Json {
  const raw = plain(node)
  if (!isRecord(raw)) return {}
  const host = isRecord(raw[HOST_KEY]) ? (raw[HOST_KEY] as Json) : {}
  const options = { ...(isRecord(raw.options) ? raw.options : {}), ...(isRecord(host.options) ? host.options : {}) }
  return { ...raw, ...host, options }
}

function runTask(run: TasksRun, label: string, via: readonly string[]): void {
  const node = run.tasks.get(label)
  if (node === undefined) return providedTask(run, label, via)
  if (!run.body.enter(`${FILE}#${label}`, via, FILE)) return
  const task = effectiveTask(node)
  const line = lineOfNode(run.doc, node)
  for (const dep of dependencies(task.dependsOn)) runDependency(run, dep, via, line)
  const type = typeof task.type === 'string' ? task.type : 'process'
  if (type === 'npm') return npmTask(run, task.script, task.path, via, line)
  if (type !== 'shell' && type !== 'process') {
    const why = `it is a "${preview(type, 40)}" task, which a VS Code extension runs; its command is not in ${FILE}`
    run.body.part({ text: preview(JSON.stringify(task), 400), file: FILE, line, why, via })
    return
  }
  if (task.command !== undefined) commandLine(run, task, type === 'shell', line, via)
}

/** `dependsOn`: a label, a list of labels and task identifiers, or one identifier. */
function dependencies(value: unknown): unknown[] {
  if (typeof value === 'string' || isRecord(value)) return [value]
  return Array.isArray(value) ? value : []
}

function runDependency(run: TasksRun, dep: unknown, via: readonly string[], line: number): void {
  if (typeof dep === 'string') return runTask(run, dep, [...via, `VS Code task ${dep}`])
  if (isRecord(dep) && dep.type === 'npm') return npmTask(run, dep.script, dep.path, via, line)
  const text = preview(JSON.stringify(dep) ?? '', 200)
  run.body.part({ text, file: FILE, line, why: `it depends on the task ${text}, which a VS Code extension provides`, via })
}

/**
 * A label that is not in tasks.json: VS Code's npm task names (`npm: build`, `npm: build - dir`)
 * run the script; any other comes from an extension.
 */
function providedTask(run: TasksRun, label: string, via: readonly string[]): void {
  const npm = /^npm: (.+?)(?: - (.+))?$/.exec(label)
  if (npm) return npmTask(run, npm[1], npm[2], via.slice(0, -1), undefined)
  const why = `the task "${preview(label, 80)}" is not in ${FILE}: a VS Code extension provides it (or VS Code can't find it)`
  run.body.part({ text: label, file: FILE, why, via })
}

/** An npm task: the script of the package.json in `path` (the workspace folder by default). */
function npmTask(run: TasksRun, script: unknown, path: unknown, via: readonly string[], line: number | undefined): void {
  const at = line !== undefined ? { line } : {}
  if (typeof script !== 'string' || script === '') {
    run.body.part({ text: '', file: FILE, ...at, why: 'an npm task without a script name', via })
    return
  }
  const dir = insideRel(run.ctx.root, '.', typeof path === 'string' && path !== '' ? path.replace(/\/?package\.json$/, '') : '.')
  const step = [...via, `npm run ${script}`]
  if (dir === undefined) {
    const why = `the npm task's path ${preview(String(path), 80)} is outside the workspace folder`
    run.body.part({ text: `npm run ${script}`, file: FILE, ...at, why, via: step })
    return
  }
  const pkg = readPackage(run.ctx, dir)
  if (pkg !== undefined && !('error' in pkg) && runScript({ ctx: run.ctx, body: run.body, call: 'npm run' }, pkg, script, step)) return
  const why = pkg === undefined
    ? `there is no ${dir === '.' ? '' : `${dir}/`}package.json`
    : 'error' in pkg ? pkg.error : `${pkg.file} has no script "${preview(script, 60)}"`
  run.body.part({ text: `npm run ${script}`, file: FILE, ...at, why, via: step })
}

/** A shell or process task's command line, in its cwd. */
function commandLine(run: TasksRun, task: Json, shell: boolean, line: number, via: readonly string[]): void {
  const command = commandString(task.command)
  const args = Array.isArray(task.args) ? task.args.map(commandString) : []
  if (command === undefined || args.some((a) => a === undefined)) {
    const why = 'its command or an argument is neither a string nor { value, quoting }'
    run.body.part({ text: preview(JSON.stringify(task.command) ?? '', 400), file: FILE, line, why, via })
    return
  }
  const where = taskCwd(run, { ...run.globalOptions, ...(isRecord(task.options) ? task.options : {}) })
  const sub: Substitution = { up: where.cwd === '.' ? '.' : where.cwd.split('/').map(() => '..').join('/'), folderName: basename(run.ctx.root) }
  const cmd = substituteCommand(command, sub)
  const argv = (args as CommandString[]).map((a) => substituteCommand(a, sub))
  const text = shell ? shellLine(cmd.value, command, argv.map((a) => a.value)) : processLine(cmd.value, argv.map((a) => a.value))
  const unknown = [...where.unknown, ...cmd.unknown, ...argv.flatMap((a) => a.unknown)]
  if (where.outside !== undefined) {
    run.body.part({ text, file: FILE, line, why: `it runs in ${preview(where.outside, 80)}, outside the workspace folder`, via })
    return
  }
  run.body.line({ text, cwd: where.cwd, file: FILE, line, via })
  const named = [...new Set(unknown)].slice(0, 3)
  if (named.length === 0) return
  run.body.part({ text, file: FILE, line, why: `${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} filled in by VS Code when the task runs`, via })
}

/** `command` and args as VS Code reads them: a string, or `{ value, quoting }` (a list value joined). */
function commandString(value: unknown): CommandString | undefined {
  if (typeof value === 'string') return value
  if (!isRecord(value)) return undefined
  const quoting = typeof value.quoting === 'string' ? value.quoting : undefined
  const list = Array.isArray(value.value) && value.value.every((v) => typeof v === 'string') ? value.value.join(' ') : undefined
  const text = typeof value.value === 'string' ? value.value : list
  return text === undefined ? undefined : { value: text, ...(quoting !== undefined ? { quoting } : {}) }
}

/** The task's `options.cwd` as a root-relative directory, with the variables it needs. */
function taskCwd(run: TasksRun, options: Json): { cwd: string; unknown: readonly string[]; outside?: string } {
  if (typeof options.cwd !== 'string') return { cwd: '.', unknown: [] }
  const r = substitute(options.cwd, { up: '.', folderName: basename(run.ctx.root) })
  if (r.unknown.length > 0 || r.value.includes('${')) return { cwd: '.', unknown: r.unknown.length > 0 ? r.unknown : [options.cwd] }
  const cwd = insideRel(run.ctx.root, '.', r.value)
  return cwd === undefined ? { cwd: '.', unknown: [], outside: options.cwd } : { cwd, unknown: [] }
}
