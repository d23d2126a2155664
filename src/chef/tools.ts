/**
 * The chef tools: one-call adapters over the kitchen's operations, each answering in a few lines with
 * pointers. Definitions only; `sessions.ts` registers them in the scope of a chef agent, so no
 * other session sees them. A refusal is thrown with its reason, which the model reads as the
 * tool's error.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { formatsSentence } from '../base/collector-table.js'
import { KitchenError, MAX_MERGE_TASKS } from '../kitchen/index.js'
import type { KitchenOperations } from './service.js'

const TEXT_OUTPUT = {
  schema: { type: 'json' } as const,
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: String((value as { text?: unknown })?.text ?? '') }],
}

const taskParam = { type: 'string', required: true, description: 'The task id, e.g. "api-7" (chef_board lists them).' } as const

function text(value: string): { text: string } {
  return { text: value }
}

/** The tasks a close names: `task`, `tasks`, or both (in that order, each once). */
function closeTargets(a: { task?: unknown; tasks?: unknown }): string[] {
  const ids = [...(typeof a.task === 'string' ? [a.task] : []), ...(Array.isArray(a.tasks) ? a.tasks.filter((x): x is string => typeof x === 'string') : [])]
  const unique = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))]
  if (unique.length === 0) throw new KitchenError('KITCHEN_BAD_INPUT', 'name the task to close (task: "api-7") or the tasks (tasks: ["api-7", "api-8"])')
  return unique
}

/** Several closes, one line each; one close answers (or refuses) as a single close does. */
async function closeEach(kitchen: KitchenOperations, ids: readonly string[], discard: boolean): Promise<string> {
  if (ids.length === 1) return (await kitchen.close(ids[0]!, discard)).text
  const lines: string[] = []
  for (const id of ids) {
    try {
      lines.push((await kitchen.close(id, discard)).text)
    } catch (error) {
      lines.push(`${id} not closed: ${(error as Error)?.message ?? String(error)}`)
    }
  }
  return lines.join('\n')
}

export const CHEF_TOOL_NAMES = ['chef_add_project', 'chef_dispatch', 'chef_board', 'chef_send', 'chef_stop', 'chef_result', 'chef_close'] as const

export function chefTools(kitchen: KitchenOperations): ToolDefinition[] {
  const tools: ToolDefinition[] = [
    defineTool({
      name: 'chef_add_project',
      description:
        `Register a git repository as a kitchen project, so tasks can be dispatched to it. Scans its manifests (${formatsSentence()}) and names its test and build commands. ` +
        'Tasks fork from baseBranch (default: the current branch) on branches branchPrefix + task id (default "issue/"). Give testCommand (the name of one of its commands, e.g. "check" or "make:check") when discovery would not pick the right one.',
      parameters: {
        path: { type: 'string', required: true, description: 'Path of the git repository (~ allowed).' },
        name: { type: 'string', description: 'Project name; default: the directory name.' },
        note: { type: 'string', description: 'A note for yourself, e.g. "Go service, run make test".' },
        baseBranch: { type: 'string', description: 'An existing local branch to fork from.' },
        branchPrefix: { type: 'string', description: 'Task branch prefix, default "issue/".' },
        testCommand: { type: 'string', description: 'The name of the project\'s test command among its discovered commands (e.g. "check", "make:check"), when discovery would not pick the right one.' },
      },
      output: TEXT_OUTPUT as never,
      async execute(args) {
        return text(await kitchen.addProject(args as never)) as never
      },
    }),
    defineTool({
      name: 'chef_dispatch',
      description:
        'Start background cooks: each task gets a clone of the project of its own, its own branch, and a cook agent that works it and reports back. ' +
        'One task (project, title, brief) or a batch (tasks: [...], items inherit project, rule and model). Tasks beyond the cook cap queue and start when a cook is free. ' +
        'You get a kitchen update message when a task needs you; do not poll.',
      parameters: {
        project: { type: 'string', description: 'Project name (chef_add_project registers one).' },
        title: { type: 'string', description: 'Short task title.' },
        brief: { type: 'string', description: 'What the cook should do, with the acceptance criteria.' },
        model: { type: 'string', description: 'A model as provider/id, only when the human asks for one.' },
        rule: { type: 'string', description: 'The name of the model rule that fits the task (see Cook models).' },
        tasks: {
          type: 'array',
          description: 'A batch instead of one task.',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              project: { type: 'string' },
              title: { type: 'string', required: true },
              brief: { type: 'string', required: true },
              model: { type: 'string' },
              rule: { type: 'string' },
            },
          },
        },
      },
      output: TEXT_OUTPUT as never,
      async execute(args) {
        return text((await kitchen.dispatch(args)).text) as never
      },
    }),
    defineTool({
      name: 'chef_board',
      description: 'The kitchen board: projects, open tasks with their state and activity, and the cook count.',
      parameters: {},
      output: TEXT_OUTPUT as never,
      async execute() {
        return text(await kitchen.board()) as never
      },
    }),
    defineTool({
      name: 'chef_send',
      description:
        'Send a message to a task: steers a cooking cook after its current step, or relaunches an idle task in the same cook session (an answer to its question, a change request, a retry).',
      parameters: { task: taskParam, message: { type: 'string', required: true, description: 'What the cook should know or do.' } },
      output: TEXT_OUTPUT as never,
      async execute(args) {
        const a = args as { task: string; message: string }
        return text((await kitchen.send(a.task, a.message)).text) as never
      },
    }),
    defineTool({
      name: 'chef_stop',
      description: 'Stop a cooking cook and everything it started (daemons too), or hold a queued task. The clone and branch stay.',
      parameters: { task: taskParam },
      output: TEXT_OUTPUT as never,
      async execute(args) {
        return text((await kitchen.stop((args as { task: string }).task)).text) as never
      },
    }),
    defineTool({
      name: 'chef_result',
      description:
        'Review a task: brings its branch back from the cook\'s clone into the project, then the facts: state, branch tip, each commit ahead of the base branch, landed or not, the clone clean or not, diffstat, files; then the cook\'s own words, marked as its claim. ' +
        'verify: true also runs the base branch\'s test command on the committed work, confined to the clone, and reports pass or fail with the output\'s tail. ' +
        'diff: true adds the diff of the branch against its base branch (its first 400 lines, then how to see the rest).',
      parameters: {
        task: taskParam,
        verify: { type: 'boolean', description: 'Run the base branch\'s test command on the committed work, in the clone.' },
        diff: { type: 'boolean', description: 'Add the diff of the branch against its base branch.' },
      },
      output: TEXT_OUTPUT as never,
      async execute(args, exec) {
        const a = args as { task: string; verify?: boolean; diff?: boolean }
        return text((await kitchen.result({ task: a.task, verify: a.verify === true, diff: a.diff === true, signal: exec.signal })).text) as never
      },
    }),
    defineTool({
      name: 'chef_close',
      description:
        'Close a task (task) or several (tasks: ["api-1", "api-2"]): brings each branch back, ends what its runs left running, removes its clone, ' +
        'and deletes its branch once merged into the base branch. Refuses a cooking task, uncommitted changes, unlanded or rewritten commits ' +
        'and an undelivered message unless discard: true. ' +
        'merge: true lands them first, one at a time in the order given (the merge queue): each branch is rebased onto the base branch\'s ' +
        'current tip (merged instead where the project prefers it), the project\'s own test command runs on the result confined to a work ' +
        'clone of the kitchen\'s, and only when it passes is the base branch fast-forwarded and the task closed. The queue stops at the first ' +
        'conflict (naming the files) or failure (with the test\'s output) and leaves that branch exactly as it was; a chef that restarts goes on with it.',
      parameters: {
        task: { type: 'string', description: 'The task id, e.g. "api-7" (chef_board lists them).' },
        tasks: {
          type: 'array', items: { type: 'string' },
          description: `Several task ids, closed (or with merge, landed) in this order; at most ${MAX_MERGE_TASKS} with merge.`,
        },
        merge: { type: 'boolean', description: 'Land each on its base branch first, tested, one at a time; then close it.' },
        discard: { type: 'boolean', description: 'Throw the work away (only when the human says so).' },
      },
      output: TEXT_OUTPUT as never,
      async execute(args, exec) {
        const a = args as { task?: string; tasks?: string[]; discard?: boolean; merge?: boolean }
        const ids = closeTargets(a)
        if (a.merge === true) {
          if (a.discard === true) throw new KitchenError('KITCHEN_BAD_INPUT', 'merge lands the work and discard throws it away: pass one of them')
          return text((await kitchen.merge({ tasks: ids, signal: exec.signal })).text) as never
        }
        return text(await closeEach(kitchen, ids, a.discard === true)) as never
      },
    }),
  ]
  return tools
}
