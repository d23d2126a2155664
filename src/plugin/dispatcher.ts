/**
 * The single dispatcher tool's `op` grammar and its description (the recipe-tool contract):
 *
 *   op       := S* head (S+ tail)?
 *   head     := runner ":" task | task        runner: a runner in the book (make, npm, just, ...)
 *   tail     := the rest, appended to the command verbatim
 *
 * A bare task must belong to exactly one runner; an ambiguous or unknown one is an error that
 * lists the available tasks. Workspace and module tasks carry their scope: `web/test`.
 */
import type { Recipe } from '../recipe.js'
import type { RecipeBook } from '../recipe-book.js'

/** Tasks listed per runner in the tool description (the rest are named in errors). */
export const PROMPT_TASK_LIMIT = 20

export interface DispatchTask {
  /** The runner id the model may qualify with. */
  runner: string
  /** The task token: `scope/name` for a scoped recipe, else the name. */
  task: string
  recipe: Recipe
}

export class DispatchError extends Error {
  override name = 'DispatchError'
}

export function taskToken(recipe: Recipe): string {
  return recipe.scope ? `${recipe.scope}/${recipe.name}` : recipe.name
}

/** The book's tasks, grouped by runner in book order. */
export function dispatchTasks(book: RecipeBook): DispatchTask[] {
  const seen = new Set<string>()
  const out: DispatchTask[] = []
  for (const recipe of book.entries()) {
    const task = taskToken(recipe)
    const key = `${recipe.runner}:${task}`
    if (seen.has(key)) continue // same task from two manifests: the first one, as the book orders them
    seen.add(key)
    out.push({ runner: recipe.runner, task, recipe })
  }
  return out
}

function byRunner(tasks: readonly DispatchTask[]): Map<string, DispatchTask[]> {
  const groups = new Map<string, DispatchTask[]>()
  for (const t of tasks) groups.set(t.runner, [...(groups.get(t.runner) ?? []), t])
  return groups
}

/** Every task as the model would name it; qualified where a bare name is ambiguous. */
export function availableTasks(tasks: readonly DispatchTask[]): string {
  const counts = new Map<string, number>()
  for (const t of tasks) counts.set(t.task, (counts.get(t.task) ?? 0) + 1)
  const lines: string[] = []
  for (const [runner, group] of byRunner(tasks)) {
    lines.push(`${runner}: ${group.map((t) => ((counts.get(t.task) ?? 0) > 1 ? `${runner}:${t.task}` : t.task)).join(', ')}`)
  }
  return lines.join('\n')
}

export interface Resolved {
  task: DispatchTask
  /** Everything after the first whitespace run, verbatim. */
  tail: string
}

export function resolveOp(op: unknown, tasks: readonly DispatchTask[]): Resolved {
  const list = () => `Available tasks:\n${availableTasks(tasks)}`
  if (typeof op !== 'string' || op.trim() === '') throw new DispatchError(`op is empty: name a task, then any arguments (e.g. "test --watch"). ${list()}`)
  const text = op.replace(/^\s+/, '')
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(text)!
  const head = match[1]!
  const tail = match[2] ?? ''
  const runners = new Set(tasks.map((t) => t.runner))
  const colon = head.indexOf(':')
  if (colon > 0 && runners.has(head.slice(0, colon))) {
    const runner = head.slice(0, colon)
    const name = head.slice(colon + 1)
    if (name === '') throw new DispatchError(`op "${head}" names the runner ${runner} but no task; use ${runner}:<task>. ${list()}`)
    const found = tasks.find((t) => t.runner === runner && t.task === name)
    if (!found) throw new DispatchError(`${runner} has no task \`${name}\`. ${list()}`)
    return { task: found, tail }
  }
  const matches = tasks.filter((t) => t.task === head)
  if (matches.length === 1) return { task: matches[0]!, tail }
  if (matches.length > 1) {
    const owners = matches.map((t) => t.runner)
    throw new DispatchError(`Task \`${head}\` exists in more than one runner (${owners.join(', ')}). Use \`<runner>:<task>\`, for example \`${owners[0]}:${head}\`. ${list()}`)
  }
  throw new DispatchError(`Unknown task \`${head}\`. ${list()}`)
}

/** The dispatcher tool's description: how to call it, then up to PROMPT_TASK_LIMIT tasks per runner. */
export function dispatcherDescription(tasks: readonly DispatchTask[], asksApproval: (recipe: Recipe) => boolean = () => false): string {
  const lines = [
    'Run a task this project declares (Makefile targets, package.json scripts, just recipes, deno tasks, Cargo targets, Taskfile tasks) in its own directory, and get its exit code and output.',
    '`op` is the task name, then any arguments, appended to the command verbatim: "test", "build --release", "web/test --watch", "make:build VERSION=2".',
    'When a task name exists in more than one runner, qualify it: `<runner>:<task>`. An unknown op answers with the full task list.',
    '',
    'Tasks:',
  ]
  for (const [runner, group] of byRunner(tasks)) {
    const file = group[0]!.recipe.file
    lines.push(`${runner} (${file}${new Set(group.map((t) => t.recipe.file)).size > 1 ? ', ...' : ''}):`)
    for (const t of group.slice(0, PROMPT_TASK_LIMIT)) {
      const doc = t.recipe.description.split('\n')[0]!.trim()
      const ask = asksApproval(t.recipe) ? ' [asks for approval]' : ''
      lines.push(`- ${t.task}: ${t.recipe.command}${t.recipe.cwd !== '.' ? ` (in ${t.recipe.cwd})` : ''}${doc ? ` — ${truncate(doc, 100)}` : ''}${ask}`)
    }
    if (group.length > PROMPT_TASK_LIMIT) lines.push(`- ... and ${group.length - PROMPT_TASK_LIMIT} more ${runner} tasks (an unknown op lists them all)`)
  }
  return lines.join('\n')
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
