/**
 * The single dispatcher tool's `op` grammar and its description (the recipe-tool contract):
 *
 *   op       := S* head (S+ tail)?
 *   head     := runner ":" task | task        runner: a runner in the book (make, npm, just, ...)
 *   tail     := the rest: the call's words, split as a shell splits them (exposure.ts `plannedCall`
 *               reads it with the gate's `callWords`, which refuses operators, newlines and
 *               substitutions), each quoted onto the command line
 *
 * A bare task must belong to exactly one runner; an ambiguous or unknown one is an error that
 * lists the available tasks. Workspace and module tasks carry their scope: `web/test`. A task
 * the gate judges destructive is marked `[asks for approval]` in the description.
 */
import type { Recipe } from './recipe.js'
import type { RecipeBook } from './recipe-book.js'
import { missingRunnerNote } from './runners.js'

/** Tasks listed per runner in the tool description (the rest are named in errors). */
export const PROMPT_TASK_LIMIT = 20

/**
 * Characters the task list of the description may take (about 600 tokens): past it, each runner
 * lists fewer tasks. Every task stays callable by name; an unknown op answers with all of them.
 */
export const PROMPT_TASK_CHARS = 2_000

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
  for (const t of tasks) {
    const group = groups.get(t.runner)
    if (group) group.push(t)
    else groups.set(t.runner, [t])
  }
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
  /** Everything after the first whitespace run, as written (the caller reads it as words). */
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

/** The dispatcher tool's description: how to call it, then tasks per runner within PROMPT_TASK_CHARS. */
export function dispatcherDescription(
  tasks: readonly DispatchTask[],
  asksApproval: (recipe: Recipe) => boolean = () => false,
  missingRunners: ReadonlySet<string> = new Set(),
): string {
  const lines = [
    'Run a task this project declares (make, package.json scripts, just, deno, cargo, task) in its directory; returns exit code and output.',
    '`op` is the task, then its arguments as words, split as a shell splits them (no ;, |, &&, > or $(...)): "test", "build --release", "web/test --watch". Qualify a name two runners share as `<runner>:<task>`. An unknown op answers with every task.',
  ]
  const groups = byRunner(tasks)
  for (const [runner, group] of groups) {
    if (missingRunners.has(runner)) lines.push(missingRunnerNote(runner, group.find((t) => t.recipe.install)?.recipe.install).replace('this fails', `its tasks fail`))
  }
  lines.push('Tasks:')
  const entry = (t: DispatchTask): string => {
    const doc = t.recipe.description.split('\n')[0]!.trim()
    const ask = asksApproval(t.recipe) ? ' [asks for approval]' : ''
    const shown = t.recipe.command === `${t.runner} ${t.task}` ? '' : ` = ${t.recipe.command}`
    return `- ${t.task}${shown}${t.recipe.cwd !== '.' && !t.task.includes('/') ? ` (in ${t.recipe.cwd})` : ''}${doc ? `: ${truncate(doc, 80)}` : ''}${ask}`
  }
  // Share the room between the runners: each lists what fits its share, up to PROMPT_TASK_LIMIT.
  const share = Math.floor(PROMPT_TASK_CHARS / Math.max(1, groups.size))
  for (const [runner, group] of groups) {
    const files = new Set(group.map((t) => t.recipe.file))
    lines.push(`${runner} (${group[0]!.recipe.file}${files.size > 1 ? `, +${files.size - 1} more files` : ''}):`)
    let used = 0
    let shown = 0
    for (const t of group.slice(0, PROMPT_TASK_LIMIT)) {
      const line = entry(t)
      if (used + line.length > share && shown > 0) break
      lines.push(line)
      used += line.length + 1
      shown++
    }
    // The rest by name only, while they fit: a name costs a few tokens, a description many.
    const rest: string[] = []
    for (const t of group.slice(shown)) {
      if (used + t.task.length + 2 > share * 1.25) break
      rest.push(t.task)
      used += t.task.length + 2
    }
    if (rest.length) lines.push(`- also: ${rest.join(', ')}`)
    if (group.length > shown + rest.length) lines.push(`- ... ${group.length - shown - rest.length} more ${runner} tasks`)
  }
  return lines.join('\n')
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
