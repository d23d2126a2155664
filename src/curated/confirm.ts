/**
 * The checks every surface makes before it renders or runs a curated recipe for an agent: the
 * `params` argument's shape, and why a run must be confirmed by a person (the ask's text).
 */
import type { ApprovalNeed } from '../plugin/approval.js'
import { renderRecipe, type RenderedRecipe } from './render.js'
import type { Library, ParamValue, Platform } from './schema.js'

type Params = Record<string, ParamValue>

export function paramsOf(args: { params?: unknown }): Params {
  const p = args.params
  if (p === undefined || p === null) return {}
  if (typeof p !== 'object' || Array.isArray(p)) throw new Error('params must be an object of parameter name to value, e.g. {"port": 3000}')
  for (const [k, v] of Object.entries(p)) {
    if (!['string', 'number', 'boolean'].includes(typeof v)) throw new Error(`parameter \`${k}\` must be a string, number or boolean`)
  }
  return p as Params
}

/** Why a `curated_recipe_run` call must be confirmed, or undefined. Render failures pass through to execute, which reports them. */
export function confirmationReason(library: Library, args: unknown, platform: Platform): string | undefined {
  const a = (args ?? {}) as { id?: unknown; params?: unknown }
  if (typeof a.id !== 'string') return undefined
  let rendered: RenderedRecipe
  try {
    rendered = renderRecipe(library, a.id, { platform, params: paramsOf(a) })
  } catch {
    return undefined
  }
  if (!rendered.requires_confirmation) return undefined
  const title = library.byId.get(a.id)!.title
  const risk = rendered.risk === 'destructive' ? 'DESTRUCTIVE' : rendered.risk
  return `Run the curated recipe "${title}" (${rendered.id}, risk: ${risk})? It runs:\n${rendered.commands.map((c) => `  ${c.command}`).join('\n')}${rendered.undo.possible ? '' : `\nIt cannot be undone${rendered.undo.note ? `: ${rendered.undo.note}` : '.'}`}`
}


/**
 * The approval a `curated_recipe_run` call needs in dsh, or undefined: the commands it would run,
 * what the recipe is and does, why it is gated, and the question a person is asked.
 */
export function confirmationNeed(library: Library, args: unknown, platform: Platform): ApprovalNeed | undefined {
  const ask = confirmationReason(library, args, platform)
  if (!ask) return undefined
  const a = args as { id: string; params?: unknown }
  const rendered = renderRecipe(library, a.id, { platform, params: paramsOf(a) })
  const title = library.byId.get(a.id)!.title
  const undo = rendered.undo.possible ? '' : `; it cannot be undone${rendered.undo.note ? ` (${rendered.undo.note.replace(/\.$/, '')})` : ''}`
  return {
    command: rendered.commands.map((c) => c.command).join(' && '),
    reason: `it is the curated recipe "${title}" (${rendered.id}, risk ${rendered.risk}), run as ${rendered.commands.length} command${rendered.commands.length === 1 ? '' : 's'}${undo}`,
    ...(rendered.risk === 'destructive' ? {} : { why: `the recipe is marked as needing a person's confirmation (risk ${rendered.risk}), so it runs only after a person approves it` }),
    ask,
  }
}
