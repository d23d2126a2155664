/**
 * Risk reaches a person: a `tools/pre-execute` listener that, for the calls its rule names, asks
 * the harness's approval service itself, so that a refusal can explain what the command does,
 * why it needs approval and how a person allows it (the registry's own refusal when no one can
 * answer, "requires approval, but no approval channel is available", says none of that).
 * Without an approval service the answer is `ask` with that explanation, which the harness turns
 * into a refusal carrying it. Which call asks is not decided here: book/approval.ts decides,
 * curated/confirm.ts for curated recipes; this is how dsh asks.
 *
 * `PreparedCalls` hands what the listener made of a call (resolved, decided, and whether a person
 * allowed it) to the tool's execute, so that a call is resolved and judged once.
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type { ApprovalNeed } from '../book/approval.js'

export type { ApprovalNeed } from '../book/approval.js'

/**
 * The approval a call needs, or undefined to let it through untouched. A plain string is a
 * reason handed to the harness's own approval as is (`ask`), without the explained refusal.
 */
export type ApprovalRule = (exec: Readonly<ToolExecution>) => ApprovalNeed | string | undefined

type Outcome = 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable'
interface ApprovalService {
  request(req: { agent: unknown; toolName: string; callId: string; reason?: string; signal?: AbortSignal }): Promise<Outcome>
}

/** The reason shown to the person asked. */
export function askText(need: ApprovalNeed): string {
  return need.ask ?? `\`${need.command}\` ${need.reason}`
}

/** What the model learns when the command was not run: what, why, and how a person allows it. */
export function refusalText(need: ApprovalNeed, why: string): string {
  return [
    `\`${need.command}\` was not run: ${why}.`,
    `What it does: ${need.reason}.`,
    `Why it needs approval: ${need.why ?? 'it is destructive (it deletes, overwrites, publishes or deploys something that may not be undone), so it runs only after a person approves it'}.`,
    `How to allow it: a person approves the prompt in an interactive dsh session, or runs \`${need.command}\` themselves. Tell the user what you wanted to run and why; do not try another way around this check.`,
  ].join('\n')
}

/**
 * Registers the rule on the calling plugin's context; returns a disposer. `allowed` hears of each
 * call a person allowed, before the call goes on to run.
 */
export function askBeforeRunning(ctx: Context, rule: ApprovalRule, allowed: (exec: Readonly<ToolExecution>) => void = () => {}): () => void {
  return ctx.on('tools/pre-execute', async (exec, next) => {
    let need: ApprovalNeed | string | undefined
    try {
      need = rule(exec)
    } catch (error) {
      need = `the risk of this call could not be judged (${(error as Error)?.message ?? error})`
    }
    if (need === undefined) return next()
    if (typeof need === 'string') return { kind: 'ask', reason: need }
    const approval = (ctx as unknown as { get?: (name: string) => unknown }).get?.('approval') as ApprovalService | undefined
    if (!approval || exec.agent === undefined) return { kind: 'ask', reason: refusalText(need, 'it needs a person\'s approval, and no approval service is loaded') }
    const outcome = await approval.request({ agent: exec.agent, toolName: exec.name, callId: exec.callId, reason: askText(need), signal: exec.signal })
    switch (outcome) {
      case 'allowed-once':
        allowed(exec)
        return next()
      case 'rejected':
        return { kind: 'deny', reason: `the user rejected tool "${exec.name}".\n${refusalText(need, 'the person asked (or the approval policy) said no')}` }
      case 'cancelled':
        return { kind: 'deny', reason: `approval for tool "${exec.name}" was cancelled.\n${refusalText(need, 'the approval prompt was cancelled')}` }
      default:
        return { kind: 'deny', reason: `tool "${exec.name}" requires approval, but no approval channel is available.\n${refusalText(need, 'this session has no one to ask (headless dsh), so it is refused')}` }
    }
  })
}

/** Calls kept at most: a call asked and denied never reaches execute, so its entry is dropped only to make room. */
const KEPT_CALLS = 1000

/**
 * What `tools/pre-execute` made of each call (keyed by call id), for its execute: taken there only
 * for the same arguments, so a call whose arguments changed in between is prepared again, unasked.
 */
export class PreparedCalls<T> {
  readonly #calls = new Map<string, { args: string | undefined; prepared: T; allowed: boolean }>()

  keep(exec: Readonly<ToolExecution>, prepared: T): void {
    this.#calls.delete(exec.callId)
    if (this.#calls.size >= KEPT_CALLS) this.#calls.delete(this.#calls.keys().next().value!)
    this.#calls.set(exec.callId, { args: argsKey(exec.arguments), prepared, allowed: false })
  }

  /** A person allowed this call (askBeforeRunning's `allowed`). */
  allow(exec: Readonly<ToolExecution>): void {
    const kept = this.#calls.get(exec.callId)
    if (kept) kept.allowed = true
  }

  /** The preparation of this call for these arguments, and whether a person allowed it; removed either way. */
  take(exec: Readonly<ToolExecution>, args: unknown): { prepared: T; allowed: boolean } | undefined {
    const kept = this.#calls.get(exec.callId)
    this.#calls.delete(exec.callId)
    return kept && kept.args !== undefined && kept.args === argsKey(args) ? { prepared: kept.prepared, allowed: kept.allowed } : undefined
  }
}

/** The arguments as JSON: dsh hands a tool a frozen copy of what the listeners saw, so equal JSON is the same call. */
function argsKey(args: unknown): string | undefined {
  try {
    return JSON.stringify(args ?? null)
  } catch {
    return undefined // matches nothing: the call is prepared again
  }
}
