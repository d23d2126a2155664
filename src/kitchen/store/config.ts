/**
 * Kitchen config normalization: what a person writes (config.json or the harness's config layer) to
 * the `KitchenConfig` the kitchen uses. Never throws. Any error line makes the kitchen use the
 * defaults, so a half-understood config never half-applies; every problem is listed, not only the first.
 * The exceptions are the older field name `recipe`, which loads with a line asking for the rename,
 * and `cookCommand`, which is never taken from a config and says so.
 */
import { isRecord } from '../check.js'
import {
  isProjectName, RULE_NAME, RULEBOOK_NAME, THINKING_LEVELS,
  type KitchenConfig, type ModelRule, type Profile, type RulebookSelection, type ThinkingLevel,
} from '../domain.js'

export const DEFAULT_KITCHEN_CONFIG: Readonly<KitchenConfig> = Object.freeze({
  maxCooks: 3,
  models: { rules: [], default: [] },
  cookArgs: [],
  rulebook: { projects: new Map() },
  killGraceMs: 5_000,
  exitGraceMs: 10_000,
  exitWaitMs: 5_000,
  reclaimAfterMs: 30_000,
})

export function defaultKitchenConfig(): KitchenConfig {
  return { ...DEFAULT_KITCHEN_CONFIG, models: { rules: [], default: [] }, cookArgs: [], rulebook: { projects: new Map() } }
}

export interface NormalizedConfig {
  config: KitchenConfig
  /** One line per problem, each naming the field and the fix. Empty when the config is good. */
  errors: string[]
}

const DURATIONS = ['killGraceMs', 'exitGraceMs', 'exitWaitMs', 'reclaimAfterMs'] as const
const KEYS = ['maxCooks', 'models', 'model', 'thinking', 'cookArgs', 'cookCommand', 'rulebook', 'recipe', ...DURATIONS]

/**
 * `raw` is the parsed file (undefined when there is none). `source` names it in the error lines.
 * `fromHost`: the config comes from the kitchen's host (the harness row), which alone may set what
 * a cook is launched with (`cookArgs`); from a file those are ignored with a note.
 */
export function normalizeKitchenConfig(raw: unknown, source = 'config.json', fromHost = false): NormalizedConfig {
  const config = defaultKitchenConfig()
  if (raw === undefined || raw === null) return { config, errors: [] }
  if (!isRecord(raw)) return { config, errors: [`${source} must hold a JSON object, not ${kind(raw)}; the kitchen uses the defaults`] }
  const errors: string[] = []
  const err = (line: string) => errors.push(`${source}: ${line}`)
  const notes: string[] = []

  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) err(`unknown field "${key}"; the fields are ${KEYS.filter((k) => k !== 'recipe').join(', ')}`)

  if (raw.maxCooks !== undefined) {
    if (Number.isSafeInteger(raw.maxCooks) && (raw.maxCooks as number) >= 1) config.maxCooks = raw.maxCooks as number
    else err(`maxCooks must be a whole number >= 1, not ${kind(raw.maxCooks)}`)
  }
  for (const key of DURATIONS) {
    const v = raw[key]
    if (v === undefined) continue
    if (Number.isSafeInteger(v) && (v as number) >= 0) config[key] = v as number
    else err(`${key} must be a whole number of milliseconds >= 0, not ${kind(v)}`)
  }
  if (raw.cookArgs !== undefined) {
    if (!(Array.isArray(raw.cookArgs) && raw.cookArgs.every((a) => typeof a === 'string'))) err(`cookArgs must be a list of strings, for example ["--patch", "rulebook.yml"]`)
    else if (fromHost) config.cookArgs = [...raw.cookArgs]
    else if (raw.cookArgs.length > 0) notes.push(`${source}: cookArgs is ignored here; what a cook is launched with comes only from the kitchen's host (the kitchen row's cookArgs in dsh)`)
  }
  // The launch command is never read from here: a config file is data any process in the kitchen
  // directory could rewrite, and a command in it would run at every later launch. It comes only
  // from the kitchen's host (KitchenDeps.cookCommand: the harness row's cookCommand).
  if (raw.cookCommand !== undefined) notes.push(`${source}: cookCommand is ignored here; the cook command comes only from the kitchen's host (the kitchen row's cookCommand in dsh)`)

  config.models = models(raw, err)

  if (raw.rulebook !== undefined && raw.recipe !== undefined) {
    err('has both "rulebook" and its older name "recipe"; keep "rulebook" and remove "recipe"')
  } else if (raw.rulebook !== undefined || raw.recipe !== undefined) {
    const field = raw.rulebook !== undefined ? 'rulebook' : 'recipe'
    if (field === 'recipe') notes.push(`${source}: the field "recipe" is now "rulebook"; rename it (the value is used as it is)`)
    const sel = rulebook(raw[field], field, err)
    if (sel) config.rulebook = sel
  }

  if (errors.length > 0) return { config: defaultKitchenConfig(), errors: [...errors, `${source}: the kitchen uses the default config until this is fixed`] }
  return { config, errors: notes }
}

function models(raw: Record<string, unknown>, err: (line: string) => void): KitchenConfig['models'] {
  const out: KitchenConfig['models'] = { rules: [], default: [] }
  const hasOld = raw.model !== undefined || raw.thinking !== undefined
  if (raw.models !== undefined && hasOld) {
    err('has "models" and the older "model"/"thinking"; move them into models.default and remove them')
    return out
  }
  if (hasOld) {
    if (raw.model === undefined) {
      err('has "thinking" but no "model"; add "model" or move both into models.default')
      return out
    }
    const p = prof({ model: raw.model, thinking: raw.thinking }, 'model', err)
    if (p) out.default = [p]
    return out
  }
  if (raw.models === undefined) return out
  const m = raw.models
  if (!isRecord(m)) {
    err(`models must be an object {rules?, default?}, not ${kind(m)}`)
    return out
  }
  for (const key of Object.keys(m)) if (key !== 'rules' && key !== 'default') err(`models has the unknown key "${key}"; the keys are rules, default`)
  if (m.default !== undefined) out.default = profiles(m.default, 'models.default', err, true)
  if (m.rules !== undefined) {
    if (!Array.isArray(m.rules)) err(`models.rules must be a list of {name, when, use, why?}, not ${kind(m.rules)}`)
    else {
      const seen = new Set<string>()
      m.rules.forEach((r, i) => {
        const rule = modelRule(r, `models.rules[${i}]`, err)
        if (!rule) return
        if (seen.has(rule.name)) err(`models.rules[${i}].name "${rule.name}" is used twice; rule names must be unique`)
        seen.add(rule.name)
        out.rules.push(rule)
      })
    }
  }
  return out
}

function modelRule(r: unknown, at: string, err: (line: string) => void): ModelRule | undefined {
  if (!isRecord(r)) return void err(`${at} must be an object {name, when, use, why?}, not ${kind(r)}`)
  let ok = true
  const bad = (line: string) => {
    ok = false
    err(line)
  }
  for (const key of Object.keys(r)) if (!['name', 'when', 'use', 'why'].includes(key)) bad(`${at} has the unknown key "${key}"; the keys are name, when, use, why`)
  if (typeof r.name !== 'string' || !RULE_NAME.test(r.name)) bad(`${at}.name must match [a-z0-9][a-z0-9-]*, not ${kind(r.name)}`)
  if (typeof r.when !== 'string' || r.when.trim() === '') bad(`${at}.when must say in words which tasks the rule fits`)
  if (r.why !== undefined && typeof r.why !== 'string') bad(`${at}.why must be a string`)
  const use = r.use === undefined ? (err(`${at}.use must name a model or a list of models`), []) : profiles(r.use, `${at}.use`, err, false)
  if (!ok || use.length === 0) return undefined
  return r.why === undefined
    ? { name: r.name as string, when: r.when as string, use }
    : { name: r.name as string, when: r.when as string, use, why: r.why as string }
}

/** A single profile is a list of one. */
function profiles(v: unknown, at: string, err: (line: string) => void, emptyOk: boolean): Profile[] {
  const list = Array.isArray(v) ? v : [v]
  if (list.length === 0 && !emptyOk) err(`${at} must name at least one model`)
  const out: Profile[] = []
  list.forEach((p, i) => {
    const one = prof(p, Array.isArray(v) ? `${at}[${i}]` : at, err)
    if (one) out.push(one)
  })
  return out
}

function prof(p: unknown, at: string, err: (line: string) => void): Profile | undefined {
  if (typeof p === 'string') p = { model: p }
  if (!isRecord(p)) return void err(`${at} must be {model, thinking?}, not ${kind(p)}`)
  let ok = true
  const bad = (line: string) => {
    ok = false
    err(line)
  }
  for (const key of Object.keys(p)) if (key !== 'model' && key !== 'thinking') bad(`${at} has the unknown key "${key}"; the keys are model, thinking`)
  if (typeof p.model !== 'string' || !/^\S+$/.test(p.model)) bad(`${at}.model must be a model name like "provider/id", not ${kind(p.model)}`)
  if (p.thinking !== undefined && !(THINKING_LEVELS as readonly unknown[]).includes(p.thinking)) {
    ok = false
    err(`${at}.thinking must be one of ${THINKING_LEVELS.join(', ')}, not ${kind(p.thinking)}`)
  }
  if (!ok) return undefined
  return p.thinking === undefined ? { model: p.model as string } : { model: p.model as string, thinking: p.thinking as ThinkingLevel }
}

function rulebook(v: unknown, field: string, err: (line: string) => void): RulebookSelection | undefined {
  const name = (x: unknown, at: string) => {
    if (typeof x === 'string' && RULEBOOK_NAME.test(x)) return true
    err(`${at} must be a rulebook name matching [a-z0-9-]+ or "none", not ${kind(x)}`)
    return false
  }
  if (typeof v === 'string') return name(v, field) ? { default: v, projects: new Map() } : undefined
  if (!isRecord(v)) return void err(`${field} must be a rulebook name or {default?, projects?}, not ${kind(v)}`)
  let ok = true
  const bad = (line: string) => {
    ok = false
    err(line)
  }
  for (const key of Object.keys(v)) if (key !== 'default' && key !== 'projects') bad(`${field} has the unknown key "${key}"; the keys are default, projects`)
  const sel: RulebookSelection = { projects: new Map() }
  if (v.default !== undefined) {
    if (!name(v.default, `${field}.default`)) ok = false
    sel.default = v.default as string
  }
  if (v.projects !== undefined) {
    if (!isRecord(v.projects)) return void err(`${field}.projects must map project names to rulebook names, not ${kind(v.projects)}`)
    for (const [project, rb] of Object.entries(v.projects)) {
      if (!isProjectName(project)) bad(`${field}.projects has the key "${project}", which is not a project name`)
      else if (name(rb, `${field}.projects.${project}`)) sel.projects.set(project, rb as string)
      else ok = false
    }
  }
  return ok ? sel : undefined
}

function kind(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'string') return JSON.stringify(v)
  return typeof v === 'object' ? 'an object' : String(v)
}
