/**
 * The task collector: the tasks of the Taskfile go-task picks at the root (first of its eight
 * default names) and of the Taskfiles it includes, as `task <name>` recipes. Internal tasks are
 * left out, as `task --list-all` leaves them out.
 */
import { shellWord } from '../../base/quote.js'
import { createDiagnostic, createRecipe, type Recipe } from '../../book/recipe.js'
import { isDir, pathExists, readFileText, relPosix } from '../shared/fs.js'
import { pickTaskfile, readTaskfiles, TASKFILE_NAMES } from './parse.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

export { TASKFILE_NAMES } from './parse.js'

/**
 * Largest Taskfile read (MAX_TASKFILE_BYTES): the YAML library takes about a second of CPU per MiB
 * of tasks, in one call the scan's budget can't interrupt.
 */
export const MAX_TASKFILE_BYTES = 1024 * 1024
const readTaskfile = (path: string): string | undefined => {
  const r = readFileText(path, { maxBytes: MAX_TASKFILE_BYTES, limitName: 'MAX_TASKFILE_BYTES' })
  return r.kind === 'text' ? r.text : undefined
}

/** go-task stats a name: anything there but a directory is taken (and readText refuses a FIFO or a device, with a diagnostic). */
const isFile = (path: string): boolean => pathExists(path) && !isDir(path)

/** The Taskfile `task` picks in `dir`, or undefined. */
export function defaultTaskfile(dir: string): string | undefined {
  return pickTaskfile(dir, { isFile, isDir }).file
}


export const taskCollector: Collector = {
  source: 'task',
  manifestNames: TASKFILE_NAMES,
  collect(ctx: CollectContext): CollectorResult {
    const { file: rootFile, shadowing } = pickTaskfile(ctx.root, { isFile, isDir })
    const shadowed = shadowing.map((name) => createDiagnostic({
      source: 'task',
      file: name,
      message: `${name} is a directory, and go-task takes it as the Taskfile and fails; rename it${rootFile ? ` (the tasks listed are ${relPosix(ctx.root, rootFile)}'s)` : ''}`,
    }))
    if (!rootFile) return { recipes: [], diagnostics: shadowed, files: [] }
    const result = readTaskfiles(rootFile, { read: readTaskfile, isFile, isDir, root: ctx.root })
    const relFiles = new Map<string, string>()
    const rel = (abs: string): string => {
      let r = relFiles.get(abs)
      if (r === undefined) relFiles.set(abs, (r = relPosix(ctx.root, abs)))
      return r
    }
    const recipes: Recipe[] = []
    for (const task of result.tasks) {
      if (task.internal) continue
      recipes.push(createRecipe({
        source: 'task',
        runner: 'task',
        name: task.name,
        command: `task ${shellWord(task.name)}`,
        cwd: '.',
        description: task.desc,
        file: rel(task.file),
        ...(task.line !== undefined ? { line: task.line } : {}),
        prerequisites: task.deps,
        variables: task.variables,
        aliases: task.aliases,
        ...(task.scope ? { scope: task.scope } : {}),
      }))
    }
    const diagnostics = result.problems.map((p) => createDiagnostic({
      source: 'task',
      file: rel(p.file),
      ...(p.line !== undefined ? { line: p.line } : {}),
      message: p.message,
      severity: p.severity,
    }))
    return { recipes, diagnostics: [...shadowed, ...diagnostics], files: result.files.map(rel) }
  },
}
