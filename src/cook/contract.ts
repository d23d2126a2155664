/**
 * The cook contract: the working rules every cook's model gets as a system-prompt section, with
 * the task's worktree and branch and the commands the project declares (found by discovery in
 * the worktree, statically: nothing of the repository runs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { discover } from '../book/discover.js'
import { parseTask } from '../kitchen/domain.js'
import type { Recipe } from '../book/recipe.js'

export const CONTRACT_HEADING = '# Cook contract'

/** Commands the contract lists at most; the agent's own tools list every one. */
const MAX_COMMANDS = 25

export interface ContractFacts {
  worktree: string
  /** The task branch; unset when the runner has no task.json (a cook run by hand). */
  branch?: string
  taskId?: string
  /** `runner name: command` lines, test and build first. */
  commands: string[]
}

const FIRST = /^(test|tests|check|build|lint|typecheck|verify|ci)$/i

/** One line per discovered command, the usual verification commands first. */
export function commandLines(recipes: readonly Recipe[]): string[] {
  const ordered = [...recipes.filter((r) => FIRST.test(r.name)), ...recipes.filter((r) => !FIRST.test(r.name))]
  const lines = ordered.slice(0, MAX_COMMANDS).map((r) => `- ${r.name}: \`${r.command}\`${r.cwd !== '.' ? ` (in ${r.cwd})` : ''} (${r.file})`)
  if (ordered.length > MAX_COMMANDS) lines.push(`- … and ${ordered.length - MAX_COMMANDS} more (see the project's tools)`)
  return lines
}

/** The facts of this run: the task spec when the task dir has one, and the worktree's commands. */
export function contractFacts(worktree: string, taskDir: string | undefined): ContractFacts {
  const facts: ContractFacts = { worktree, commands: [] }
  if (taskDir) {
    try {
      const spec = parseTask(JSON.parse(readFileSync(join(taskDir, 'task.json'), 'utf8')))
      if (spec.ok) {
        facts.branch = spec.value.branch
        facts.taskId = spec.value.id
      }
    } catch {
      // no task.json (a cook started by hand): the contract names the checked-out branch instead
    }
  }
  try {
    facts.commands = commandLines(discover(worktree).book.entries())
  } catch {
    // discovery reports problems as diagnostics; a throw here only costs the command list
  }
  return facts
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
  ]
  if (f.commands.length > 0) {
    lines.push('', "## The project's commands", '', 'Declared by the project (found in the worktree); prefer them to guessing. Verify with the test command before you report done:', '', ...f.commands)
  } else {
    lines.push('', "## The project's commands", '', 'The project declares no commands (no Makefile, package.json scripts, justfile, deno tasks, Cargo targets or Taskfile). Find out how it builds and tests before you report done.')
  }
  return lines.join('\n').replace(/\{\{/g, '{ {')
}
