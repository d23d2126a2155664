/**
 * The rulebook contract (the seed's "recipe" add-ons, under this project's name): a rulebook is a
 * named set of working rules for the chef and for cooks, shipped as its own plugin row. It
 * - answers the discovery request `kitchen/rulebooks:v1` by pushing its name;
 * - at each prompt assembly asks the role of the agent (`kitchen/role:v1`), and adds its block for
 *   that role only when the answer's `rulebook` is unset (no selection) or names it; `none` or
 *   another name means no block, and no role (a plain session) means no block;
 * - starts each block with `# Rulebook: <name>`.
 * `rulebookPlugin` builds such a plugin from the two blocks; a third party can do the same.
 */
import type { Context } from '@deepseek-ai/cordis'
import { RULEBOOKS_EVENT, ROLE_EVENT, isRulebooksRequest, type RoleRequest } from './events.js'

export const RULEBOOK_NAME = /^[a-z0-9-]+$/

export interface RulebookText {
  /** The rules for the chef; absent: the rulebook has none for the chef. */
  chef?: string
  cook?: string
}

export function rulebookHeading(name: string): string {
  return `# Rulebook: ${name}`
}

/** The block a role gets from rulebook `name`, or '' (see the contract above). */
export function rulebookBlock(name: string, text: RulebookText, answer: Pick<RoleRequest, 'role' | 'rulebook'>): string {
  if (!answer.role) return ''
  if (answer.rulebook !== undefined && answer.rulebook !== name) return ''
  const body = text[answer.role]
  return body ? `${rulebookHeading(name)}\n\n${body.trim()}` : ''
}

export interface RulebookPlugin {
  name: string
  inject: string[]
  apply(ctx: Context): void
}

export function rulebookPlugin(name: string, text: RulebookText): RulebookPlugin {
  if (!RULEBOOK_NAME.test(name) || name === 'none') throw new Error(`rulebook name "${name}" must match [a-z0-9-]+ and not be "none"`)
  return {
    name: `command-scout-rulebook-${name}`,
    inject: ['systemPrompt'],
    apply(ctx: Context) {
      const c = ctx as unknown as {
        on(e: string, f: (r: unknown) => void): void
        emit(e: string, r: unknown): void
        systemPrompt: { section(s: unknown): () => void }
      }
      c.on(RULEBOOKS_EVENT, (request) => {
        if (isRulebooksRequest(request) && !request.rulebooks.includes(name)) request.rulebooks.push(name)
      })
      ctx.effect(() => c.systemPrompt.section({
        name: `command-scout:rulebook:${name}`,
        order: 160,
        text: (context: { agent?: { id: string } }) => {
          const request: RoleRequest = { version: 1, ...(context.agent ? { agentId: context.agent.id } : {}) }
          c.emit(ROLE_EVENT, request)
          return rulebookBlock(name, text, request)
        },
      }), `rulebook ${name}`)
    },
  }
}
