/**
 * The checks every surface makes before it renders or runs a curated recipe for an agent: the
 * `params` argument's shape, and whether and why a run must be confirmed by a person
 * (`decideRecipeRun`, a Decision of book/approval.ts, which the faces map to their way of asking).
 *
 * The rule: a recipe of risk `medium` or above, or one marked `requires_confirmation`, runs only
 * after a person's yes. Medium recipes change state a person may want back (`git reset --soft
 * HEAD~1` moves a branch), and an agent should not do that on its own; read-only and low ones run.
 * The commands are not judged again when a recipe runs: the validator holds a recipe's declared
 * risk to what its commands do (commands.ts: a step that deletes a tree must be destructive), and
 * a recipe that breaks a rule is not in the library.
 */
import { RUN, type ApprovalNeed, type Decision } from '../book/approval.js'
import { renderRecipe, type RenderedRecipe } from './render.js'
import { riskRank, type Library, type ParamValue, type Platform } from './schema.js'

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

/** Whether a rendered recipe runs only with a person's yes: risk medium or above, or marked for confirmation. */
export function needsConfirmation(rendered: Pick<RenderedRecipe, 'risk' | 'requires_confirmation'>): boolean {
  return rendered.requires_confirmation || riskRank(rendered.risk) >= riskRank('medium')
}

/** Why the recipe is gated, as a clause: its mark, or its risk level. */
function gatedBecause(rendered: RenderedRecipe): string {
  if (rendered.risk === 'destructive') return 'it is destructive'
  if (rendered.requires_confirmation) return `the recipe is marked as needing a person's confirmation (risk ${rendered.risk})`
  return `its risk is ${rendered.risk}, and it changes state a person may want to keep`
}

/** The question for a person: what the recipe is, what it runs, and whether it can be undone. */
export function confirmationAsk(library: Library, rendered: RenderedRecipe): string {
  const title = library.byId.get(rendered.id)?.title ?? rendered.id
  const risk = rendered.risk === 'destructive' ? 'DESTRUCTIVE' : rendered.risk
  const undo = rendered.undo.possible ? '' : `\nIt cannot be undone${rendered.undo.note ? `: ${rendered.undo.note}` : '.'}`
  return `Run the curated recipe "${title}" (${rendered.id}, risk: ${risk})? It runs:\n${rendered.commands.map((c) => `  ${c.command}`).join('\n')}${undo}`
}

/** The rendering a run would use, or undefined when it does not render (execute then reports why). */
function renderedFor(library: Library, args: unknown, platform: Platform): RenderedRecipe | undefined {
  const a = (args ?? {}) as { id?: unknown; params?: unknown }
  if (typeof a.id !== 'string') return undefined
  try {
    return renderRecipe(library, a.id, { platform, params: paramsOf(a) })
  } catch {
    return undefined
  }
}

/** The MCP refusal of a run that needs a person's yes: why, the question to ask, and how to allow it. */
export function confirmationRefusal(library: Library, rendered: RenderedRecipe): string {
  return [
    `Not run: this recipe needs a person's yes, because ${gatedBecause(rendered)}; "confirm": true was not passed.`,
    'Ask the user, and call again with "confirm": true once they agreed:',
    confirmationAsk(library, rendered),
  ].join('\n')
}

/**
 * Whether a rendered recipe runs, or asks: the commands it would run, what the recipe is and does,
 * why it is gated, the question a person is asked, and the refusal without a yes.
 */
export function decideRecipeRun(library: Library, rendered: RenderedRecipe): Decision {
  if (!needsConfirmation(rendered)) return RUN
  return { kind: 'ask', need: recipeNeed(library, rendered), confirmRefusal: confirmationRefusal(library, rendered) }
}

function recipeNeed(library: Library, rendered: RenderedRecipe): ApprovalNeed {
  const title = library.byId.get(rendered.id)?.title ?? rendered.id
  const undo = rendered.undo.possible ? '' : `; it cannot be undone${rendered.undo.note ? ` (${rendered.undo.note.replace(/\.$/, '')})` : ''}`
  return {
    command: rendered.commands.map((c) => c.command).join(' && '),
    reason: `it is the curated recipe "${title}" (${rendered.id}, risk ${rendered.risk}), run as ${rendered.commands.length} command${rendered.commands.length === 1 ? '' : 's'}${undo}`,
    ...(rendered.risk === 'destructive' ? {} : { why: `${gatedBecause(rendered)}, so it runs only after a person approves it` }),
    ask: confirmationAsk(library, rendered),
  }
}

/**
 * The approval a `curated_recipe_run` call needs, or undefined: the commands it would run, what the
 * recipe is and does, why it is gated, and the question a person is asked. A call that does not
 * render needs none (execute reports why it does not).
 */
export function confirmationNeed(library: Library, args: unknown, platform: Platform): ApprovalNeed | undefined {
  const rendered = renderedFor(library, args, platform)
  const decision = rendered && decideRecipeRun(library, rendered)
  return decision?.kind === 'ask' ? decision.need : undefined
}
