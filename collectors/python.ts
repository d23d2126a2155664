/**
 * The python collector: the task runners' tables of the root pyproject.toml (parsed with
 * smol-toml), each as its runner lists them:
 * - `[tool.poe.tasks]` → `poe <task>` (names starting with `_` are private, as poe hides them);
 * - `[tool.pdm.scripts]` → `pdm run <script>` (`_` is shared options; `_name` is hidden, as
 *   `pdm run --list` hides it);
 * - `[tool.hatch.envs.<env>.scripts]` (and hatch.toml's `[envs.<env>.scripts]`, which win) →
 *   `hatch run <script>` in the default env, else `hatch run <env>:<script>`; an env's scripts
 *   inherited from its template are not repeated (hatch.toml's `[envs]` replaces pyproject's);
 * - `[tool.rye.scripts]` → `rye run <script>`;
 * - `[project.scripts]` entry points → the entry point's name (installed by `pip install .`).
 * Several runners may use one name, so each recipe's id carries its runner (`python:poe:test`).
 */
import { join } from 'node:path'
import type { TomlError } from 'smol-toml'
import { createDiagnostic, createRecipe, recipeId, type Diagnostic, type Recipe } from '../src/recipe.js'
import { readText } from './fs.js'
import { smolToml } from './lazy.js'
import { shellWord } from './shell-word.js'
import { TomlLines } from './toml-lines.js'
import type { Collector, CollectContext, CollectorResult } from './types.js'

const SOURCE = 'python'
const FILE = 'pyproject.toml'
const HATCH_FILE = 'hatch.toml'

type Table = Record<string, unknown>
const table = (v: unknown): Table | undefined => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? (v as Table) : undefined)
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

interface Found {
  runner: string
  name: string
  command: string
  description: string
  path: string[]
  prerequisites?: string[]
  scope?: string
  install?: string
}

/** poe's task kinds, and the key that holds each one's content. */
const POE_KINDS = ['cmd', 'shell', 'script', 'sequence', 'expr', 'ref', 'switch'] as const

function poeTasks(poe: Table, problem: (path: string[], message: string) => void): Found[] {
  const tasks = table(poe.tasks)
  const out: Found[] = []
  if (poe.tasks !== undefined && !tasks) problem(['tool', 'poe', 'tasks'], '[tool.poe.tasks] must be a table of task names; poe refuses this file')
  if (poe.include !== undefined || poe.include_script !== undefined) problem(['tool', 'poe'], 'tasks from [tool.poe] include / include_script files are not read; only the tasks written in pyproject.toml are listed')
  for (const [name, def] of Object.entries(tasks ?? {})) {
    if (name.startsWith('_')) continue
    const path = ['tool', 'poe', 'tasks', name]
    let content: string | undefined
    let help = ''
    let deps: string[] | undefined
    if (typeof def === 'string') content = def
    else if (Array.isArray(def)) content = `sequence of ${def.length} task${def.length === 1 ? '' : 's'}`
    else if (table(def)) {
      const t = table(def)!
      const kind = POE_KINDS.find((k) => t[k] !== undefined)
      if (!kind) {
        problem(path, `poe task "${name}" has none of ${POE_KINDS.join(', ')}; poe refuses it (add one, e.g. cmd = "...")`)
        continue
      }
      const v = t[kind]
      content = typeof v === 'string' ? v : Array.isArray(v) ? `${kind} of ${v.length} step${v.length === 1 ? '' : 's'}` : kind
      help = str(t.help) ?? ''
      deps = strings(t.deps)
    } else {
      problem(path, `poe task "${name}" must be a string, a list or a table; poe refuses it`)
      continue
    }
    out.push({ runner: 'poe', name, command: `poe ${shellWord(name)}`, description: help || content || '', path, ...(deps ? { prerequisites: deps } : {}) })
  }
  return out
}

function pdmScripts(pdm: Table, problem: (path: string[], message: string) => void): Found[] {
  const scripts = table(pdm.scripts)
  const out: Found[] = []
  if (pdm.scripts !== undefined && !scripts) problem(['tool', 'pdm', 'scripts'], '[tool.pdm.scripts] must be a table of script names; pdm refuses this file')
  for (const [name, def] of Object.entries(scripts ?? {})) {
    if (name.startsWith('_')) continue
    const path = ['tool', 'pdm', 'scripts', name]
    let description: string | undefined
    let prerequisites: string[] | undefined
    if (typeof def === 'string') description = def
    else if (table(def)) {
      const t = table(def)!
      const kind = ['cmd', 'shell', 'call', 'composite'].find((k) => t[k] !== undefined)
      if (!kind) {
        problem(path, `pdm script "${name}" has none of cmd, shell, call, composite; pdm refuses it`)
        continue
      }
      const v = t[kind]
      const body = typeof v === 'string' ? v : strings(v)?.join(kind === 'composite' ? ' ➤ ' : ' ') ?? ''
      description = str(t.help) ?? body
      if (kind === 'composite') prerequisites = strings(v)?.map((s) => s.split(/\s+/)[0]!)
    } else {
      problem(path, `pdm script "${name}" must be a string or a table; pdm refuses it`)
      continue
    }
    out.push({ runner: 'pdm', name, command: `pdm run ${shellWord(name)}`, description: description ?? '', path, ...(prerequisites ? { prerequisites } : {}) })
  }
  return out
}

/** One env's scripts, resolved through `template` (default: the `default` env) as hatch does. */
function hatchScripts(envs: Table, problem: (path: string[], message: string) => void): Found[] {
  const own = new Map<string, Map<string, string[]>>()
  for (const [env, conf] of Object.entries(envs)) {
    const scripts = table(table(conf)?.scripts)
    const map = new Map<string, string[]>()
    for (const [name, def] of Object.entries(scripts ?? {})) {
      const commands = typeof def === 'string' ? [def] : strings(def)
      if (!commands) {
        problem(['tool', 'hatch', 'envs', env, 'scripts', name], `hatch script "${env}:${name}" must be a string or a list of strings; hatch refuses it`)
        continue
      }
      map.set(name, commands)
    }
    own.set(env, map)
  }
  const resolved = new Map<string, Map<string, string[]>>()
  const resolve = (env: string, seen: string[]): Map<string, string[]> => {
    const done = resolved.get(env)
    if (done) return done
    const conf = table(envs[env])
    const template = env === 'default' ? undefined : str(conf?.template) ?? 'default'
    let base = new Map<string, string[]>()
    if (template !== undefined && template !== env) {
      if (seen.includes(template)) problem(['tool', 'hatch', 'envs', env], `hatch env templates form a cycle (${[...seen, template].join(' -> ')}); hatch refuses it`)
      else if (template === 'default' || envs[template] !== undefined) base = resolve(template, [...seen, template])
      else problem(['tool', 'hatch', 'envs', env], `hatch env "${env}" names template "${template}", which is not defined; hatch refuses it`)
    }
    const map = new Map([...base, ...(own.get(env) ?? [])])
    resolved.set(env, map)
    return map
  }
  const out: Found[] = []
  for (const env of own.keys()) {
    const template = env === 'default' ? undefined : str(table(envs[env])?.template) ?? 'default'
    const inherited = template === undefined || template === env || (template !== 'default' && envs[template] === undefined) ? new Map<string, string[]>() : resolve(template, [env])
    for (const [name, commands] of resolve(env, [env])) {
      // Inherited scripts run the template's commands: listed once, under the template.
      const mine = own.get(env)!.get(name)
      if (!mine || (inherited.get(name) && inherited.get(name)!.join('\n') === mine.join('\n') && env !== 'default')) continue
      const qualified = env === 'default' ? name : `${env}:${name}`
      out.push({ runner: 'hatch', name: qualified, command: `hatch run ${shellWord(qualified)}`, description: commands.join(' && '), path: ['tool', 'hatch', 'envs', env, 'scripts', name], ...(env === 'default' ? {} : { scope: env }) })
    }
  }
  return out
}

function ryeScripts(rye: Table, problem: (path: string[], message: string) => void): Found[] {
  const out: Found[] = []
  for (const [name, def] of Object.entries(table(rye.scripts) ?? {})) {
    const path = ['tool', 'rye', 'scripts', name]
    const t = table(def)
    const body = typeof def === 'string' ? def : strings(def)?.join(' ') ?? (t ? str(t.cmd) ?? strings(t.cmd)?.join(' ') ?? (strings(t.chain) ? `chain: ${strings(t.chain)!.join(', ')}` : str(t.call) ? `call ${t.call}` : undefined) : undefined)
    if (body === undefined) {
      problem(path, `rye script "${name}" must be a command string, a list, or a table with cmd, chain or call; rye refuses it`)
      continue
    }
    out.push({ runner: 'rye', name, command: `rye run ${shellWord(name)}`, description: body, path, ...(t && strings(t.chain) ? { prerequisites: strings(t.chain)! } : {}) })
  }
  return out
}

/** An entry point's executable is the project's own: installing the project puts it on PATH. */
const ENTRY_POINT_INSTALL = 'install the project into an environment from its root (pip install -e ., or uv pip install -e .), which puts its entry points on PATH'

function entryPoints(project: Table, problem: (path: string[], message: string) => void): Found[] {
  const out: Found[] = []
  for (const [name, target] of Object.entries(table(project.scripts) ?? {})) {
    if (typeof target !== 'string') {
      problem(['project', 'scripts', name], `entry point "${name}" must be a "module:function" string; pip refuses the project`)
      continue
    }
    out.push({ runner: name, name, command: shellWord(name), description: `Entry point ${target} (after pip install .)`, path: ['project', 'scripts', name], install: ENTRY_POINT_INSTALL })
  }
  return out
}

export function collectPython(root: string): CollectorResult {
  const diagnostics: Diagnostic[] = []
  const files: string[] = []
  /** One TOML file: its document and key lines, or undefined (missing, or a diagnostic said why). */
  const load = (file: string): { doc: Table; lines: TomlLines } | undefined => {
    const text = readText(join(root, file))
    if (text === undefined) return undefined
    files.push(file)
    try {
      return { doc: smolToml().parse(text) as Table, lines: new TomlLines(text) }
    } catch (error) {
      const e = error as TomlError
      const first = String(e?.message ?? error).split('\n')[0]!.replace(/^Invalid TOML document: /, '')
      diagnostics.push(createDiagnostic({ source: SOURCE, file, ...(typeof e?.line === 'number' ? { line: e.line } : {}), message: `${file} is not valid TOML: ${first}; fix the syntax (every Python tool refuses it too)` }))
      return undefined
    }
  }
  const pyproject = load(FILE)
  // hatch.toml holds the same settings as [tool.hatch] without the prefix, and wins over it.
  const hatchToml = load(HATCH_FILE)
  if (!pyproject && !hatchToml) return { recipes: [], diagnostics, files }
  const doc = pyproject?.doc ?? {}
  /** A key's file and line: hatch.toml's `envs...` for a path under tool.hatch it defines, else pyproject.toml's. */
  const locate = (path: string[]): { file: string; line?: number } => {
    if (hatchToml && fromToml && path[0] === 'tool' && path[1] === 'hatch' && path[2] === 'envs') {
      const line = hatchToml.lines.lineOf(path.slice(2))
      if (line) return { file: HATCH_FILE, line }
    }
    const line = pyproject?.lines.lineOf(path)
    return { file: FILE, ...(line ? { line } : {}) }
  }
  const problem = (path: string[], message: string) => {
    diagnostics.push(createDiagnostic({ source: SOURCE, ...locate(path), message, severity: 'warning' }))
  }
  const tool = table(doc.tool) ?? {}
  // hatch.toml's [envs] replaces [tool.hatch.envs] as a whole (measured with hatch 1.18).
  const pyEnvs = table(table(tool.hatch)?.envs)
  const tomlEnvs = table(hatchToml?.doc.envs)
  if (pyEnvs && tomlEnvs) {
    const line = pyproject?.lines.lineOf(['tool', 'hatch', 'envs'])
    diagnostics.push(createDiagnostic({ source: SOURCE, file: FILE, ...(line ? { line } : {}), severity: 'warning', message: 'hatch.toml has [envs], so hatch ignores [tool.hatch.envs] in pyproject.toml: its scripts are not listed (move them to hatch.toml, or drop one of the two)' }))
  }
  const envs: Table = tomlEnvs ?? pyEnvs ?? {}
  const fromToml = tomlEnvs !== undefined
  const found: Found[] = [
    ...(table(tool.poe) ? poeTasks(table(tool.poe)!, problem) : []),
    ...(table(tool.pdm) ? pdmScripts(table(tool.pdm)!, problem) : []),
    ...hatchScripts(envs, problem),
    ...(table(tool.rye) ? ryeScripts(table(tool.rye)!, problem) : []),
    ...(table(doc.project) ? entryPoints(table(doc.project)!, problem) : []),
  ]
  const recipes: Recipe[] = found.map((f) => {
    const where = locate(f.path)
    return createRecipe({
      id: recipeId(SOURCE, '.', `${f.runner === f.name && f.path[0] === 'project' ? 'entry' : f.runner}:${f.name}`),
      source: SOURCE,
      runner: f.runner,
      name: f.name,
      command: f.command,
      description: f.description,
      ...where,
      ...(f.prerequisites ? { prerequisites: f.prerequisites } : {}),
      ...(f.scope ? { scope: f.scope } : {}),
      ...(f.install ? { install: f.install } : {}),
    })
  })
  return { recipes, diagnostics, files }
}

export const pythonCollector: Collector = {
  source: SOURCE,
  configKey: 'python',
  manifestNames: [FILE, HATCH_FILE],
  collect(ctx: CollectContext): CollectorResult {
    return collectPython(ctx.root)
  },
}
