/**
 * The vscode collector: the tasks of `.vscode/tasks.json` (JSONC, version 2.0.0) that run a
 * command: `type` shell (the command line as written, then its args) or process (the program and
 * its args, each one shell word), with the host's `windows`/`osx`/`linux` overrides and the
 * file's global `options` applied, run in `options.cwd`. `${workspaceFolder}` and `${env:NAME}`
 * are resolved; a task that needs what only the editor knows (`${file}`, `${input:...}`, ...) is
 * reported, not listed. A compound task (only `dependsOn`) runs its dependencies' command lines in
 * order. Tasks of `npm` and other providers are noted, not repeated: the scripts collector lists
 * npm scripts, and other providers' tasks come from extensions that are not read.
 */
import { basename, join, posix, resolve } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../src/recipe.js'
import { readText, relPosix } from './fs.js'
import { insideRoot } from './inside-root.js'
import { isRecord, parseJsonText, positionLocator } from './json-text.js'
import { listObjectLines } from './json-list-lines.js'
import type { ParseError } from 'jsonc-parser'
import { jsoncParser } from './lazy.js'
import { shellWord } from './shell-word.js'
import type { Collector, CollectContext, CollectorResult } from './types.js'

const SOURCE = 'vscode'
const FILE = '.vscode/tasks.json'
const HOST_KEY = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux'
/** Shell words that are no program on PATH: a command line starting with one runs in `sh`. */
const SHELL_WORDS = new Set(['cd', 'export', 'set', 'source', '.', 'exec', 'eval', 'if', 'for', 'while', 'case', '(', '{', 'test', '[', 'echo', 'true', 'false', 'unset', 'ulimit', 'umask', 'env'])

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

export function collectVscode(root: string): CollectorResult {
  const text = readText(join(root, FILE))
  if (text === undefined) return { recipes: [], diagnostics: [], files: [] }
  const diagnostics: Diagnostic[] = []
  const report = (message: string, line?: number, severity: 'error' | 'warning' = 'warning') =>
    diagnostics.push(createDiagnostic({ source: SOURCE, file: FILE, ...(line ? { line } : {}), message, severity }))
  // The common case: one jsonc-parser pass for the values (no syntax tree); a file with syntax
  // errors goes through json-text.ts for its positions and words.
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
      report(`tasks.json is not valid JSONC (line ${parsed.error!.line}, column ${parsed.error!.column}: ${parsed.error!.message}); VS Code can't read its tasks either`, parsed.error!.line, 'error')
      return { recipes: [], diagnostics, files: [FILE] }
    }
    if (parsed.missingComma) report(`tasks.json misses a comma at line ${parsed.missingComma.line}, column ${parsed.missingComma.column}; VS Code's lenient parser reads on, and so does this, but fix it`, parsed.missingComma.line)
    doc = jsoncParser().getNodeValue(parsed.root) as unknown
  }
  if (!isRecord(doc)) {
    report('tasks.json must hold an object with "version" and "tasks"', 1, 'error')
    return { recipes: [], diagnostics, files: [FILE] }
  }
  const plain = text.includes('//') || text.includes('/*') ? jsoncParser().stripComments(text, ' ') : text
  const at = positionLocator(plain)
  const lineOf = (key: string): number | undefined => {
    const i = plain.indexOf(`"${key}"`)
    return i === -1 ? undefined : at(i).line
  }
  if (doc.version !== '2.0.0') {
    report(`tasks.json version ${JSON.stringify(doc.version ?? null)} is not read: only version "2.0.0" is (VS Code converts older files when you open them; set "version": "2.0.0")`, lineOf('version') ?? 1)
    if (doc.version !== undefined) return { recipes: [], diagnostics, files: [FILE] }
  }
  const tasks = doc.tasks
  if (tasks === undefined) return { recipes: [], diagnostics, files: [FILE] }
  if (!Array.isArray(tasks)) {
    report('"tasks" must be a list of task objects; VS Code reads none of them', lineOf('tasks'), 'error')
    return { recipes: [], diagnostics, files: [FILE] }
  }
  const globalOptions = { ...(isRecord(doc.options) ? doc.options : {}), ...(isRecord((doc[HOST_KEY] as Task | undefined)?.options) ? ((doc[HOST_KEY] as Task).options as Task) : {}) }
  const rootName = basename(root)

  /** `${...}` variables resolved for a command run from `cwd`; undefined names the first unknown one. */
  const substitute = (value: string, cwd: string, shell: boolean): { text: string; unknown?: string } => {
    let unknown: string | undefined
    const up = cwd === '.' ? '.' : cwd.split('/').map(() => '..').join('/')
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

  const taskLines = listObjectLines(plain, 'tasks')
  // Real-path checks per distinct cwd, not per task.
  const cwdInside = new Map<string, boolean>()
  const built = new Map<string, Built>()
  const compoundLabels = new Set<string>()
  const compound: Array<{ label: string; deps: string[]; line?: number; description: string; sequence: boolean }> = []
  tasks.forEach((raw, index) => {
    const line = taskLines[index]
    if (!isRecord(raw)) {
      report(`tasks[${index}] must be an object; VS Code skips it`, line)
      return
    }
    const task: Task = { ...raw, ...(isRecord(raw[HOST_KEY]) ? (raw[HOST_KEY] as Task) : {}) }
    const label = typeof task.label === 'string' ? task.label : typeof task.taskName === 'string' ? task.taskName : undefined
    const type = typeof task.type === 'string' ? task.type : undefined
    if (type !== undefined && type !== 'shell' && type !== 'process') {
      const what = type === 'npm' && typeof task.script === 'string'
        ? `runs the npm script "${task.script}"${typeof task.path === 'string' && task.path !== '' ? ` of ${task.path}` : ''}, which the scripts collector lists; not repeated here`
        : `is a "${type}" task, which a VS Code extension provides; its command is not in tasks.json, so it is not listed`
      report(`task ${JSON.stringify(label ?? `${type}: ${task.script ?? task.task ?? index}`)} ${what}`, line)
      return
    }
    if (label === undefined || label === '') {
      report(`tasks[${index}] has no "label"; VS Code requires one to run it, so it is not listed`, line, 'error')
      return
    }
    if (built.has(label) || compoundLabels.has(label)) {
      report(`two tasks are labelled "${label}"; VS Code runs the first one, so this one is not listed: rename it`, line)
      return
    }
    const dependsOn = typeof task.dependsOn === 'string' ? [task.dependsOn] : Array.isArray(task.dependsOn) ? task.dependsOn.filter((d): d is string => typeof d === 'string') : []
    const detail = typeof task.detail === 'string' ? task.detail : undefined
    if (task.command === undefined) {
      if (dependsOn.length === 0) {
        report(`task "${label}" has neither "command" nor "dependsOn"; there is nothing to run`, line)
        return
      }
      compoundLabels.add(label)
      compound.push({ label, deps: dependsOn, ...(line ? { line } : {}), description: detail ?? '', sequence: task.dependsOrder === 'sequence' })
      return
    }
    const commandRaw = argText(task.command)
    if (commandRaw === undefined || commandRaw.trim() === '') {
      report(`task "${label}" has a "command" that is not a string; VS Code can't run it`, line, 'error')
      return
    }
    const options = { ...globalOptions, ...(isRecord(task.options) ? task.options : {}) }
    let cwd = '.'
    if (options.cwd !== undefined) {
      if (typeof options.cwd !== 'string') {
        report(`task "${label}" has an options.cwd that is not a string; not listed`, line)
        return
      }
      const resolved = substitute(options.cwd, '.', false)
      if (resolved.unknown) {
        report(`task "${label}" runs in ${options.cwd}, which needs ${resolved.unknown} (known only inside VS Code); not listed`, line)
        return
      }
      const abs = resolve(root, resolved.text)
      let inside = cwdInside.get(abs)
      if (inside === undefined) cwdInside.set(abs, (inside = insideRoot(root, abs)))
      if (!inside) {
        report(`task "${label}" runs in ${options.cwd}, outside the scanned directory (by its real path); not listed`, line)
        return
      }
      cwd = relPosix(root, abs)
    }
    const shell = (type ?? 'process') === 'shell'
    const args = Array.isArray(task.args) ? task.args.map(argText) : []
    if (args.some((a) => a === undefined)) {
      report(`task "${label}" has an argument that is neither a string nor { value, quoting }; not listed`, line)
      return
    }
    const cmd = substitute(commandRaw, cwd, shell)
    const argsOut = (args as string[]).map((a) => substitute(a, cwd, shell))
    const unknown = cmd.unknown ?? argsOut.find((a) => a.unknown)?.unknown
    if (unknown) {
      report(`task "${label}" needs ${unknown}, which only VS Code fills in (an open file, an input prompt, a setting); not listed`, line)
      return
    }
    const head = shell ? cmd.text : shellWord(cmd.text)
    const command = [head, ...argsOut.map((a) => shellWord(a.text))].join(' ')
    const first = cmd.text.trim().split(/\s+/)[0]!
    const runner = shell && SHELL_WORDS.has(first) ? 'sh' : posix.basename(first.replace(/^["']|["']$/g, '')) || 'sh'
    built.set(label, { label, command, cwd, ...(line ? { line } : {}), description: detail ?? command, runner, deps: dependsOn })
  })

  // Compound tasks, after every command task is known (dependsOn may name a later task).
  const resolving = new Set<string>()
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
  const compoundByLabel = new Map(compound.map((c) => [c.label, c]))
  for (const c of compound) {
    const command = lineFor(c.label)
    if (command === undefined) {
      report(`compound task "${c.label}" depends on ${c.deps.map((d) => JSON.stringify(d)).join(', ')}, and not all of them are command tasks listed here (or they depend on each other in a cycle); not listed`, c.line)
      continue
    }
    const note = `Runs ${c.deps.join(', ')}${c.sequence ? ' in order' : ' (in parallel inside VS Code; one after another here)'}`
    compoundRecipes.set(c.label, { label: c.label, command, cwd: '.', ...(c.line ? { line: c.line } : {}), description: c.description || note, runner: 'sh', deps: c.deps })
  }
  const recipes: Recipe[] = []
  const listed = new Set<string>()
  tasks.forEach((raw) => {
    const label = isRecord(raw) ? (typeof raw.label === 'string' ? raw.label : typeof raw.taskName === 'string' ? raw.taskName : undefined) : undefined
    const b = label !== undefined ? built.get(label) ?? compoundRecipes.get(label) : undefined
    if (!b || listed.has(b.label)) return
    listed.add(b.label)
    for (const d of b.deps) if (!built.has(d) && !compoundRecipes.has(d) && !compoundLabels.has(d)) report(`task "${b.label}" depends on "${d}", which is not a task listed here (VS Code fails to find a task it can't resolve)`, b.line)
    recipes.push(createRecipe({ source: SOURCE, runner: b.runner, name: b.label, command: b.command, cwd: b.cwd, description: b.description, file: FILE, ...(b.line ? { line: b.line } : {}), prerequisites: b.deps }))
  })
  return { recipes, diagnostics, files: [FILE] }
}

export const vscodeCollector: Collector = {
  source: SOURCE,
  configKey: 'vscode',
  manifestNames: ['tasks.json'],
  collect(ctx: CollectContext): CollectorResult {
    return collectVscode(ctx.root)
  },
}
