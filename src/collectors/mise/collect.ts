/**
 * The mise collector: the tasks mise runs in the root directory, as `mise run <task>`:
 * - `[tasks]` of the root's config files (mise.toml, .mise.toml, mise/config.toml and the rest of
 *   mise's names, with their `.local` variants), in mise's order, a later file overriding a task
 *   of the same name: a string or list is the task's `run`; a table has `run` (or `file`),
 *   `description`, `depends`, `alias`, `hide`;
 * - file tasks: executable files under mise-tasks/, .mise-tasks/, .mise/tasks/, .config/mise/tasks/
 *   and mise/tasks/ (later directories override), subdirectories joined with `:` (a `:` inside a
 *   file or directory name becomes `_`), a directory's `_default` file (any extension) named after
 *   the directory (`docs/_default` is `docs`), the extension
 *   dropped unless another file of the directory has that name, `#MISE key=value` (or
 *   `# [MISE] key=value`) header comments read as TOML. A config task wins over a file task of
 *   the same name. `[task_config] includes` (TOML files of tasks, task directories) replaces the
 *   default directories, as in mise. Hidden tasks are left out, as `mise tasks ls` leaves them out; the list
 *   is sorted by name as mise sorts it. Config files from parent directories and the global config
 *   are outside the scanned directory and not read.
 */
import { join, posix } from 'node:path'
import type { TomlError } from 'smol-toml'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { isFile, listDir, readText, statPath } from '../shared/fs.js'
import { insideRoot } from '../shared/inside-root.js'
import { smolToml } from '../../base/lazy.js'
import { shellWord } from '../../base/quote.js'
import { TomlLines } from '../shared/toml-lines.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

const SOURCE = 'mise'
/** mise's config file names in one directory, lowest precedence first. */
export const MISE_CONFIG_FILES = [
  '.config/mise/config.toml', '.config/mise/mise.toml', '.config/mise.toml', '.mise/config.toml', 'mise/config.toml', 'mise.toml', '.mise.toml',
  '.config/mise/config.local.toml', '.config/mise.local.toml', '.mise/config.local.toml', 'mise/config.local.toml', 'mise.local.toml', '.mise.local.toml',
] as const
/** The file-task directories, lowest precedence first (measured against mise 2026.9). */
export const MISE_TASK_DIRS = ['mise-tasks', '.mise-tasks', '.mise/tasks', '.config/mise/tasks', 'mise/tasks'] as const

interface Task {
  name: string
  description: string
  run: string[]
  depends: string[]
  aliases: string[]
  hide: boolean
  file: string
  line?: number
}

type Table = Record<string, unknown>
const table = (v: unknown): Table | undefined => (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? (v as Table) : undefined)
const list = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
/** `depends` entries may carry arguments (`"build --release"`); the task is the first word. */
const dependsOf = (v: unknown): string[] => list(v).map((d) => d.trim().split(/\s+/)[0]!).filter(Boolean)

export function collectMise(root: string): CollectorResult {
  const diagnostics: Diagnostic[] = []
  const files: string[] = []
  const report = (file: string, message: string, line?: number, severity: 'error' | 'warning' = 'warning') =>
    diagnostics.push(createDiagnostic({ source: SOURCE, file, ...(line ? { line } : {}), message, severity }))
  const tasks = new Map<string, Task>()
  // `[task_config] includes` replaces the default task directories (the highest-precedence file's).
  let includes: string[] | undefined
  let includesFrom: { file: string; line?: number } | undefined

  /** The tasks of one TOML table (`[tasks]` of a config, or the top level of an included file). */
  const addTasks = (into: Map<string, Task>, defs: Table, file: string, lines: TomlLines, prefix: string[]) => {
    for (const [name, def] of Object.entries(defs)) {
      const line = lines.lineOf([...prefix, name])
      const at = line ? { line } : {}
      if (typeof def === 'string' || Array.isArray(def)) {
        into.set(name, { name, description: '', run: list(def), depends: [], aliases: [], hide: false, file, ...at })
        continue
      }
      const t = table(def)
      if (!t) {
        report(file, `task "${name}" must be a command string, a list of commands or a table; mise refuses it`, line, 'error')
        continue
      }
      const run = list(t.run)
      if (run.length === 0 && typeof t.file === 'string') run.push(t.file)
      into.set(name, {
        name,
        description: typeof t.description === 'string' ? t.description : '',
        run,
        depends: dependsOf(t.depends),
        aliases: list(t.alias),
        hide: t.hide === true,
        file,
        ...at,
      })
    }
  }

  for (const file of MISE_CONFIG_FILES) {
    const text = readText(join(root, file))
    if (text === undefined) continue
    files.push(file)
    let doc: Table
    try {
      doc = smolToml().parse(text) as Table
    } catch (error) {
      const e = error as TomlError
      report(file, `${file} is not valid TOML: ${String(e?.message ?? error).split('\n')[0]!.replace(/^Invalid TOML document: /, '')}; mise refuses it, fix the syntax`, typeof e?.line === 'number' ? e.line : undefined, 'error')
      continue
    }
    const lines = new TomlLines(text)
    const taskConfig = table(doc.task_config)
    if (taskConfig?.includes !== undefined) {
      includes = Array.isArray(taskConfig.includes) ? taskConfig.includes.filter((x): x is string => typeof x === 'string') : []
      includesFrom = { file, ...(lines.lineOf(['task_config', 'includes']) ? { line: lines.lineOf(['task_config', 'includes'])! } : {}) }
    }
    if (doc.tasks === undefined) continue
    const defs = table(doc.tasks)
    if (!defs) {
      report(file, '[tasks] must be a table of task names; mise refuses this file', lines.lineOf(['tasks']), 'error')
      continue
    }
    addTasks(tasks, defs, file, lines, ['tasks'])
  }

  // File tasks first: a config task of the same name wins over them (measured against mise).
  const fileTasks = new Map<string, Task>()
  const taskDirs: string[] = []
  for (const inc of includes ?? MISE_TASK_DIRS) {
    const rel = posix.normalize(inc.replace(/^\.\//, '')).replace(/\/+$/, '')
    const where = includesFrom ?? { file: '.' }
    if (includes && (rel.startsWith('../') || rel === '..' || inc.startsWith('/') || !insideRoot(root, join(root, rel)))) {
      report(where.file, `task_config includes ${inc}, outside the scanned directory (by its real path); its tasks are not listed`, where.line)
      continue
    }
    if (includes && /[*?[{]/.test(inc)) {
      report(where.file, `task_config includes the pattern ${inc}; patterns are not expanded here, so its tasks are not listed`, where.line)
      continue
    }
    if (rel.endsWith('.toml') && isFile(join(root, rel))) {
      const text = readText(join(root, rel))
      if (text === undefined) continue
      files.push(rel)
      try {
        addTasks(fileTasks, smolToml().parse(text) as Table, rel, new TomlLines(text), [])
      } catch (error) {
        const e = error as TomlError
        report(rel, `${rel} is not valid TOML: ${String(e?.message ?? error).split('\n')[0]!.replace(/^Invalid TOML document: /, '')}; mise refuses it, fix the syntax`, typeof e?.line === 'number' ? e.line : undefined, 'error')
      }
    } else taskDirs.push(rel)
  }
  {
    // Two files of one task directory can give one name (`docs/_default` and `docs/_default.sh`,
    // `a:b` and `a_b`): mise keeps the one its directory listing gives last, an order the files
    // don't tell, so the collector keeps the later by name and says so.
    const fromDir = new Map<string, { dir: string; rel: string }>()
    for (const { dir, rel, name } of executables(root, taskDirs)) {
      const before = fromDir.get(name)
      if (before && before.dir === dir) report(rel, `${before.rel} and ${rel} are both the mise task "${name}"; mise runs whichever its directory listing gives last, which the files don't tell (listed here from ${rel}): rename one`, 1)
      fromDir.set(name, { dir, rel })
      const text = readText(join(root, rel)) ?? ''
      const meta: Table = {}
      const headerLines = text.split('\n', 200)
      headerLines.forEach((l, index) => {
        const m = /^(?:#|\/\/|--)\s*(?:MISE|\[MISE\])\s+([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(l)
        if (!m) return
        try {
          Object.assign(meta, smolToml().parse(`${m[1]} = ${m[2]}`))
        } catch {
          report(rel, `the #MISE ${m[1]} comment's value is not valid TOML (${m[2]!.trim()}); mise refuses it`, index + 1)
        }
      })
      fileTasks.set(name, {
        name,
        description: typeof meta.description === 'string' ? meta.description : '',
        run: [rel],
        depends: dependsOf(meta.depends),
        aliases: list(meta.alias),
        hide: meta.hide === true,
        file: rel,
        line: 1,
      })
      files.push(rel)
    }
  }
  for (const [name, t] of fileTasks) if (!tasks.has(name)) tasks.set(name, t)

  const recipes: Recipe[] = []
  for (const t of [...tasks.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (t.hide) continue
    recipes.push(createRecipe({
      source: SOURCE,
      runner: 'mise',
      name: t.name,
      command: `mise run ${shellWord(t.name)}`,
      description: t.description || t.run.join(' && '),
      file: t.file,
      ...(t.line ? { line: t.line } : {}),
      prerequisites: t.depends,
      aliases: t.aliases,
      argsSeparator: '--',
    }))
  }
  return { recipes, diagnostics, files }
}

/**
 * Executable regular files under the task directories, recursively, named as mise's
 * `name_from_path` names them: path components joined with `:`, a `:` inside a component made `_`,
 * and a last component that is `_default` (with or without an extension) dropped, so that the
 * file names its directory's task. The extension of the name's last part is then dropped unless
 * that name is taken by another file task (mise keeps `deploy.sh` when a `deploy` file exists in
 * any task directory); a `_default` task's name has no extension, but a directory's dot counts
 * as one (`v1.2/_default` is `v1`), as in mise.
 */
function executables(root: string, dirs: readonly string[]): Array<{ dir: string; rel: string; name: string }> {
  const found: Array<{ dir: string; rel: string; full: string; stem: string }> = []
  const walk = (dir: string, rel: string, prefix: string, depth: number) => {
    if (depth > 20) return
    let entries
    try {
      entries = listDir(join(root, rel))
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const child = `${rel}/${e.name}`
      const part = e.name.replace(/:/g, '_')
      if (e.isDirectory()) walk(dir, child, `${prefix}${part}:`, depth + 1)
      else if (e.isFile()) {
        const st = statPath(join(root, child))
        if (!st) continue
        const mode = st.mode
        if ((mode & 0o111) === 0) continue
        if (prefix !== '' && stripExtension(part) === '_default') {
          const full = prefix.slice(0, -1)
          const cut = full.lastIndexOf(':') + 1
          found.push({ dir, rel: child, full, stem: `${full.slice(0, cut)}${stripExtension(full.slice(cut))}` })
        } else found.push({ dir, rel: child, full: `${prefix}${part}`, stem: `${prefix}${stripExtension(part)}` })
      }
    }
  }
  for (const dir of dirs) walk(dir, dir, '', 0)
  // The same file name in two directories is one task (the later directory wins), not a clash.
  const fulls = new Set(found.map((f) => f.full))
  const stems = new Map<string, Set<string>>()
  for (const f of found) stems.set(f.stem, (stems.get(f.stem) ?? new Set()).add(f.full))
  return found.map((f) => ({ dir: f.dir, rel: f.rel, name: f.stem !== f.full && (fulls.has(f.stem) || stems.get(f.stem)!.size > 1) ? f.full : f.stem }))
}

/** mise's `strip_extension`: the text before the last `.`, unless that leaves nothing (`.hidden`). */
function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

export const miseCollector: Collector = {
  source: SOURCE,
  manifestNames: ['mise.toml', '.mise.toml', 'config.toml', 'mise.local.toml', '.mise.local.toml', 'config.local.toml'],
  collect(ctx: CollectContext): CollectorResult {
    return collectMise(ctx.root)
  },
}
