/**
 * Risk reaches the harness's approval: a `tools/pre-execute` listener that answers `ask` with a
 * reason for the calls `decide` names, so the harness's approval service (or policy) decides.
 * Without an approval service an `ask` is refused with the reason.
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

/** The reason a call needs approval, or undefined to let it through untouched. */
export type ApprovalRule = (exec: Readonly<ToolExecution>) => string | undefined

/** Registers the rule on the calling plugin's context; returns a disposer. */
export function askBeforeRunning(ctx: Context, rule: ApprovalRule): () => void {
  return ctx.on('tools/pre-execute', async (exec, next) => {
    let reason: string | undefined
    try {
      reason = rule(exec)
    } catch (error) {
      reason = `the risk of this call could not be judged (${(error as Error)?.message ?? error})`
    }
    return reason === undefined ? next() : { kind: 'ask', reason }
  })
}
