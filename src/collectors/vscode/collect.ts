/**
 * The vscode collector: the tasks of `.vscode/tasks.json` (JSONC) that run a command, as VS Code
 * runs them:
 * - version 2.0.0: `type` shell (the command line as written, then its args) or process (the
 *   program and its args, each one shell word), with the host's `windows`/`osx`/`linux` overrides
 *   and the file's global `options` applied, run in `options.cwd`;
 * - version 0.1.0 (read as VS Code still reads it): the file's global `command`, `isShellCommand`,
 *   `args`, `taskSelector`, `suppressTaskName` and `options` filled into every task without a
 *   command of its own (the task's `taskName` appended to the global args unless suppressed, then
 *   the task's args), the host's overrides adding to the args rather than replacing them, and the
 *   global command alone as one task when no task is left;
 * - `npm` tasks (`script`, `path`): the package.json script, run as VS Code's npm extension runs
 *   it, `<runner> run <script>` in the package's folder, the runner from `npm.scriptRunner` in
 *   .vscode/settings.json or, as VS Code detects it, from the lockfiles at the root.
 * `${workspaceFolder}` and `${env:NAME}` are resolved; a task that needs what only the editor
 * knows (`${file}`, `${input:...}`, ...) is reported, not listed. A compound task (only
 * `dependsOn`) runs its dependencies' command lines in order. A task with `"hide": true` is not
 * listed (VS Code keeps it out of Run Task) but still runs as another's dependency. Tasks of
 * other providers (typescript, gulp, ...) come from extensions and are noted, not listed.
 */
import { basename, join, posix, resolve } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { pathExists, readText, relPosix } from '../shared/fs.js'
import { insideRoot } from '../shared/inside-root.js'
import { isRecord, parseJsonText, positionLocator } from '../shared/json-text.js'
import { listObjectLines } from '../shared/json-list-lines.js'
import type { ParseError } from 'jsonc-parser'
import { jsoncParser } from '../../base/lazy.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

const SOURCE = 'vscode'
const FILE = '.vscode/tasks.json'
const SETTINGS_FILE = '.vscode/settings.json'
const HOST_KEY = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux'
/** Shell words that are no program on PATH: a command line starting with one runs in `sh`. */
const SHELL_WORDS = new Set(['cd', 'export', 'set', 'source', '.', 'exec', 'eval', 'if', 'for', 'while', 'case', '(', '{', 'test', '[', 'echo', 'true', 'false',
  'unset', 'ulimit', 'umask', 'env'])

type Task = Record<string, unknown>

interface Built {
  label: string
  command: string
  cwd: string
  line?: number
  description: string
  runner: string
  deps: string[]
}

/** A task's string or `{ value, quoting }` argument (quoting is VS Code's; a POSIX shell word here). */
function argText(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg
  if (isRecord(arg) && typeof arg.value === 'string') return arg.value
  if (isRecord(arg) && Array.isArray(arg.value) && arg.value.every((v) => typeof v === 'string')) return (arg.value as string[]).join(' ')
  return undefined
}

type Report = (message: string, line?: number, severity?: 'error' | 'warning') => void

export function collectVscode(root: string): CollectorResult {
  const text = readText(join(root, FILE))
  if (text === undefined) return { recipes: [], diagnostics: [], files: [] }
  const diagnostics: Diagnostic[] = []
  const report: Report = (message, line, severity = 'warning') =>
    diagnostics.push(createDiagnostic({ source: SOURCE, file: FILE, ...(line ? { line } : {}), message, severity }))
  const doc = tasksDocument(text, report)
  if (!doc) return { recipes: [], diagnostics, files: [FILE] }
  const plain = text.includes('//') || text.includes('/*') ? jsoncParser().stripComments(text, ' ') : text
  const at = positionLocator(plain)
  const lineOf = (key: string): number | undefined => {
    const i = plain.indexOf(`"${key}"`)
    return i === -1 ? undefined : at(i).line
  }
  const legacy = doc.version === '0.1.0'
  if (doc.version !== '2.0.0' && !legacy) {
    const version = JSON.stringify(doc.version ?? null)
    report(`tasks.json version ${version} is not read: only versions "2.0.0" and "0.1.0" are (set "version": "2.0.0")`, lineOf('version') ?? 1)
    if (doc.version !== undefined) return { recipes: [], diagnostics, files: [FILE] }
  }
  const files = [FILE]
  const list = taskList(doc, legacy, plain, report, lineOf)
  if (!list) return { recipes: [], diagnostics, files }
  const reader = new TaskReader(root, doc, files, report)
  list.tasks.forEach((raw, index) => reader.add(raw, index, list.lines[index]))
  return { recipes: reader.recipes(list.tasks), diagnostics, files }
}

/**
 * The file's top-level object. The common case: one jsonc-parser pass for the values (no syntax
 * tree); a file with syntax errors goes through json-text.ts for its positions and words.
 */
function tasksDocument(text: string, report: Report): Task | undefined {
  const errors: ParseError[] = []
  let doc: unknown
  try {
    doc = JSON.parse(text) // most tasks.json files have no comments: the native parser is fastest
  } catch {
    doc = jsoncParser().parse(text, errors, { allowTrailingComma: true })
  }
  if (errors.length > 0) {
    const parsed = parseJsonText(text, true)
    if (!parsed.root) {
      const { line, column, message } = parsed.error!
      report(`tasks.json is not valid JSONC (line ${line}, column ${column}: ${message}); VS Code can't read its tasks either`, line, 'error')
      return undefined
    }
    if (parsed.missingComma) {
      const { line, column } = parsed.missingComma
      report(`tasks.json misses a comma at line ${line}, column ${column}; VS Code's lenient parser reads on, and so does this, but fix it`, line)
    }
    doc = jsoncParser().getNodeValue(parsed.root) as unknown
  }
  if (!isRecord(doc)) {
    report('tasks.json must hold an object with "version" and "tasks"', 1, 'error')
    return undefined
  }
  return doc
}

/** The tasks to read, each with its line: a 2.0.0 file's own list, or what VS Code makes of a 0.1.0 file. */
function taskList(doc: Task, legacy: boolean, plain: string, report: Report, lineOf: (key: string) => number | undefined):
  { tasks: unknown[]; lines: Array<number | undefined> } | undefined {
  let tasks: unknown = doc.tasks
  let taskLines: Array<number | undefined>
  if (legacy) {
    const converted = fromVersion1(doc, plain, report, lineOf)
    if (!converted) return undefined
    ;({ tasks, lines: taskLines } = converted)
  } else {
    if (tasks === undefined) return undefined
    if (!Array.isArray(tasks)) {
      report('"tasks" must be a list of task objects; VS Code reads none of them', lineOf('tasks'), 'error')
      return undefined
    }
    taskLines = listObjectLines(plain, 'tasks')
  }
  if (!Array.isArray(tasks)) return undefined
  return { tasks, lines: taskLines }
}

/** One task of the list, with the host's overrides applied, and what every kind of task reads of it. */
interface Entry {
  readonly raw: Task
  readonly task: Task
  readonly label: string | undefined
  readonly type: string | undefined
  readonly dependsOn: string[]
  readonly detail: string | undefined
  readonly line: number | undefined
}

interface Compound {
  label: string
  deps: string[]
  line?: number
  description: string
  sequence: boolean
}

/**
 * Reads the tasks one by one (add: npm, command and compound tasks), then lists them (recipes:
 * compound tasks resolved once every command task is known).
 */
class TaskReader {
  private readonly root: string
  private readonly rootName: string
  private readonly files: string[]
  private readonly report: Report
  private readonly globalOptions: Task
  private readonly npm: NpmRunners
  // Real-path checks per distinct cwd, not per task.
  private readonly cwdInside = new Map<string, boolean>()
  private readonly built = new Map<string, Built>()
  private readonly compoundLabels = new Set<string>()
  /** Labels of `"hide": true` tasks: not listed, but they run as a dependency. */
  private readonly hidden = new Set<string>()
  private readonly compound: Compound[] = []

  constructor(root: string, doc: Task, files: string[], report: Report) {
    this.root = root
    this.files = files
    this.report = report
    const hostOptions = (doc[HOST_KEY] as Task | undefined)?.options
    this.globalOptions = { ...(isRecord(doc.options) ? doc.options : {}), ...(isRecord(hostOptions) ? (hostOptions as Task) : {}) }
    this.rootName = basename(root)
    this.npm = npmRunners(root, files)
  }

  /** `${...}` variables resolved for a command run from `cwd`; undefined names the first unknown one. */
  private substitute(value: string, cwd: string, shell: boolean): { text: string; unknown?: string } {
    let unknown: string | undefined
    const up = cwd === '.' ? '.' : cwd.split('/').map(() => '..').join('/')
    const rootName = this.rootName
    const out = value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
      if (name === 'workspaceFolder' || name === 'workspaceRoot') return up
      if (name === 'workspaceFolderBasename') return rootName
      if (name === 'pathSeparator' || name === '/') return '/'
      if (name.startsWith('workspaceFolder:')) return up
      if (name.startsWith('env:')) return shell ? `$\{${name.slice(4)}}` : whole
      unknown ??= whole
      return whole
    })
    return { text: out, ...(unknown ? { unknown } : {}) }
  }

  private insideCwd(abs: string): boolean {
    let inside = this.cwdInside.get(abs)
    if (inside === undefined) this.cwdInside.set(abs, (inside = insideRoot(this.root, abs)))
    return inside
  }

  /** One entry of the task list. */
  add(raw: unknown, index: number, line: number | undefined): void {
    if (!isRecord(raw)) {
      this.report(`tasks[${index}] must be an object; VS Code skips it`, line)
      return
    }
    const task: Task = { ...raw, ...(isRecord(raw[HOST_KEY]) ? (raw[HOST_KEY] as Task) : {}) }
    const label = typeof task.label === 'string' ? task.label : typeof task.taskName === 'string' ? task.taskName : undefined
    const type = typeof task.type === 'string' ? task.type : undefined
    const dependsOn = typeof task.dependsOn === 'string' ? [task.dependsOn]
      : Array.isArray(task.dependsOn) ? task.dependsOn.filter((d): d is string => typeof d === 'string') : []
    const detail = typeof task.detail === 'string' ? task.detail : undefined
    const entry: Entry = { raw, task, label, type, dependsOn, detail, line }
    if (type === 'npm' && typeof task.script === 'string') return this.addNpm(entry, task.script)
    if (type !== undefined && type !== 'shell' && type !== 'process') {
      const what = type === 'npm'
        ? 'is an npm task without a "script"; VS Code has no script to run, so it is not listed'
        : `is a "${type}" task, which a VS Code extension provides; its command is not in tasks.json, so it is not listed`
      this.report(`task ${JSON.stringify(label ?? `${type}: ${task.script ?? task.task ?? index}`)} ${what}`, line)
      return
    }
    if (label === undefined || label === '') {
      this.report(`tasks[${index}] has no "label"; VS Code requires one to run it, so it is not listed`, line, 'error')
      return
    }
    if (this.built.has(label) || this.compoundLabels.has(label)) {
      this.report(`two tasks are labelled "${label}"; VS Code runs the first one, so this one is not listed: rename it`, line)
      return
    }
    if (task.command === undefined) return this.addCompound(entry, label)
    this.addCommand(entry, label)
  }

  private addNpm({ raw, task, label, dependsOn, detail, line }: Entry, script: string): void {
    const path = npmPath(task)
    const npmLabel = label ?? npmDefaultLabel(task)
    if (this.built.has(npmLabel) || this.compoundLabels.has(npmLabel)) {
      this.report(`two tasks are labelled "${npmLabel}"; VS Code runs the first one, so this one is not listed: rename it`, line)
      return
    }
    const say = (message: string) => this.report(`task ${JSON.stringify(npmLabel)} ${message}`, line)
    const b = npmTask(this.root, npmLabel, script, path, this.npm, this.files, (abs) => this.insideCwd(abs), say)
    if (!b) return
    if (raw.hide === true) this.hidden.add(npmLabel)
    this.built.set(npmLabel, { ...b, ...(line ? { line } : {}), description: detail ?? b.description, deps: dependsOn })
  }

  /** A task with only `dependsOn`: its command line is known once every task is read. */
  private addCompound({ raw, task, dependsOn, detail, line }: Entry, label: string): void {
    if (dependsOn.length === 0) {
      this.report(`task "${label}" has neither "command" nor "dependsOn"; there is nothing to run`, line)
      return
    }
    if (raw.hide === true) this.hidden.add(label)
    this.compoundLabels.add(label)
    this.compound.push({ label, deps: dependsOn, ...(line ? { line } : {}), description: detail ?? '', sequence: task.dependsOrder === 'sequence' })
  }

  /** A shell or process task: its command line, with its args, run in its cwd. */
  private addCommand({ raw, task, type, dependsOn, detail, line }: Entry, label: string): void {
    const report = this.report
    const commandRaw = argText(task.command)
    if (commandRaw === undefined || commandRaw.trim() === '') {
      report(`task "${label}" has a "command" that is not a string; VS Code can't run it`, line, 'error')
      return
    }
    const cwd = this.cwdOf(task, label, line)
    if (cwd === undefined) return
    const shell = (type ?? 'process') === 'shell'
    const args = Array.isArray(task.args) ? task.args.map(argText) : []
    if (args.some((a) => a === undefined)) {
      report(`task "${label}" has an argument that is neither a string nor { value, quoting }; not listed`, line)
      return
    }
    const cmd = this.substitute(commandRaw, cwd, shell)
    const argsOut = (args as string[]).map((a) => this.substitute(a, cwd, shell))
    const unknown = cmd.unknown ?? argsOut.find((a) => a.unknown)?.unknown
    if (unknown) {
      report(`task "${label}" needs ${unknown}, which only VS Code fills in (an open file, an input prompt, a setting); not listed`, line)
      return
    }
    const head = shell ? cmd.text : shellWord(cmd.text)
    const command = [head, ...argsOut.map((a) => shellWord(a.text))].join(' ')
    const first = cmd.text.trim().split(/\s+/)[0]!
    const runner = shell && SHELL_WORDS.has(first) ? 'sh' : posix.basename(first.replace(/^["']|["']$/g, '')) || 'sh'
    if (raw.hide === true) this.hidden.add(label)
    this.built.set(label, { label, command, cwd, ...(line ? { line } : {}), description: detail ?? command, runner, deps: dependsOn })
  }

  /** Where a task runs, relative to the root (`options.cwd`, its own or the file's); undefined, reported, when not listed. */
  private cwdOf(task: Task, label: string, line: number | undefined): string | undefined {
    const options = { ...this.globalOptions, ...(isRecord(task.options) ? task.options : {}) }
    if (options.cwd === undefined) return '.'
    if (typeof options.cwd !== 'string') {
      this.report(`task "${label}" has an options.cwd that is not a string; not listed`, line)
      return undefined
    }
    const resolved = this.substitute(options.cwd, '.', false)
    if (resolved.unknown) {
      this.report(`task "${label}" runs in ${options.cwd}, which needs ${resolved.unknown} (known only inside VS Code); not listed`, line)
      return undefined
    }
    const abs = resolve(this.root, resolved.text)
    if (!this.insideCwd(abs)) {
      this.report(`task "${label}" runs in ${options.cwd}, outside the scanned directory (by its real path); not listed`, line)
      return undefined
    }
    return relPosix(this.root, abs)
  }

  /** Compound tasks, after every command task is known (dependsOn may name a later task). */
  private compoundRecipes(): Map<string, Built> {
    const built = this.built
    const resolving = new Set<string>()
    const compoundByLabel = new Map(this.compound.map((c) => [c.label, c]))
    const lineFor = (label: string): string | undefined => {
      const b = built.get(label)
      if (b) return b.cwd === '.' ? b.command : `(cd ${shellWord(b.cwd)} && ${b.command})`
      const c = compoundByLabel.get(label)
      // A cycle, or a chain deeper than any real file has (the recursion must not exhaust the stack).
      if (!c || resolving.has(label) || resolving.size > 200) return undefined
      resolving.add(label)
      const parts = c.deps.map(lineFor)
      resolving.delete(label)
      return parts.every((p) => p !== undefined) ? parts.join(' && ') : undefined
    }
    const compoundRecipes = new Map<string, Built>()
    for (const c of this.compound) {
      const command = lineFor(c.label)
      if (command === undefined) {
        const deps = c.deps.map((d) => JSON.stringify(d)).join(', ')
        const message = `compound task "${c.label}" depends on ${deps}, and not all of them are command tasks listed here `
          + '(or they depend on each other in a cycle); not listed'
        this.report(message, c.line)
        continue
      }
      const note = `Runs ${c.deps.join(', ')}${c.sequence ? ' in order' : ' (in parallel inside VS Code; one after another here)'}`
      compoundRecipes.set(c.label, { label: c.label, command, cwd: '.', ...(c.line ? { line: c.line } : {}), description: c.description || note, runner: 'sh',
        deps: c.deps })
    }
    return compoundRecipes
  }

  /** A recipe per task, in the file's order; hidden tasks and repeated labels are left out. */
  recipes(tasks: unknown[]): Recipe[] {
    const { built, compoundLabels } = this
    const compoundRecipes = this.compoundRecipes()
    const recipes: Recipe[] = []
    const listed = new Set<string>()
    tasks.forEach((raw) => {
      const label = listedLabel(raw)
      const b = label !== undefined ? built.get(label) ?? compoundRecipes.get(label) : undefined
      if (!b || listed.has(b.label) || this.hidden.has(b.label)) return
      listed.add(b.label)
      for (const d of b.deps) {
        if (!built.has(d) && !compoundRecipes.has(d) && !compoundLabels.has(d)) {
          this.report(`task "${b.label}" depends on "${d}", which is not a task listed here (VS Code fails to find a task it can't resolve)`, b.line)
        }
      }
      recipes.push(createRecipe({ source: SOURCE, runner: b.runner, name: b.label, command: b.command, cwd: b.cwd, description: b.description, file: FILE,
        ...(b.line ? { line: b.line } : {}), prerequisites: b.deps }))
    })
    return recipes
  }
}

/** The label a task of the list is built under (before the host's overrides). */
function listedLabel(raw: unknown): string | undefined {
  if (!isRecord(raw)) return undefined
  if (typeof raw.label === 'string') return raw.label
  if (typeof raw.taskName === 'string') return raw.taskName
  return raw.type === 'npm' && typeof raw.script === 'string' ? npmDefaultLabel(raw) : undefined
}

/** An npm task's package folder, relative to the root ('' for the root itself). */
function npmPath(task: Task): string {
  if (typeof task.path !== 'string' || task.path === '') return ''
  const path = posix.normalize(task.path).replace(/\/+$/, '')
  return path === '.' ? '' : path
}

/** The label VS Code gives an npm task that has none: `npm: <script>`, with ` - <path>` for a package below the root. */
export function npmDefaultLabel(task: Task): string {
  const path = npmPath(task)
  return `npm: ${task.script}${path ? ` - ${path}` : ''}`
}

/** The program VS Code's npm extension runs a script with, and the one it installs with, found when first asked. */
interface NpmRunners {
  scriptRunner(): string
  packageManager(): string
  silent(): boolean
}

/**
 * What VS Code's npm extension would run, from the workspace settings (.vscode/settings.json:
 * `npm.scriptRunner`, `npm.packageManager`, `npm.runSilent`; the user's own settings are outside
 * the root) and, for `auto` (their default), VS Code's detection at the workspace folder
 * (findPreferredPM): package-lock.json is npm, pnpm-lock.yaml or shrinkwrap.yaml pnpm, yarn.lock
 * or a package.json with `workspaces` yarn, bun.lockb or bun.lock bun, in that order; else what
 * node_modules says (yarn's .yarn-integrity, pnpm's .modules.yaml, or npm when it is there); else npm.
 */
function npmRunners(root: string, files: string[]): NpmRunners {
  let settings: Record<string, unknown> | undefined
  const setting = (key: string): unknown => {
    if (!settings) {
      const text = readText(join(root, SETTINGS_FILE))
      let value: unknown
      if (text !== undefined) {
        files.push(SETTINGS_FILE)
        try {
          value = JSON.parse(text)
        } catch {
          value = jsoncParser().parse(text, [], { allowTrailingComma: true })
        }
      }
      settings = isRecord(value) ? value : {}
    }
    const nested = settings.npm
    return settings[`npm.${key}`] ?? (isRecord(nested) ? nested[key] : undefined)
  }
  let detected: string | undefined
  const detect = (): string => {
    if (detected) return detected
    const has = (name: string) => pathExists(join(root, name))
    if (has('package-lock.json')) return (detected = 'npm')
    if (has('pnpm-lock.yaml') || has('shrinkwrap.yaml')) return (detected = 'pnpm')
    if (has('yarn.lock') || hasWorkspaces(root)) return (detected = 'yarn')
    if (has('bun.lockb') || has('bun.lock')) return (detected = 'bun')
    if (has('node_modules/.yarn-integrity')) return (detected = 'yarn')
    const modules = /^packageManager:\s*['"]?(@?[^@\s'"]+)/m.exec(readText(join(root, 'node_modules/.modules.yaml')) ?? '')
    // node_modules without either marker is npm's, and no node_modules leaves VS Code's default: npm too.
    return (detected = modules ? modules[1]! : 'npm')
  }
  const pick = (key: string): string => {
    const v = setting(key)
    return typeof v === 'string' && v !== '' && v !== 'auto' ? v : detect()
  }
  return { scriptRunner: () => pick('scriptRunner'), packageManager: () => pick('packageManager'), silent: () => setting('runSilent') === true }
}

/** Whether the root package.json has `workspaces` (a list, or `{ packages }`), which makes VS Code prefer yarn. */
function hasWorkspaces(root: string): boolean {
  const text = readText(join(root, 'package.json'))
  if (text === undefined) return false
  try {
    const ws = (JSON.parse(text) as Record<string, unknown> | null)?.workspaces
    return Array.isArray(ws) || (isRecord(ws) && Array.isArray(ws.packages))
  } catch {
    return false
  }
}

/**
 * An npm task as VS Code's npm extension resolves it: the script of `<path>/package.json`, run in
 * that folder as `<runner> run <script>` (`node --run <script>` for the node runner; `install`
 * is `<package manager> install`). Undefined, after `say`, when there is nothing it could run.
 */
function npmTask(
  root: string,
  label: string,
  script: string,
  path: string,
  npm: NpmRunners,
  files: string[],
  insideCwd: (abs: string) => boolean,
  say: (message: string) => void,
): Omit<Built, 'deps'> | undefined {
  const where = path ? ` of ${path}` : ''
  if (path.includes('${')) return void say(`runs the npm script "${script}" of ${path}, a path with a variable VS Code fills in; not listed`)
  const dir = resolve(root, path || '.')
  if (!insideCwd(dir)) return void say(`runs the npm script "${script}"${where}, outside the scanned directory (by its real path); not listed`)
  const cwd = relPosix(root, dir)
  const manifest = cwd === '.' ? 'package.json' : `${cwd}/package.json`
  // VS Code's detail for an npm task: the script's text (its own words for install).
  let body = 'install dependencies from package'
  if (script !== 'install') {
    const text = readText(join(root, manifest))
    if (text === undefined) return void say(`runs the npm script "${script}"${where}, but there is no ${manifest}; not listed`)
    files.includes(manifest) || files.push(manifest)
    let pkg: unknown
    try {
      pkg = JSON.parse(text)
    } catch {
      pkg = jsoncParser().parse(text, [], { allowTrailingComma: true })
    }
    const scripts = isRecord(pkg) && isRecord(pkg.scripts) ? pkg.scripts : {}
    if (typeof scripts[script] !== 'string') return void say(`runs the npm script "${script}", which ${manifest} does not define (VS Code's run would fail); not listed`)
    body = scripts[script] as string
  }
  const silent = npm.silent() ? ' --silent' : ''
  let runner: string
  let command: string
  if (script === 'install') {
    runner = npm.packageManager()
    command = `${shellWord(runner)} install${silent}`
  } else {
    runner = npm.scriptRunner()
    command = runner === 'node' ? `node --run ${shellWord(script)}` : `${shellWord(runner)} run${silent} ${shellWord(script)}`
  }
  return { label, command, cwd, runner, description: body }
}

/**
 * A version 0.1.0 tasks.json as the 2.0.0 tasks VS Code makes of it (its taskConfiguration.ts):
 * each task's command line with the file's global command filled in, or undefined when there is
 * nothing to read. `taskName` names a task (0.1.0 has no `label`); the host's section of the file
 * may hold tasks of its own, which replace those of the same name.
 */
export function fromVersion1(
  doc: Task,
  plain: string,
  report: (message: string, line?: number, severity?: 'error' | 'warning') => void,
  lineOf: (key: string) => number | undefined,
): { tasks: Task[]; lines: Array<number | undefined> } | undefined {
  const host = isRecord(doc[HOST_KEY]) ? (doc[HOST_KEY] as Task) : undefined
  if (doc.tasks !== undefined && !Array.isArray(doc.tasks)) {
    report('"tasks" must be a list of task objects; VS Code reads none of them', lineOf('tasks'), 'error')
    return undefined
  }
  const global = withHost(commandOf(doc), host ? commandOf(host) : undefined)
  const globalSuppress = global.suppressTaskName ?? false
  const own = Array.isArray(doc.tasks) ? doc.tasks : []
  const lines = listObjectLines(plain, 'tasks')
  const entries: Array<{ raw: unknown; line?: number }> = own.map((raw, i) => ({ raw, ...(lines[i] ? { line: lines[i] } : {}) }))
  if (host && Array.isArray(host.tasks)) {
    for (const raw of host.tasks) {
      const name = isRecord(raw) ? raw.taskName : undefined
      const at = entries.findIndex((e) => isRecord(e.raw) && e.raw.taskName === name)
      if (typeof name === 'string' && at !== -1) entries[at] = { raw }
      else entries.push({ raw })
    }
  }
  const tasks: Task[] = []
  const taskLines: Array<number | undefined> = []
  let custom = 0
  entries.forEach(({ raw, line }, index) => {
    const push = (t: unknown) => {
      tasks.push(t as Task)
      taskLines.push(line)
    }
    if (!isRecord(raw)) return push(raw)
    const name = typeof raw.taskName === 'string' && raw.taskName !== '' ? raw.taskName : undefined
    const type = typeof raw.type === 'string' ? raw.type : undefined
    if (type !== undefined && type !== 'shell' && type !== 'process') {
      const { label: _label, ...rest } = raw
      return push({ ...rest, ...(name !== undefined ? { label: name } : {}) })
    }
    if (name === undefined) return report(`tasks[${index}] has no "taskName"; VS Code needs one to run it (version 0.1.0), so it is not listed`, line, 'error')
    const mine = withHost(commandOf(raw), isRecord(raw[HOST_KEY]) ? commandOf(raw[HOST_KEY] as Task) : undefined)
    let cmd = mine
    // VS Code fills in the global command unless the task has a dependsOn and no command of its own.
    if (mine.command !== undefined || raw.dependsOn === undefined) {
      cmd = { ...mine, runtime: mine.runtime ?? global.runtime }
      if (mine.command === undefined) {
        const suppress = mine.suppressTaskName ?? globalSuppress
        const selector = mine.taskSelector ?? global.taskSelector
        cmd = { ...cmd, command: global.command, args: [...(global.args ?? []), ...(suppress ? [] : [`${selector ?? ''}${name}`]), ...(mine.args ?? [])] }
      }
    }
    if (cmd.command === undefined) {
      const why = global.command === undefined ? 'defines no command, and the file has no global one' : 'has a dependsOn and no command of its own (version 0.1.0 fills in the global command only for a task without dependsOn)'
      return report(`task "${name}" ${why}; VS Code ignores it (version 0.1.0 has no compound tasks)`, line)
    }
    custom++
    push({
      label: name,
      type: cmd.runtime ?? 'process',
      command: cmd.command,
      ...(cmd.args ? { args: cmd.args } : {}),
      ...(cmd.options ? { options: cmd.options } : {}),
      ...(raw.dependsOn !== undefined ? { dependsOn: raw.dependsOn } : {}),
      ...(typeof raw.detail === 'string' ? { detail: raw.detail } : {}),
      ...(raw.hide === true ? { hide: true } : {}),
    })
  })
  // No task left but a global command: VS Code runs that command, named after it.
  if (custom === 0 && global.command !== undefined) {
    const name = argText(global.command)
    if (name !== undefined && name.trim() !== '') {
      tasks.push({ label: name, type: global.runtime ?? 'process', command: global.command, ...(global.args ? { args: global.args } : {}) })
      taskLines.push(lineOf('command'))
    }
  }
  return { tasks, lines: taskLines }
}

interface CommandConf {
  command?: unknown
  runtime?: 'shell' | 'process'
  args?: unknown[]
  options?: Task
  taskSelector?: string
  suppressTaskName?: boolean
}

/** The command properties of a 0.1.0 task or file (VS Code's CommandConfiguration.fromBase). */
function commandOf(c: Task): CommandConf {
  const command = Array.isArray(c.command) && c.command.every((x) => typeof x === 'string') ? c.command.join(' ') : c.command
  // As VS Code reads it: any boolean isShellCommand (false too) or a shell configuration means a shell.
  const runtime = typeof c.isShellCommand === 'boolean' || isRecord(c.isShellCommand)
    ? 'shell'
    : c.isShellCommand !== undefined
      ? (c.isShellCommand ? 'shell' : 'process')
      : c.type === 'shell' || c.type === 'process' ? c.type : undefined
  return {
    ...(command !== undefined ? { command } : {}),
    ...(runtime ? { runtime } : {}),
    ...(Array.isArray(c.args) ? { args: c.args } : {}),
    ...(isRecord(c.options) ? { options: c.options } : {}),
    ...(typeof c.taskSelector === 'string' ? { taskSelector: c.taskSelector } : {}),
    ...(typeof c.suppressTaskName === 'boolean' ? { suppressTaskName: c.suppressTaskName } : {}),
  }
}

/** A host section over a 0.1.0 command: its properties win, its args are added after (0.1.0 does not replace them). */
function withHost(base: CommandConf, over: CommandConf | undefined): CommandConf {
  if (!over) return base
  const args = base.args && over.args ? [...base.args, ...over.args] : over.args ?? base.args
  const options = base.options || over.options ? { ...base.options, ...over.options } : undefined
  return { ...base, ...over, ...(args ? { args } : {}), ...(options ? { options } : {}) }
}

export const vscodeCollector: Collector = {
  source: SOURCE,
  manifestNames: ['tasks.json'],
  collect(ctx: CollectContext): CollectorResult {
    return collectVscode(ctx.root)
  },
}
