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
import { basename, dirname, join, resolve } from 'node:path'
import type { TomlError } from 'smol-toml'
import { createDiagnostic, createRecipe, recipeId, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { isDir, lineOf, pathExists, readFileText, readText, resolveInsideRoot } from '../shared/fs.js'
import { smolToml } from '../../base/lazy.js'
import { shellWord } from '../../base/quote.js'
import { TomlLines } from '../shared/toml-lines.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { parseYamlTree, resolveAlias, toPlain, type YamlDocument } from '../shared/yaml-tree.js'

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
  /** The file and line, when not the key path's place in pyproject.toml (a task of an included file). */
  where?: Where
}

/** poe's task kinds, and the key that holds each one's content. */
const POE_KINDS = ['cmd', 'shell', 'script', 'sequence', 'expr', 'ref', 'switch'] as const
/** Where a diagnostic or a recipe points: a root-relative file and, when known, a line. */
interface Where {
  file: string
  line?: number
}
/** The options an included poe file may hold (its own, and the project's, which poe tolerates there). */
const POE_INCLUDED_KEYS = new Set([
  'env', 'envfile', 'tasks', 'groups', 'include', 'default_task_type', 'default_array_task_type', 'default_array_item_task_type', 'executor',
  'include_script', 'poetry_command', 'poetry_hooks', 'shell_interpreter', 'verbosity',
])
/** Included files read in one scan, at most (a diamond of includes is read again on every path, as poe reads it). */
const MAX_POE_INCLUDES = 256

interface PoeContext {
  root: string
  files: string[]
  /** pyproject.toml's line of a key path. */
  locate: (path: string[]) => Where
  say: (where: Where, message: string, severity?: 'error' | 'warning') => void
}

/** One include entry, as poe normalizes `include`: a path, or `{ path, cwd, recursive }`. */
interface PoeInclude {
  path: string
  recursive: boolean
}

/** An included file, parsed: its poe options and where each of their keys is. */
interface PoeFile {
  options: Table
  at: (key: string[]) => Where
}

/**
 * poe's tasks, as `poe _list_tasks` lists them: pyproject.toml's `tasks`, then its groups' tasks,
 * then each included file's (depth first, a file's own includes right after it), the first
 * definition of a name winning. Whatever poe refuses to load (a malformed `include`, an included
 * file that does not parse or holds an option poe doesn't know) makes it refuse to run any task,
 * so then none is listed, with the error.
 */
function poeTasks(poe: Table, ctx: PoeContext): Found[] {
  const out: Found[] = []
  const seen = new Set<string>()
  let refused = false
  const refuse = (where: Where, message: string) => {
    refused = true
    ctx.say(where, `${message}; poe refuses the whole configuration, so none of its tasks is listed`, 'error')
  }
  const projectAt = (key: string[]) => ctx.locate(['tool', 'poe', ...key])
  if (poe.include_script !== undefined) ctx.say(projectAt(['include_script']), 'tasks from [tool.poe] include_script are made by running Python code, which is not done here; only the tasks of pyproject.toml and its include files are listed')

  /** One partition's tasks (a file's `tasks`, then each group's), in poe's order. */
  const partition = (options: Table, at: (key: string[]) => Where, file: string, included: boolean) => {
    const own = new Set<string>()
    const add = (name: string, def: unknown, key: string[]) => {
      own.add(name)
      if (seen.has(name)) return // defined before (in pyproject.toml, or an earlier include): poe keeps that one
      seen.add(name)
      if (name.startsWith('_')) return
      const found = poeTask(name, def, key, at, ctx)
      if (found) out.push(found)
    }
    const tasks = table(options.tasks)
    if (options.tasks !== undefined && !tasks) {
      if (included) refuse(at(['tasks']), `"tasks" of ${file} must be a table of task names`)
      else ctx.say(at(['tasks']), '[tool.poe.tasks] must be a table of task names; poe refuses this file')
    }
    for (const [name, def] of Object.entries(tasks ?? {})) add(name, def, ['tasks', name])
    if (options.groups === undefined) return
    const groups = table(options.groups)
    if (!groups) return refuse(at(['groups']), `"groups" of ${file} must be a table of groups`)
    for (const [group, def] of Object.entries(groups)) {
      const g = table(def)
      if (!g) {
        refuse(at(['groups', group]), `group "${group}" of ${file} must be a table (heading, executor, tasks)`)
        continue
      }
      // poe's own check, Python's `^[\w-]+$`: \w takes any letter or digit, not only ASCII ones.
      if (!included && !/^[\p{L}\p{N}\p{M}_-]+$/u.test(group)) refuse(at(['groups', group]), `group name "${group}" may only hold letters, digits, - and _`)
      if (g.tasks === undefined) continue
      const groupTasks = table(g.tasks)
      if (!groupTasks) {
        refuse(at(['groups', group, 'tasks']), `"tasks" of group "${group}" in ${file} must be a table of task names`)
        continue
      }
      for (const [name, task] of Object.entries(groupTasks)) {
        if (own.has(name)) refuse(at(['groups', group, 'tasks', name]), `${file} defines task "${name}" twice, once in group ${group}`)
        else add(name, task, ['groups', group, 'tasks', name])
      }
    }
  }

  partition(poe, projectAt, FILE, false)
  // Included files: each parsed once (by real path), visited as often as poe visits it.
  const parsed = new Map<string, PoeFile | undefined>()
  let visits = 0
  const visit = (includes: PoeInclude[], from: string, where: Where, ancestors: string[]) => {
    for (const inc of includes) {
      if (++visits > MAX_POE_INCLUDES) {
        if (visits === MAX_POE_INCLUDES + 1) ctx.say({ file: FILE }, `poe includes more than ${MAX_POE_INCLUDES} files (counting each time one is included); the tasks of the rest are not listed`)
        return
      }
      const target = poeIncludePath(inc.path, from, ctx.root)
      if ('unknown' in target) {
        ctx.say(where, `poe includes ${inc.path}, which uses ${target.unknown}: ${target.why}; its tasks are not listed`)
        continue
      }
      const inside = resolveInsideRoot(ctx.root, target.path)
      if (!inside.ok) {
        if (inside.why === 'missing') ctx.say(where, `poe includes ${inc.path}, which does not exist; poe warns and goes on without it`)
        else if (inside.why === 'outside') ctx.say(where, `poe includes ${inc.path}, which is outside the scanned directory (by its real path); its tasks are not listed`)
        else refuse(where, `poe includes ${inc.path}, which can't be read (${inside.message})`)
        continue
      }
      if (ancestors.includes(inside.real)) continue // a cycle: poe skips the include that closes it
      let file = parsed.get(inside.real)
      if (!parsed.has(inside.real)) {
        file = loadPoeInclude(inside.real, inside.rel, where, inc.path, ctx, refuse)
        parsed.set(inside.real, file)
      }
      if (!file) continue
      partition(file.options, file.at, inside.rel, true)
      if (inc.recursive && file.options.include !== undefined) {
        visit(
          poeIncludes(file.options.include, file.at(['include']), inside.rel, refuse),
          dirname(inside.real),
          file.at(['include']),
          [...ancestors, inside.real],
        )
      }
    }
  }
  if (poe.include !== undefined) visit(poeIncludes(poe.include, projectAt(['include']), FILE, refuse), ctx.root, projectAt(['include']), [])
  return refused ? [] : out
}

/** One poe task definition as a recipe source, or undefined after a warning (poe refuses to run it). */
function poeTask(name: string, def: unknown, key: string[], at: (key: string[]) => Where, ctx: PoeContext): Found | undefined {
  const where = at(key)
  let content: string | undefined
  let help = ''
  let deps: string[] | undefined
  if (typeof def === 'string') content = def
  else if (Array.isArray(def)) content = `sequence of ${def.length} task${def.length === 1 ? '' : 's'}`
  else if (table(def)) {
    const t = table(def)!
    const kind = POE_KINDS.find((k) => t[k] !== undefined)
    if (!kind) {
      ctx.say(where, `poe task "${name}" has none of ${POE_KINDS.join(', ')}; poe refuses it (add one, e.g. cmd = "...")`)
      return undefined
    }
    const v = t[kind]
    content = typeof v === 'string' ? v : Array.isArray(v) ? `${kind} of ${v.length} step${v.length === 1 ? '' : 's'}` : kind
    help = str(t.help) ?? ''
    deps = strings(t.deps)
  } else {
    ctx.say(where, `poe task "${name}" must be a string, a list or a table; poe refuses it`)
    return undefined
  }
  return { runner: 'poe', name, command: `poe ${shellWord(name)}`, description: help || content || '', path: ['tool', 'poe', ...key], where, ...(deps ? { prerequisites: deps } : {}) }
}

/** `include` as poe normalizes it: a path, a table, or a list of them; undefined entries after an error. */
function poeIncludes(value: unknown, where: Where, file: string, refuse: (where: Where, message: string) => void): PoeInclude[] {
  if (value === '') return [] // poe reads an empty string as no include
  const items = typeof value === 'string' || table(value) ? [value] : Array.isArray(value) ? value : undefined
  const shape = 'a path, a table { path, cwd, recursive } or a list of them'
  if (!items) {
    refuse(where, `"include" of ${file} must be ${shape}`)
    return []
  }
  const out: PoeInclude[] = []
  for (const item of items) {
    if (typeof item === 'string') {
      out.push({ path: item, recursive: true })
      continue
    }
    const t = table(item)
    const extra = t ? Object.keys(t).filter((k) => k !== 'path' && k !== 'cwd' && k !== 'recursive') : []
    if (!t || typeof t.path !== 'string' || extra.length > 0 || (t.cwd !== undefined && (typeof t.cwd !== 'string' || !/\S/.test(t.cwd)))
      || (t.recursive !== undefined && typeof t.recursive !== 'boolean')) {
      refuse(where, `"include" of ${file} must be ${shape} (path a string, cwd a non-blank string, recursive true or false${extra.length ? `; ${extra.map((k) => JSON.stringify(k)).join(', ')} is no include option` : ''})`)
      continue
    }
    out.push({ path: t.path, recursive: t.recursive !== false })
  }
  return out
}

/**
 * An include path as poe resolves it: `${POE_ROOT}` (the project), `${POE_CONF_DIR}` (the folder of
 * the file that includes it), `${POE_GIT_DIR}` and `${POE_GIT_ROOT}` (the git work tree: the scanned
 * directory when a .git folder is in it), relative to the including file's folder.
 */
function poeIncludePath(path: string, from: string, root: string): { path: string } | { unknown: string; why: string } {
  let unknown: { unknown: string; why: string } | undefined
  const text = path.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === 'POE_ROOT') return root
    if (name === 'POE_CONF_DIR') return from
    // git's top level is the root when .git is there (a file for a worktree or submodule: POE_GIT_ROOT is then another).
    if ((name === 'POE_GIT_DIR' && pathExists(join(root, '.git'))) || (name === 'POE_GIT_ROOT' && isDir(join(root, '.git')))) return root
    unknown ??= name === 'POE_GIT_DIR' || name === 'POE_GIT_ROOT'
      ? { unknown: whole, why: 'the git repository poe would ask is not at the scanned directory (no .git folder there), so where it points is not known here' }
      : { unknown: whole, why: 'poe knows only POE_ROOT, POE_CONF_DIR, POE_GIT_DIR and POE_GIT_ROOT there and puts nothing in its place' }
    return whole
  })
  return unknown ?? { path: resolve(from, text) }
}

/** Reads and parses an included poe file (TOML, JSON or YAML by its extension, as poe reads it), or undefined after a diagnostic. */
function loadPoeInclude(
  real: string,
  rel: string,
  where: Where,
  shown: string,
  ctx: PoeContext,
  refuse: (where: Where, message: string) => void,
): PoeFile | undefined {
  if (isDir(real)) return void refuse(where, `poe includes ${shown}, which is a directory, not a file poe can read`)
  const read = readFileText(real)
  if (read.kind === 'missing') return void ctx.say(where, `poe includes ${shown}, which does not exist; poe warns and goes on without it`)
  if (read.kind === 'refused') return void refuse(where, `poe includes ${shown}, which is not read: ${read.reason}`)
  ctx.files.includes(rel) || ctx.files.push(rel)
  const text = read.text
  const format = rel.endsWith('.json') ? 'json' : rel.endsWith('.yaml') || rel.endsWith('.yml') ? 'yaml' : 'toml'
  let content: unknown
  let keyLine: (keys: string[]) => number | undefined
  try {
    if (format === 'toml') {
      content = smolToml().parse(text)
      const lines = new TomlLines(text)
      keyLine = (keys) => lines.lineOf(keys)
    } else if (format === 'json') {
      content = JSON.parse(text)
      keyLine = (keys) => jsonKeyLine(text, keys)
    } else {
      const doc = parseYamlTree(text)
      content = doc.contents === undefined ? {} : toPlain(doc, doc.contents)
      keyLine = (keys) => yamlKeyLine(doc, keys)
    }
  } catch (error) {
    const e = error as { message?: string; line?: number }
    const first = String(e?.message ?? error).split('\n')[0]!.replace(/^Invalid TOML document: /, '')
    return void refuse({ file: rel, ...(typeof e?.line === 'number' ? { line: e.line } : {}) }, `${rel} (included by poe) is not valid ${format.toUpperCase()}: ${first}`)
  }
  const doc = table(content)
  if (!doc) return void refuse({ file: rel, line: 1 }, `${rel} (included by poe) must hold a table at its top level`)
  // As poe's PoeConfigFile reads it: a pyproject.toml or a file with [tool.poe] gives that table, a
  // "tool.poe" key its value, anything else is the poe options itself.
  let prefix: string[] = []
  let options: unknown = doc
  const tool = table(doc.tool)
  if (basename(rel) === 'pyproject.toml' || (tool && isTruthy(tool.poe))) {
    if (tool) (options = tool.poe ?? {}), (prefix = ['tool', 'poe'])
    else (options = doc['tool.poe'] ?? {}), (prefix = ['tool.poe'])
  } else if (isTruthy(doc['tool.poe'])) (options = doc['tool.poe']), (prefix = ['tool.poe'])
  const at = (keys: string[]): Where => {
    const line = keyLine([...prefix, ...keys])
    return { file: rel, ...(line ? { line } : {}) }
  }
  const opts = table(options)
  if (!opts) return void refuse(at([]), `the poe options of ${rel} must be a table`)
  const unknownKeys = Object.keys(opts).filter((k) => !POE_INCLUDED_KEYS.has(k))
  if (unknownKeys.length > 0) return void refuse(at([unknownKeys[0]!]), `${rel} (included by poe) holds ${unknownKeys.map((k) => `"${k}"`).join(', ')}, which poe doesn't know in an included file`)
  return { options: opts, at }
}

/** Python's truth of a parsed value (poe tests `tool.get("poe", {})` for truth). */
function isTruthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false
  if (Array.isArray(v)) return v.length > 0
  if (table(v)) return Object.keys(v as Table).length > 0
  return true
}

/** The line of a nested key in a JSON text: each key's quoted name searched after the one before it. */
function jsonKeyLine(text: string, keys: string[]): number | undefined {
  let at = 0
  for (const key of keys) {
    const i = text.indexOf(`${JSON.stringify(key)}`, at)
    if (i === -1) return undefined
    at = i
  }
  return keys.length ? lineOf(text, at) : undefined
}

/** The line of a nested key in a YAML document (its key's node), when every step is a plain mapping. */
function yamlKeyLine(doc: YamlDocument, keys: string[]): number | undefined {
  let node = resolveAlias(doc, doc.contents)
  let start: number | undefined
  for (const key of keys) {
    if (node?.kind !== 'map') return undefined
    const pair = node.pairs.find((p) => p.key.kind === 'scalar' && p.key.text === key)
    if (!pair) return undefined
    start = pair.key.start
    node = resolveAlias(doc, pair.value)
  }
  return start === undefined ? undefined : doc.lineAt(start)
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
    const inherited = template === undefined || template === env || (template !== 'default' && envs[template] === undefined)
      ? new Map<string, string[]>()
      : resolve(template, [env])
    for (const [name, commands] of resolve(env, [env])) {
      // Inherited scripts run the template's commands: listed once, under the template.
      const mine = own.get(env)!.get(name)
      if (!mine || (inherited.get(name) && inherited.get(name)!.join('\n') === mine.join('\n') && env !== 'default')) continue
      const qualified = env === 'default' ? name : `${env}:${name}`
      out.push({
        runner: 'hatch',
        name: qualified,
        command: `hatch run ${shellWord(qualified)}`,
        description: commands.join(' && '),
        path: ['tool', 'hatch', 'envs', env, 'scripts', name],
        ...(env === 'default' ? {} : { scope: env }),
      })
    }
  }
  return out
}

function ryeScripts(rye: Table, problem: (path: string[], message: string) => void): Found[] {
  const out: Found[] = []
  for (const [name, def] of Object.entries(table(rye.scripts) ?? {})) {
    const path = ['tool', 'rye', 'scripts', name]
    const t = table(def)
    const body = typeof def === 'string'
      ? def
      : strings(def)?.join(' ') ?? (
        t
          ? str(t.cmd) ?? strings(t.cmd)?.join(' ') ?? (strings(t.chain) ? `chain: ${strings(t.chain)!.join(', ')}` : str(t.call) ? `call ${t.call}` : undefined)
          : undefined
      )
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
    ...(table(tool.poe) ? poeTasks(table(tool.poe)!, {
      root,
      files,
      locate,
      say: (where, message, severity = 'warning') => diagnostics.push(createDiagnostic({ source: SOURCE, ...where, message, severity })),
    }) : []),
    ...(table(tool.pdm) ? pdmScripts(table(tool.pdm)!, problem) : []),
    ...hatchScripts(envs, problem),
    ...(table(tool.rye) ? ryeScripts(table(tool.rye)!, problem) : []),
    ...(table(doc.project) ? entryPoints(table(doc.project)!, problem) : []),
  ]
  const recipes: Recipe[] = found.map((f) => {
    const where = f.where ?? locate(f.path)
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
  manifestNames: [FILE, HATCH_FILE],
  collect(ctx: CollectContext): CollectorResult {
    return collectPython(ctx.root)
  },
}
