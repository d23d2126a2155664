/**
 * `chef_report {status, summary}`: the cook's one way to end a run. The call concludes the turn
 * (no further model call), and its report rides the durable `tool/result` as presentation meta
 * (`{report: {status, summary}}`), which is where the run file reads it: the harness keeps a
 * tool's meta in the session log but drops its value.
 */
import { defineTool, type ToolDefinition, type ToolRunContext } from '@deepseek-ai/dsh-tools'
import { REPORT_STATUSES, REPORT_TOOL, type Report } from '../kitchen/domain.js'

export const REPORT_DESCRIPTION = [
  'Report the outcome of this run to the chef and end the run. Call it exactly once, as your last action, when the work is',
  'finished or cannot go on: no model call follows it.',
  'status: "done" (the task is complete and committed; say what changed and how you verified it),',
  '"needs_decision" (only the person can decide; ask the question with the options),',
  '"blocked" (something outside the worktree stops you; say what), or "failed" (you could not do it; say why).',
].join(' ')

const OUTPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...REPORT_STATUSES], required: true },
    summary: { type: 'string', required: true },
  },
} as const

export interface RunReportTool {
  tool: ToolDefinition
  /**
   * A steer claimed just before the report joined the turn after it (the harness then runs one more
   * step): the model may report again once, and the run file's last report is the outcome.
   */
  reopen(): void
}

/**
 * The tool for one run. `onReport` hears the report when it is accepted (the runner stops
 * steering then). A second report in the same run is refused unless `reopen` was called, so each
 * report answers what the model had seen.
 */
export function reportTool(onReport: (report: Report) => void): RunReportTool {
  let reported: Report | undefined
  const tool = defineTool({
    name: REPORT_TOOL,
    description: REPORT_DESCRIPTION,
    parameters: {
      status: { type: 'string', enum: [...REPORT_STATUSES], required: true, description: 'done, needs_decision, blocked or failed' },
      summary: { type: 'string', required: true, description: 'One short paragraph for the chef: the result, or the question, block or failure.' },
    },
    output: {
      schema: OUTPUT_SCHEMA,
      render: (_args: unknown, value: { status: string; summary: string }) => [{ type: 'text' as const, text: `Reported ${value.status} to the chef. The run ends now.` }],
      presentationMeta: (_args: unknown, value: { status: string; summary: string }) => ({ report: { status: value.status, summary: value.summary } }),
    },
    async execute(args: { status: Report['status']; summary: string }, exec: ToolRunContext) {
      if (reported) throw new Error(`this run already reported ${reported.status}; a run ends with exactly one report`)
      const summary = args.summary.trim()
      if (summary === '') throw new Error('summary is empty: say what was done, or the question, block or failure')
      reported = { status: args.status, summary }
      onReport(reported)
      exec.concludeTurn()
      return { status: reported.status, summary }
    },
  } as never) as unknown as ToolDefinition
  return { tool, reopen: () => { reported = undefined } }
}
