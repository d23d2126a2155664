/**
 * The chef tools: one-call adapters over the kitchen service, each answering in a few lines with
 * pointers. Definitions only; `provider.ts` registers them in the scope of a chef agent, so no
 * other session sees them. A refusal is thrown with its reason, which the model reads as the
 * tool's error.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { formatsSentence } from '../base/collector-table.js'
import type { KitchenService } from './service.js'

const TEXT_OUTPUT = {
  schema: { type: 'json' } as const,
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: String((value as { text?: unknown })?.text ?? '') }],
}

const taskParam = { type: 'string', required: true, description: 'The task id, e.g. "api-7" (chef_board lists them).' } as const

function text(value: string): { text: string } {
  return { text: value }
}

export const CHEF_TOOL_NAMES = ['chef_add_project', 'chef_dispatch', 'chef_board', 'chef_send', 'chef_stop', 'chef_result', 'chef_close'] as const

export function chefTools(kitchen: KitchenService): ToolDefinition[] {
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
        'verify: true also runs the base branch\'s test command on the committed work, confined to the clone, and reports pass or fail with the output\'s tail.',
      parameters: { task: taskParam, verify: { type: 'boolean', description: 'Run the base branch\'s test command on the committed work, in the clone.' } },
      output: TEXT_OUTPUT as never,
      async execute(args, exec) {
        const a = args as { task: string; verify?: boolean }
        return text((await kitchen.result({ task: a.task, verify: a.verify === true, signal: exec.signal })).text) as never
      },
    }),
    defineTool({
      name: 'chef_close',
      description:
        'Close a task: brings its branch back, ends what its runs left running, removes its clone, and deletes its branch once merged into the base branch. Refuses a cooking task, uncommitted changes, unlanded or rewritten commits and an undelivered message unless discard: true.',
      parameters: { task: taskParam, discard: { type: 'boolean', description: 'Throw the work away (only when the human says so).' } },
      output: TEXT_OUTPUT as never,
      async execute(args) {
        const a = args as { task: string; discard?: boolean }
        return text((await kitchen.close(a.task, a.discard === true)).text) as never
      },
    }),
  ]
  return tools
}
