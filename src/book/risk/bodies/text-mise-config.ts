/**
 * mise's tasks as the gate reads them, through its bounded reader: the `[tasks]` of the root's
 * config files in mise's order (a later file overrides a task of the same name), the TOML files
 * of `[task_config] includes`, `[vars]`, and file tasks found by name in the task directories
 * (the collector lists them; here a name is looked up, so no directory is listed), with their
 * `#MISE key=value` headers. Templates (`{{vars.x}}`, `{{config_root}}`) are rendered statically.
 */
import { join } from 'node:path'
import { MISE_CONFIG_FILES, MISE_TASK_DIRS } from '../../../collectors/mise/collect.js'
import { smolToml } from '../../../base/lazy.js'
import { TomlLines } from '../../../collectors/shared/toml-lines.js'
import type { BodyContext } from '../types.js'
import { concat, hole, known, knownText, memoized, type Value } from './text-body.js'

export type Table = Record<string, unknown>
export const table = (v: unknown): Table | undefined => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? (v as Table) : undefined)

export interface MiseTask {
  readonly name: string
  /** A config task's definition (string, list or table); a file task's `#MISE` headers as a table. */
  readonly def: unknown
  /** POSIX path relative to the root of the file that defines it. */
  readonly file: string
  readonly line?: number
  /** For a file task: its absolute path (its content is the script). */
  readonly script?: string
}

export interface MiseConfig {
  readonly tasks: ReadonlyMap<string, MiseTask>
  readonly aliases: ReadonlyMap<string, string>
  readonly vars: ReadonlyMap<string, unknown>
  readonly taskDirs: readonly string[]
}

/** Extensions tried after a file task's name (the collector drops them from names). */
const EXTENSIONS = ['', '.sh', '.bash', '.zsh', '.fish', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', '.nu', '.ps1', '.bat', '.cmd']

function parseToml(text: string): Table | undefined {
  try {
    return smolToml().parse(text) as Table
  } catch {
    return undefined
  }
}

function addTasks(into: Map<string, MiseTask>, defs: Table, file: string, lines: TomlLines, prefix: string[]): void {
  for (const [name, def] of Object.entries(defs)) {
    const line = lines.lineOf([...prefix, name])
    into.set(name, { name, def, file, ...(line ? { line } : {}) })
  }
}

/** The root's mise configuration, read once per judgement. */
export function miseConfig(ctx: BodyContext): MiseConfig {
  return memoized(ctx.memo, `mise:${ctx.root}`, () => {
    const tasks = new Map<string, MiseTask>()
    const vars = new Map<string, unknown>()
    let includes: string[] | undefined
    for (const file of MISE_CONFIG_FILES) {
      const text = ctx.read(join(ctx.root, file))
      const doc = text === undefined ? undefined : parseToml(text)
      if (!doc) continue
      for (const [k, v] of Object.entries(table(doc.vars) ?? {})) vars.set(k, v)
      const inc = table(doc.task_config)?.includes
      if (inc !== undefined) includes = Array.isArray(inc) ? inc.filter((x): x is string => typeof x === 'string') : []
      const defs = table(doc.tasks)
      if (defs) addTasks(tasks, defs, file, new TomlLines(text!), ['tasks'])
    }
    const taskDirs: string[] = []
    const fromFiles = new Map<string, MiseTask>()
    for (const inc of includes ?? MISE_TASK_DIRS) {
      const rel = inc.replace(/^\.\//, '').replace(/\/+$/, '')
      if (rel.startsWith('/') || rel.split('/').includes('..') || /[*?[{]/.test(rel)) continue
      if (rel.endsWith('.toml')) {
        const text = ctx.read(join(ctx.root, rel))
        const doc = text === undefined ? undefined : parseToml(text)
        if (doc) addTasks(fromFiles, doc, rel, new TomlLines(text!), [])
      } else taskDirs.push(rel)
    }
    // A task written in a config file wins over one of the same name elsewhere.
    for (const [name, t] of fromFiles) if (!tasks.has(name)) tasks.set(name, t)
    const aliases = new Map<string, string>()
    for (const t of tasks.values()) {
      const alias = table(t.def)?.alias
      for (const a of typeof alias === 'string' ? [alias] : Array.isArray(alias) ? alias : []) if (typeof a === 'string') aliases.set(a, t.name)
    }
    return { tasks, aliases, vars, taskDirs }
  })
}

/** A file task's `#MISE key=value` (or `# [MISE] key=value`) headers, as TOML. */
export function fileHeaders(text: string): Table {
  const meta: Table = {}
  for (const l of text.split('\n', 200)) {
    const m = /^(?:#|\/\/|--)\s*(?:MISE|\[MISE\])\s+([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(l)
    const parsed = m ? parseToml(`${m[1]} = ${m[2]}`) : undefined
    if (parsed) Object.assign(meta, parsed)
  }
  return meta
}

/** A file task by name: in the task directories, the later directory first, with or without an extension. */
export function fileTask(ctx: BodyContext, config: MiseConfig, name: string): MiseTask | undefined {
  const parts = name.split(':')
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('/'))) return undefined
  for (const dir of [...config.taskDirs].reverse()) {
    for (const ext of EXTENSIONS) {
      const rel = `${dir}/${parts.join('/')}${ext}`
      const text = ctx.read(join(ctx.root, rel))
      if (text !== undefined) return { name, def: fileHeaders(text), file: rel, line: 1, script: join(ctx.root, rel) }
    }
  }
  return undefined
}

/** A task by name or alias: a config task first, then a file task. */
export function findMiseTask(ctx: BodyContext, config: MiseConfig, name: string): MiseTask | undefined {
  return config.tasks.get(name) ?? config.tasks.get(config.aliases.get(name) ?? '') ?? fileTask(ctx, config, name)
}

/** Config tasks whose names a `depends` pattern (`lint:*`) matches. */
export function matchingTasks(config: MiseConfig, pattern: string): MiseTask[] {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`)
  return [...config.tasks.values()].filter((t) => re.test(t.name))
}

/**
 * A mise template, rendered statically: `{{vars.x}}`, `{{config_root}}`, `{{cwd}}`; anything else
 * (`{{env.X}}`, `{{arg(…)}}`, `{% … %}`) is a hole. `depth` bounds vars that refer to vars.
 */
export function renderTera(text: string, root: string, vars: ReadonlyMap<string, unknown>, depth = 0): Value {
  if (!text.includes('{{') && !text.includes('{%')) return known(text)
  if (text.includes('{%')) return hole('UNKNOWN', 'mise renders this template ({% … %}) when it runs', text)
  const parts: Value[] = []
  let i = 0
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', i)) {
    const close = text.indexOf('}}', open + 2)
    if (close === -1) break
    parts.push(known(text.slice(i, open)))
    parts.push(teraExpr(text.slice(open + 2, close).trim(), root, vars, depth))
    i = close + 2
  }
  parts.push(known(text.slice(i)))
  return concat(...parts)
}

function teraExpr(expr: string, root: string, vars: ReadonlyMap<string, unknown>, depth: number): Value {
  const [head, ...filters] = expr.split('|').map((s) => s.trim())
  let value: Value
  const v = /^vars(?:\.([A-Za-z_][\w-]*)|\[["']([^"']+)["']\])$/.exec(head!)
  if (head === 'config_root' || head === 'cwd') value = known(root)
  else if (head === 'mise_bin') value = known('mise')
  else if (v) {
    const name = v[1] ?? v[2]!
    const raw = vars.get(name)
    if (raw === undefined) value = hole(name, `mise has no var ${name}`)
    else value = typeof raw === 'string' && depth < 8 ? renderTera(raw, root, vars, depth + 1) : known(String(raw))
  } else {
    const env = /^env\.([A-Za-z_]\w*)$/.exec(head!)
    const arg = /^(?:arg|option|flag)\(.*name\s*=\s*["']([^"']+)["']/.exec(head!)
    const name = env?.[1] ?? arg?.[1] ?? 'UNKNOWN'
    return hole(name, env ? `mise reads the environment variable ${name} when it runs` : `mise renders {{${expr}}} when it runs`)
  }
  // Filters other than `default` change the text in ways not read here.
  if (filters.some((f) => !f.startsWith('default')) && knownText(value) !== undefined) return hole('UNKNOWN', `mise renders {{${expr}}} when it runs`)
  return value
}
