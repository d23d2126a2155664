/**
 * Wakes into the chef's agent: a follow-up message, which starts a turn when the agent is idle and
 * waits for the next turn when it is busy. Handing it over is not delivery: the core's `deliver`
 * resolves true only on `agent/inbox/claimed` for that message id (a turn took it), and false on
 * `agent/inbox/discarded` (a cancel or shutdown dropped it), so the kitchen sends it again. A wake
 * never goes to a disposed agent: the registry must still hold that exact agent.
 */
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type { Wake } from '../kitchen/index.js'

export interface WakeAgent {
  readonly id: string
  followup(message: unknown): unknown
}

export interface WakeHost {
  /** The agent to wake now, or undefined (no chef session). */
  target(): WakeAgent | undefined
  /** Whether the registry still holds this exact agent. */
  alive(agent: WakeAgent): boolean
}

export const WAKE_PLUGIN = 'command-scout-kitchen'

export class WakeDelivery {
  private readonly pending = new Map<string, { agent: WakeAgent; resolve: (ok: boolean) => void }>()

  constructor(private readonly host: WakeHost) {}

  /** The core's `deliver`. */
  readonly deliver = (wake: Wake): Promise<boolean> => {
    const agent = this.host.target()
    if (!agent || !this.host.alive(agent)) return Promise.resolve(false)
    const message = createUserMessage({
      content: [{ type: 'text', text: wake.text }],
      source: { kind: 'plugin', plugin: WAKE_PLUGIN, form: 'notice', summary: wake.text.split('\n').find((l) => l.startsWith('Kitchen update')) ?? 'Kitchen update' },
    } as never) as { id: string }
    return new Promise<boolean>((resolve) => {
      this.pending.set(message.id, { agent, resolve })
      try {
        agent.followup(message)
      } catch {
        this.settle(message.id, false)
      }
    })
  }

  /** `agent/inbox/claimed`: a turn took the message. */
  claimed(messageId: string): void {
    this.settle(messageId, true)
  }

  /** `agent/inbox/discarded`: dropped; the kitchen sends it again. */
  discarded(messageId: string): void {
    this.settle(messageId, false)
  }

  /** The agent went away: its pending wakes were not delivered. */
  agentGone(agentId: string): void {
    for (const [id, p] of this.pending) if (p.agent.id === agentId) this.settle(id, false)
  }

  /** The service stops: nothing pending was delivered. */
  dispose(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, false)
  }

  isPending(messageId: string): boolean {
    return this.pending.has(messageId)
  }

  private settle(messageId: string, ok: boolean): void {
    const p = this.pending.get(messageId)
    if (!p) return
    this.pending.delete(messageId)
    p.resolve(ok)
  }
}
