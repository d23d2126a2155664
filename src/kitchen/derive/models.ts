/**
 * Cook model selection: the candidates a dispatch freezes in task.json, and the chef's "Cook models"
 * prompt section. Pure; availability comes in through an injected check.
 */
import { KitchenError, type KitchenConfig, type Profile } from '../domain.js'

/** Whether a model can run here (the harness knows it and its provider has credentials). */
export type ModelCheck = (model: string) => { ok: true } | { ok: false; reason: string }

export interface Skipped {
  model: string
  reason: string
}

export interface Selection {
  /** The candidates in order; empty when nothing is configured (the harness picks its default). */
  models: Profile[]
  rule?: string
  /** Candidates dropped because they cannot run, with why. */
  skipped: Skipped[]
}

/**
 * Builds a dispatch's candidates. An explicit `model` is candidate one, else the rule's `use` comes
 * first; the default list follows in both cases; each model once, at its first place.
 *
 * A dispatch that names both `model` and `rule` is refused (KITCHEN_RULE_WITH_MODEL): the rule would
 * be silently dropped by the explicit model, so the caller picks one. Unknown rules are refused with
 * the rule names. With a check, unavailable candidates are dropped with their reasons, and when
 * candidates were configured and none is left the dispatch is refused with every reason.
 */
export function selectModels(
  input: { model?: string; rule?: string },
  models: KitchenConfig['models'],
  check?: ModelCheck,
): Selection {
  const { model, rule } = input
  if (model !== undefined && model.trim() === '') {
    throw new KitchenError('KITCHEN_BAD_INPUT', 'model is blank; name a model as "provider/id", or leave model out to use the rule or the default models')
  }
  if (model !== undefined && /\s/.test(model.trim())) {
    throw new KitchenError('KITCHEN_BAD_INPUT', `model "${model}" has spaces; name a model as "provider/id"`)
  }
  if (model !== undefined && rule !== undefined) {
    throw new KitchenError('KITCHEN_RULE_WITH_MODEL', `pass either model or rule, not both: drop rule to run on ${model.trim()} first, or drop model to use the models of rule "${rule}"`)
  }
  let first: Profile[] = []
  if (model !== undefined) first = [{ model: model.trim() }]
  else if (rule !== undefined) {
    const found = models.rules.find((r) => r.name === rule)
    if (!found) {
      const names = models.rules.map((r) => r.name)
      throw new KitchenError('KITCHEN_UNKNOWN_RULE', names.length > 0
        ? `unknown rule "${rule}"; the rules are ${names.join(', ')} (or pass no rule for the default models)`
        : `unknown rule "${rule}"; the config has no model rules, so pass no rule`)
    }
    first = found.use
  }
  const seen = new Set<string>()
  const wanted: Profile[] = []
  for (const p of [...first, ...models.default]) {
    if (seen.has(p.model)) continue
    seen.add(p.model)
    wanted.push(p)
  }
  const skipped: Skipped[] = []
  const kept = check
    ? wanted.filter((p) => {
        const r = check(p.model)
        if (!r.ok) skipped.push({ model: p.model, reason: r.reason })
        return r.ok
      })
    : wanted
  if (wanted.length > 0 && kept.length === 0) {
    throw new KitchenError('KITCHEN_NO_MODEL', `no candidate model can run: ${skipped.map((s) => `${s.model} (${s.reason})`).join('; ')}. Configure credentials for one of them, or pass another model`)
  }
  return rule === undefined ? { models: kept, skipped } : { models: kept, rule, skipped }
}

function profileText(p: Profile): string {
  return p.thinking ? `${p.model} (thinking ${p.thinking})` : p.model
}

/**
 * The "Cook models" section of the chef's system prompt: each rule with its name, when, why and
 * models, then the default list, and how to choose. Undefined without rules: nothing to choose.
 */
export function modelsPrompt(models: KitchenConfig['models']): string | undefined {
  if (models.rules.length === 0) return undefined
  const lines = [
    '## Cook models',
    '',
    'Pick the rule that fits the task best and pass its name as `rule` to chef_dispatch. Pass no rule to use the default models. Pass `model` only when the human asks for a specific model, and then no rule.',
    '',
  ]
  for (const r of models.rules) {
    lines.push(`- \`${r.name}\`: ${r.when}${r.why ? ` Why: ${r.why}` : ''} Models: ${r.use.map(profileText).join(', ')}.`)
  }
  lines.push('', models.default.length > 0
    ? `Default models (after the rule's, and alone with no rule): ${models.default.map(profileText).join(', ')}.`
    : 'No default models: with no rule, the cook runs on the harness default model.')
  return lines.join('\n')
}
