/**
 * The cook contract: the working rules every cook's model gets as a system-prompt section, with
 * the task's clone and branch and the commands the project declares (found by discovery in the
 * clone, statically: nothing of the repository runs). The test command it names is the one the
 * chef verifies with: the kitchen's one policy (`findTest`), with the test command the project's
 * registration names when it names one.
 */
import { discover } from '../book/discover.js'
import type { Recipe } from '../book/recipe.js'
import { FORMATS_TEXT, commandLine, declaredAt, findTest, verificationOrder } from '../kitchen/derive/index.js'
import { parseProject, parseTask } from '../kitchen/domain.js'
import { kitchenOfTaskDir, projectFileIn, readBounded, taskFileIn } from '../kitchen/store/index.js'

export const CONTRACT_HEADING = '# Cook contract'

/** Commands the contract lists at most; the agent's own tools list every one. */
const MAX_COMMANDS = 25
/** A task.json or project file is small; more is not read. */
const MAX_SPEC_BYTES = 1024 * 1024

export interface ContractFacts {
  worktree: string
  /** The task branch; unset when the runner has no task.json (a cook run by hand). */
  branch?: string
  taskId?: string
  /** `runner name: command` lines, the test command first. */
  commands: string[]
  /** The test command line and where it is declared, when the project has one. */
  test?: { command: string; from: string }
}

/** One line per discovered command, the test command first, then the build and other checks. */
export function commandLines(recipes: readonly Recipe[], named?: string): string[] {
  const ordered = verificationOrder(recipes, named)
  const lines = ordered.slice(0, MAX_COMMANDS).map((r) => `- ${r.name}: \`${r.command}\`${r.cwd !== '.' ? ` (in ${r.cwd})` : ''} (${r.file})`)
  if (ordered.length > MAX_COMMANDS) lines.push(`- … and ${ordered.length - MAX_COMMANDS} more (see the project's tools)`)
  return lines
}

/** A small JSON file of the kitchen's, parsed; undefined when it is missing or not a regular file. */
function readSpec(path: string): unknown {
  try {
    return JSON.parse(readBounded(path, MAX_SPEC_BYTES))
  } catch {
    return undefined
  }
}

/** The task spec and the test command its project names, from the task directory's kitchen. */
function taskFacts(taskDir: string): { branch?: string; taskId?: string; named?: string } {
  const spec = parseTask(readSpec(taskFileIn(taskDir)))
  // no task.json (a cook started by hand): the contract names the checked-out branch instead
  if (!spec.ok) return {}
  let named: string | undefined
  try {
    const project = parseProject(readSpec(projectFileIn(kitchenOfTaskDir(taskDir), spec.value.project)))
    if (project.ok && project.value.name === spec.value.project) named = project.value.testCommand
  } catch {
    // not a project name: no named test command
  }
  return { branch: spec.value.branch, taskId: spec.value.id, ...(named ? { named } : {}) }
}

/** The facts of this run: the task spec when the task dir has one, and the clone's commands. */
export function contractFacts(worktree: string, taskDir: string | undefined): ContractFacts {
  const task = taskDir ? taskFacts(taskDir) : {}
  const facts: ContractFacts = { worktree, commands: [], ...(task.branch ? { branch: task.branch } : {}), ...(task.taskId ? { taskId: task.taskId } : {}) }
  let recipes: readonly Recipe[] = []
  try {
    recipes = discover(worktree).book.entries()
  } catch {
    // discovery reports problems as diagnostics; a throw here only costs the command list
  }
  facts.commands = commandLines(recipes, task.named)
  const test = findTest(recipes, task.named)
  if (test) facts.test = { command: commandLine(test), from: declaredAt(test) }
  return facts
}

/** The commands part of the contract: the test command named, then the list. */
function commandsSection(f: ContractFacts): string[] {
  const head = ['', "## The project's commands", '']
  if (f.commands.length === 0) {
    return [...head, `The project declares no commands (none in ${FORMATS_TEXT}). Find out how it builds and tests before you report done.`]
  }
  const test = f.test
    ? `The test command is \`${f.test.command}\` (${f.test.from}): run it and see it pass before you report done.`
    : 'None of them is named test, tests or check: find out how the project tests, and run that before you report done.'
  return [...head, `Declared by the project (found in the clone); prefer them to guessing. ${test}`, '', ...f.commands]
}

/** The contract text. It holds no `{{`, which the system prompt would read as a variable. */
export function contractText(f: ContractFacts): string {
  const branch = f.branch ? `the task branch \`${f.branch}\`` : 'the branch checked out in it'
  const lines = [
    CONTRACT_HEADING,
    '',
    `You are a cook: a background coding agent working one task${f.taskId ? ` (${f.taskId})` : ''} for a chef agent. No person watches this run.`,
    '',
    `- Work only in this directory: ${f.worktree}, a git repository of your own (a clone of the project). Change no file outside it; nothing outside it is writable.`,
    `- Commit your work on ${branch} with git (add, commit). The kitchen brings that branch back into the project; uncommitted changes stay behind. Do not switch branches, rewrite history, or push unless the brief asks for it.`,
    '- Never wait for a human: nobody answers questions here. Decide reversible choices yourself. When only the person can decide, report needs_decision with the question.',
    '- End every run with exactly one `chef_report` call {status, summary}: `done` (what changed, which commits, how you verified it), `needs_decision` (the question and the options), `blocked` (what blocks you), or `failed` (why). The run ends with that call; make it your last action.',
    '- Messages from the chef may arrive while you work. Follow them.',
    ...commandsSection(f),
  ]
  return lines.join('\n').replace(/\{\{/g, '{ {')
}
