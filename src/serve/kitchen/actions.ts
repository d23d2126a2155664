/**
 * What a person does about a task, as the commands they type: the board itself is read-only (the
 * chef's process is the kitchen's one writer), so each action is the `/chef` command for the chef's
 * dsh session, ready to copy, plus the shell commands that follow or review a task from a terminal.
 * Task ids are checked ids (letters, digits, `.`, `_`, `-`); every path or branch in a shell
 * command is quoted as one word.
 */
import { shellWord } from '../../base/quote.js'

export interface ChefAction {
  action: 'send' | 'stop' | 'close'
  /** The command with its placeholder, as typed in the chef's session. */
  command: string
  what: string
}

/** The chef's commands for one open task. */
export function chefActions(id: string): ChefAction[] {
  return [
    { action: 'send', command: `/chef send ${id} <message>`, what: 'steer the cook, or start the task again with a message' },
    { action: 'stop', command: `/chef stop ${id}`, what: 'stop its cook (the clone stays)' },
    { action: 'close', command: `/chef close ${id}`, what: 'close it once its branch is merged (add "merge" to land it first, tested; "discard" to drop the work)' },
  ]
}

/** Shell commands for the task: follow its runs, and read its diff with git. */
export function shellCommands(taskDir: string, repo: string | undefined, branch: string, base: string): { what: string; command: string }[] {
  const out = [{ what: 'follow its runs in a terminal', command: `command-scout watch ${shellWord(taskDir)}` }]
  if (repo) out.push({ what: 'its diff with git', command: `git -C ${shellWord(repo)} diff ${shellWord(`${base}...${branch}`)}` })
  return out
}
