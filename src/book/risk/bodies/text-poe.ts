/**
 * What a poe (Poe the Poet) task runs, as `poe <task> <words>`: its `deps` and `uses` first, then
 * by kind: `cmd` (run without a shell, judged as a line, the words appended unless the task
 * declares `args` or reads `$POE_EXTRA_ARGS`), `shell` (a script for its interpreter), `ref`
 * (another task with arguments), `sequence` and `parallel` (each item, a string naming a task,
 * a table an inline task), `switch` (the control task and every case, since which case runs is
 * known only then), `expr` (Python, shown as `python -c`), `script` (a Python function: unknown).
 * Tasks from `[tool.poe] include` files are not read, as the collector does not list them.
 */
import type { BodyBuilder, LineAt } from './text-body.js'
import { cwdOf, MAX_DEPTH, shellJoin, shellQuoteWord } from './text-body.js'
import { addScript } from './text-script.js'
import { splitWords, strings, table, type Table } from './text-python.js'

const KINDS = ['cmd', 'shell', 'script', 'sequence', 'expr', 'ref', 'switch', 'parallel'] as const
type Kind = (typeof KINDS)[number]

interface Spec {
  kind: Kind | undefined
  content: unknown
  options: Table
}

export interface PoeRun {
  readonly out: BodyBuilder
  readonly poe: Table
  readonly tasks: Table
  readonly at: LineAt
  readonly root: string
  /** The line a task is defined on. */
  readonly lineOf: (name: string) => number | undefined
}

/** A task definition as poe reads it: a string is `default_task_type`, a list `default_array_task_type`. */
function spec(poe: Table, def: unknown, arrayItem: boolean | string = false): Spec {
  if (typeof def === 'string') {
    const itemKind = typeof arrayItem === 'string' ? arrayItem : String(poe.default_array_item_task_type ?? 'ref')
    const kind = arrayItem ? itemKind : String(poe.default_task_type ?? 'cmd')
    return { kind: KINDS.find((k) => k === kind), content: def, options: {} }
  }
  if (Array.isArray(def)) {
    // A list inside a list is parallel; a task that is a list is `default_array_task_type`.
    const kind = arrayItem ? 'parallel' : (KINDS.find((k) => k === String(poe.default_array_task_type ?? 'sequence')) ?? 'sequence')
    return { kind, content: def, options: {} }
  }
  const t = table(def) ?? {}
  const kind = KINDS.find((k) => t[k] !== undefined)
  return { kind, content: kind ? t[kind] : undefined, options: t }
}

/** Runs the task named `name` with `args`. */
export function runPoeTask(run: PoeRun, name: string, args: readonly string[], via: readonly string[], stack: readonly string[]): void {
  const line = run.lineOf(name)
  const at = { ...run.at, via, ...(line !== undefined ? { line } : {}) }
  if (!(name in run.tasks)) return run.out.addUnknown(`poe ${name}`, `poe task ${name} is not in pyproject.toml (tasks of included files are not read)`, at)
  if (stack.includes(name)) return run.out.addUnknown(via[via.length - 1]!, `poe task ${name} calls itself (a cycle); not followed`, at)
  if (stack.length >= MAX_DEPTH) return run.out.addUnknown(via[via.length - 1]!, `task calls nest more than ${MAX_DEPTH} deep; not followed`, at)
  runSpec(run, spec(run.poe, run.tasks[name]), args, at, [...stack, name])
}

/** `"task args"` as a call. */
function callOf(text: string): { name: string; args: string[] } | undefined {
  const words = splitWords(text)
  return words && words.length ? { name: words[0]!, args: words.slice(1) } : undefined
}

function runRef(run: PoeRun, text: string, args: readonly string[], at: LineAt, stack: readonly string[]): void {
  const call = callOf(text)
  if (!call) return run.out.addUnknown(text, 'a task reference poe can\'t split into words', at)
  runPoeTask(run, call.name, [...call.args, ...args], [...at.via, `poe ${call.name}`], stack)
}

function runSpec(run: PoeRun, s: Spec, args: readonly string[], at: LineAt, stack: readonly string[]): void {
  if (!run.out.step(at)) return
  for (const dep of strings(s.options.deps) ?? []) runRef(run, dep, [], at, stack)
  for (const use of Object.values(table(s.options.uses) ?? {})) if (typeof use === 'string') runRef(run, use, [], at, stack)
  const cwd = typeof s.options.cwd === 'string' && !s.options.cwd.includes('$') ? cwdOf(run.root, '.', s.options.cwd) : at.cwd
  const here = { ...at, cwd }
  const content = s.content
  switch (s.kind) {
    case 'cmd': {
      const text = String(content ?? '')
      const appends = args.length > 0 && s.options.args === undefined && !text.includes('POE_EXTRA_ARGS')
      return run.out.add(appends ? `${text.trim()} ${shellJoin(args)}` : text.trim(), here)
    }
    case 'shell': {
      const given = s.options.interpreter ?? run.poe.shell_interpreter
      const interpreter = typeof given === 'string' ? given : strings(given)?.[0]
      const shell = interpreter === undefined || ['posix', 'sh', 'bash', 'zsh', 'dash'].includes(interpreter) ? undefined : [interpreter]
      return addScript(run.out, String(content ?? ''), shell, here, 'this shell task')
    }
    case 'script':
      return run.out.addUnknown(String(content ?? ''), 'a poe script task calls a Python function, whose code the gate does not read', here)
    case 'expr':
      return run.out.add(`python -c ${shellQuoteWord(String(content ?? ''))}`, here)
    case 'ref':
      return runRef(run, String(content ?? ''), args, here, stack)
    case 'sequence':
    case 'parallel': {
      const itemType = typeof s.options.default_item_type === 'string' ? s.options.default_item_type : true
      for (const item of Array.isArray(content) ? content : []) runSpec(run, spec(run.poe, item, itemType), [], here, stack)
      return
    }
    case 'switch': {
      if (s.options.control !== undefined) runSpec(run, spec(run.poe, s.options.control), [], here, stack)
      for (const c of Array.isArray(content) ? content : []) runSpec(run, spec(run.poe, c), args, here, stack)
      return
    }
    default:
      return run.out.addUnknown(JSON.stringify(content ?? null).slice(0, 2_000), 'a poe task of a kind not read here', here)
  }
}
