/**
 * A dispatch's input: validation and normalization, single or batch, before anything is dispatched,
 * and the candidate models it freezes in task.json (with the chef's "Cook models" prompt section).
 * Pure; model availability comes in through an injected check.
 *
 * Validation and normalization of dispatch input, single or batch, before anything is dispatched.
 *
 * Single: `{project, title, brief, model?, rule?}`. Batch: `{tasks: [{title, brief, project?, model?,
 * rule?}, ...], project?, model?, rule?}`; each item inherits `project` from the top level, and its
 * routing (`model` or `rule`) as a unit: an item that sets its own `model` or `rule` inherits neither.
 * A batch has no size cap; the cook cap queues what does not fit.
 *
 * Every problem is a hard failure naming the field and the fix, and nothing is dispatched:
 * - `both_forms`: `title`/`brief` at the top level together with `tasks`.
 * - `no_target`: an effective item without a project.
 * - `rule_with_model`: an effective item with both a rule and a model. The pi-chef contract lets an
 *   explicit model win over a rule; the batch contract forbids combining routing with a model,
 *   because the override would bypass the rule's models. We refuse: whichever one the caller meant,
 *   the other would be silently dropped, and one retry costs less than a task on the wrong model.
 * - `unused_field`: a top-level `project`, `model` or `rule` that no item inherits (never ignored).
 * - `unknown_field`, `missing_field`, `bad_field`, `empty_batch`, `not_object`.
 * A blank `model` is refused (`bad_field`), as the kitchen refuses it; a `null` optional is absent.
 */
import { isRecord } from '../check.js'
import { KitchenError, MAX_BRIEF_CHARS, MAX_TITLE_CHARS, RULE_NAME, isProjectName, type KitchenConfig, type Profile } from '../domain.js'

export interface DispatchItem {
  project: string
  title: string
  brief: string
  model?: string
  rule?: string
}

export type DispatchIssueCode =
  | 'not_object' | 'unknown_field' | 'missing_field' | 'bad_field' | 'both_forms' | 'empty_batch'
  | 'no_target' | 'rule_with_model' | 'unused_field'

export interface DispatchIssue {
  code: DispatchIssueCode
  /** Where: `title`, `tasks[2].model`. */
  path: string
  message: string
}

export type NormalizedDispatch =
  | { ok: true; batch: boolean; items: DispatchItem[] }
  | { ok: false; issues: DispatchIssue[]; error: KitchenError }

const TOP_KEYS = ['project', 'title', 'brief', 'model', 'rule', 'tasks']
const ITEM_KEYS = ['project', 'title', 'brief', 'model', 'rule']

type Fields = { project?: string; title?: string; brief?: string; model?: string; rule?: string }

export function normalizeDispatch(input: unknown): NormalizedDispatch {
  const issues: DispatchIssue[] = []
  const add = (code: DispatchIssueCode, path: string, message: string) => issues.push({ code, path, message })
  if (!isRecord(input)) {
    add('not_object', '$', 'dispatch input must be an object: {project, title, brief} or {tasks: [...]}')
    return refuse(issues)
  }
  const top = fields(input, '', TOP_KEYS, add)
  const tasks = input.tasks ?? undefined
  if (tasks === undefined) {
    for (const k of ['title', 'brief'] as const) if (input[k] == null) add('missing_field', k, `${k} is required; give the task a ${k === 'title' ? 'short title' : 'complete brief'}`)
    if (input.project == null) add('no_target', 'project', 'project is required; name a registered project (chef_board lists them)')
    if (top.model !== undefined && top.rule !== undefined) add('rule_with_model', 'model', ruleWithModel(''))
    if (issues.length > 0) return refuse(issues)
    return { ok: true, batch: false, items: [item(top as Fields & { project: string; title: string; brief: string })] }
  }

  for (const k of ['title', 'brief'] as const) {
    if (input[k] !== undefined && input[k] !== null) add('both_forms', k, `${k} goes in each tasks[] item of a batch; move it into the items, or drop tasks for a single dispatch`)
  }
  if (!Array.isArray(tasks)) {
    add('bad_field', 'tasks', 'tasks must be a list of {title, brief, project?, model?, rule?}')
    return refuse(issues)
  }
  if (tasks.length === 0) add('empty_batch', 'tasks', 'tasks is empty; give at least one {title, brief}, or use the single form')
  let usedProject = false
  let usedRouting = false
  const items: DispatchItem[] = []
  tasks.forEach((raw, i) => {
    const at = `tasks[${i}]`
    if (!isRecord(raw)) return add('bad_field', at, `${at} must be an object {title, brief, project?, model?, rule?}`)
    const own = fields(raw, `${at}.`, ITEM_KEYS, add)
    for (const k of ['title', 'brief'] as const) if (own[k] === undefined && raw[k] == null) add('missing_field', `${at}.${k}`, `${at}.${k} is required`)
    const project = own.project ?? top.project
    if (own.project === undefined && top.project !== undefined) usedProject = true
    if (project === undefined && raw.project == null) add('no_target', `${at}.project`, `${at} has no project; set project on the item or at the top level`)
    const ownRouting = own.model !== undefined || own.rule !== undefined || raw.model != null || raw.rule != null
    const model = ownRouting ? own.model : top.model
    const rule = ownRouting ? own.rule : top.rule
    if (!ownRouting && (top.model !== undefined || top.rule !== undefined)) usedRouting = true
    if (model !== undefined && rule !== undefined) add('rule_with_model', `${at}`, ruleWithModel(ownRouting ? `${at}.` : ''))
    if (project !== undefined && own.title !== undefined && own.brief !== undefined) {
      items.push(item({ project, title: own.title, brief: own.brief, model, rule }))
    }
  })
  if (tasks.length > 0) {
    if (top.project !== undefined && !usedProject) add('unused_field', 'project', 'the top-level project applies to no task, because every task sets its own; remove it')
    for (const k of ['model', 'rule'] as const) {
      if (top[k] !== undefined && !usedRouting) add('unused_field', k, `the top-level ${k} applies to no task, because every task sets its own model or rule; remove it`)
    }
  }
  if (issues.length > 0) return refuse(issues)
  return { ok: true, batch: true, items }
}

function ruleWithModel(prefix: string): string {
  return `${prefix}model and ${prefix}rule are both set; pass either model or rule, not both: a rule picks the models, an explicit model bypasses it`
}

function item(f: Fields & { project: string; title: string; brief: string }): DispatchItem {
  const out: DispatchItem = { project: f.project, title: f.title, brief: f.brief }
  if (f.model !== undefined) out.model = f.model
  if (f.rule !== undefined) out.rule = f.rule
  return out
}

/** Checks the known string fields of one object; unknown keys are issues, never ignored. */
function fields(o: Record<string, unknown>, prefix: string, keys: string[], add: (c: DispatchIssueCode, p: string, m: string) => void): Fields {
  const out: Fields = {}
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) add('unknown_field', `${prefix}${k}`, `${prefix}${k} is not a dispatch field; the fields are ${keys.join(', ')}`)
  }
  for (const k of ['project', 'title', 'brief', 'model', 'rule'] as const) {
    if (!keys.includes(k)) continue
    const v = o[k]
    if (v === undefined || v === null) continue
    const path = `${prefix}${k}`
    if (typeof v !== 'string') {
      add('bad_field', path, `${path} must be a string`)
      continue
    }
    if (k === 'title' || k === 'brief') {
      const max = k === 'title' ? MAX_TITLE_CHARS : MAX_BRIEF_CHARS
      if (v.trim() === '') add('bad_field', path, `${path} is blank`)
      else if (v.trim().length > max) add('bad_field', path, `${path} is ${v.trim().length} characters long; ${k === 'title' ? 'a title is one short line of' : 'a brief holds'} at most ${max}${k === 'brief' ? '; put the rest in a file of the project and name it in the brief' : ''}`)
      else if (k === 'title' && /[\r\n\u2028\u2029]/.test(v.trim())) add('bad_field', path, `${path} has a line break; a title is one line (the brief takes the rest)`)
      else out[k] = v.trim()
    } else if (k === 'project') {
      if (!isProjectName(v.trim())) add('bad_field', path, `${path} "${v}" is not a project name; chef_board lists the projects`)
      else out.project = v.trim()
    } else if (k === 'model') {
      if (v.trim() === '') add('bad_field', path, `${path} is blank; name a model as "provider/id", or leave ${k} out`)
      else if (/\s/.test(v.trim())) add('bad_field', path, `${path} "${v}" has spaces; name a model as "provider/id"`)
      else out.model = v.trim()
    } else {
      if (!RULE_NAME.test(v.trim())) add('bad_field', path, `${path} "${v}" is not a rule name (lowercase letters, digits and dashes)`)
      else out.rule = v.trim()
    }
  }
  return out
}

function refuse(issues: DispatchIssue[]): NormalizedDispatch {
  const code = issues.every((i) => i.code === 'rule_with_model') ? 'KITCHEN_RULE_WITH_MODEL' : 'KITCHEN_BAD_INPUT'
  const error = new KitchenError(code, `nothing was dispatched: ${issues.map((i) => i.message).join('; ')}`)
  return { ok: false, issues, error }
}

// ---------------------------------------------------------------- models

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
