/**
 * Structural decoding of one recipe document: required fields, field types, closed vocabularies and
 * unknown fields. Hand-written rather than a JSON Schema validator because every problem needs its
 * own stable code, a path for its position, and a message that names the fix.
 */
import {
  CATEGORIES, PARAM_TYPES, PLATFORMS, RISKS,
  type Category, type CuratedRecipe, type Parameter, type ParamValue, type Platform, type PlatformEntry,
  type Risk, type RuleCode, type Step, type Undo, type VerificationStep,
} from './schema.js'

export type Path = readonly (string | number)[]
/** Where a report points: the value at `path` (default) or the key that names it. */
/** `offset`: a character offset inside a single-line plain scalar value (to point at a placeholder). */
export type Report = (code: RuleCode, path: Path, message: string, options?: { at?: 'key' | 'value'; severity?: 'error' | 'warning'; offset?: number }) => void

const TOP_FIELDS = ['id', 'version', 'title', 'description', 'category', 'tags', 'risk', 'requires_confirmation', 'parameters', 'platforms', 'verification', 'undo', 'pitfalls', 'related'] as const
const REQUIRED_TOP = ['id', 'version', 'title', 'description', 'category', 'tags', 'risk', 'requires_confirmation', 'platforms', 'verification', 'undo'] as const
const PARAM_FIELDS = ['name', 'type', 'description', 'default', 'values', 'pattern', 'pattern_description']
const STEP_FIELDS = ['run', 'purpose', 'risk']
const PLATFORM_FIELDS = ['steps', 'same_as']
const VERIFY_FIELDS = ['run', 'expect']
const UNDO_FIELDS = ['possible', 'steps', 'note']

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const show = (v: unknown) => (typeof v === 'string' ? `\`${v}\`` : JSON.stringify(v))
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`)

/** Decodes `raw` into a recipe, or returns undefined after reporting why it cannot. */
export function decodeRecipe(raw: unknown, file: string, dir: string, report: Report): CuratedRecipe | undefined {
  let ok = true
  const fail: Report = (code, path, message, options) => {
    if ((options?.severity ?? 'error') === 'error') ok = false
    report(code, path, message, options)
  }
  if (!isObj(raw)) {
    fail('E_NOT_A_MAPPING', [], `the recipe document is ${kind(raw)}; write it as a mapping of fields (id: ..., title: ..., ...)`)
    return undefined
  }
  const id = typeof raw.id === 'string' ? raw.id : '(unnamed)'
  const where = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '')

  function unknownFields(obj: Obj, allowed: readonly string[], path: Path) {
    for (const key of Object.keys(obj)) {
      if (allowed.includes(key)) continue
      const close = allowed.find((a) => editDistance(a, key) <= 2)
      fail('E_UNKNOWN_FIELD', [...path, key], `recipe \`${id}\` has unknown field \`${where([...path, key])}\`; ${close ? `did you mean \`${close}\`?` : `allowed here: ${allowed.join(', ')}`}`, { at: 'key' })
    }
  }
  function missing(obj: Obj, names: readonly string[], path: Path, what: string): boolean {
    let all = true
    for (const name of names) {
      if (obj[name] === undefined || obj[name] === null) {
        fail('E_MISSING_FIELD', path, `${what} is missing required field \`${name}\`; add it`)
        all = false
      }
    }
    return all
  }
  function text(v: unknown, path: Path, label: string): string | undefined {
    if (typeof v !== 'string') {
      fail('E_WRONG_TYPE', path, `\`${where(path)}\` of recipe \`${id}\` is ${kind(v)}; write ${label} as a string`)
      return undefined
    }
    if (v.trim() === '') {
      fail('E_EMPTY_TEXT', path, `\`${where(path)}\` of recipe \`${id}\` is blank; write ${label}`)
      return undefined
    }
    return v
  }
  function list(v: unknown, path: Path, label: string): unknown[] | undefined {
    if (!Array.isArray(v)) {
      fail('E_WRONG_TYPE', path, `\`${where(path)}\` of recipe \`${id}\` is ${kind(v)}; write ${label} as a YAML list`)
      return undefined
    }
    return v
  }
  function risk(v: unknown, path: Path): Risk | undefined {
    if (typeof v === 'string' && (RISKS as readonly string[]).includes(v)) return v as Risk
    fail('E_UNKNOWN_RISK', path, `risk ${show(v)} of recipe \`${id}\` is not a risk level; use one of ${RISKS.join(', ')}`)
    return undefined
  }
  function steps(v: unknown, path: Path, label: string): Step[] | undefined {
    const items = list(v, path, label)
    if (!items) return undefined
    return items.map((s, i) => {
      const p = [...path, i]
      if (!isObj(s)) return fail('E_WRONG_TYPE', p, `step \`${where(p)}\` of recipe \`${id}\` is ${kind(s)}; write it as a mapping with \`run\` and \`purpose\``), undefined
      unknownFields(s, STEP_FIELDS, p)
      if (!missing(s, ['run', 'purpose'], p, `step \`${where(p)}\``)) return undefined
      const run = text(s.run, [...p, 'run'], 'the command')
      const purpose = text(s.purpose, [...p, 'purpose'], 'what the step does')
      const r = s.risk === undefined ? undefined : risk(s.risk, [...p, 'risk'])
      return run && purpose ? { run, purpose, ...(r ? { risk: r } : {}) } : undefined
    }) as Step[]
  }

  unknownFields(raw, TOP_FIELDS, [])
  missing(raw, REQUIRED_TOP, [], `recipe \`${id}\``)

  const idValue = raw.id === undefined ? undefined : text(raw.id, ['id'], 'the id')
  let version: number | undefined
  if (raw.version !== undefined && raw.version !== null) {
    if (typeof raw.version === 'number' && Number.isInteger(raw.version) && raw.version >= 1) version = raw.version
    else fail('E_VERSION_INVALID', ['version'], `version ${show(raw.version)} of recipe \`${id}\` is not an integer >= 1; start at 1 and bump it on breaking changes`)
  }
  const title = raw.title == null ? undefined : text(raw.title, ['title'], 'an imperative title')
  const description = raw.description == null ? undefined : text(raw.description, ['description'], 'what the recipe does and why')
  let category: Category | undefined
  if (raw.category != null) {
    if (typeof raw.category === 'string' && (CATEGORIES as readonly string[]).includes(raw.category)) category = raw.category as Category
    else fail('E_UNKNOWN_CATEGORY', ['category'], `category ${show(raw.category)} of recipe \`${id}\` is not a category; use one of ${CATEGORIES.join(', ')}`)
  }
  let tags: string[] | undefined
  if (raw.tags != null) {
    const items = list(raw.tags, ['tags'], 'the tags')
    if (items) tags = items.map((t, i) => (typeof t === 'string' ? t : (fail('E_WRONG_TYPE', ['tags', i], `tag ${show(t)} of recipe \`${id}\` is ${kind(t)}; write tags as words`), '')))
  }
  const recipeRisk = raw.risk == null ? undefined : risk(raw.risk, ['risk'])
  if (raw.requires_confirmation != null && typeof raw.requires_confirmation !== 'boolean') {
    fail('E_WRONG_TYPE', ['requires_confirmation'], `requires_confirmation of recipe \`${id}\` is ${kind(raw.requires_confirmation)}; write true or false`)
  }

  const parameters: Parameter[] = []
  if (raw.parameters != null) {
    const items = list(raw.parameters, ['parameters'], 'the parameters') ?? []
    items.forEach((p, i) => {
      const path = ['parameters', i]
      if (!isObj(p)) return fail('E_WRONG_TYPE', path, `parameter ${i + 1} of recipe \`${id}\` is ${kind(p)}; write it as a mapping with name, type and description`)
      unknownFields(p, PARAM_FIELDS, path)
      if (!missing(p, ['name', 'type', 'description'], path, `parameter ${i + 1} of recipe \`${id}\``)) return
      const name = text(p.name, [...path, 'name'], 'the parameter name')
      const description = text(p.description, [...path, 'description'], 'what the parameter means')
      let type: Parameter['type'] | undefined
      if (typeof p.type === 'string' && (PARAM_TYPES as readonly string[]).includes(p.type)) type = p.type as Parameter['type']
      else fail('E_PARAM_TYPE', [...path, 'type'], `parameter \`${String(p.name)}\` of recipe \`${id}\` has type ${show(p.type)}; use one of ${PARAM_TYPES.join(', ')}`)
      let values: string[] | undefined
      if (p.values !== undefined) {
        const vs = list(p.values, [...path, 'values'], 'the enum values')
        if (vs) values = vs.map((v, j) => (typeof v === 'string' ? v : (fail('E_ENUM_VALUES', [...path, 'values', j], `enum value ${show(v)} of parameter \`${String(p.name)}\` is ${kind(v)}; quote it so it is a string`), '')))
      }
      const pattern = p.pattern === undefined ? undefined : text(p.pattern, [...path, 'pattern'], 'the regular expression')
      const patternDescription = p.pattern_description === undefined ? undefined : text(p.pattern_description, [...path, 'pattern_description'], 'what the pattern accepts')
      const def = p.default
      if (def !== undefined && def !== null && !['string', 'number', 'boolean'].includes(typeof def)) {
        fail('E_DEFAULT_TYPE', [...path, 'default'], `default of parameter \`${String(p.name)}\` is ${kind(def)}; write a ${String(p.type)} value`)
      }
      if (name && description && type) {
        parameters.push({
          name, type, description,
          ...(def !== undefined && def !== null ? { default: def as ParamValue } : {}),
          ...(values ? { values } : {}),
          ...(pattern !== undefined ? { pattern } : {}),
          ...(patternDescription !== undefined ? { pattern_description: patternDescription } : {}),
        })
      }
    })
  }

  const platforms: Partial<Record<Platform, PlatformEntry>> = {}
  if (raw.platforms != null) {
    if (!isObj(raw.platforms)) fail('E_WRONG_TYPE', ['platforms'], `platforms of recipe \`${id}\` is ${kind(raw.platforms)}; write a mapping of macos/linux/windows to steps`)
    else {
      if (Object.keys(raw.platforms).length === 0) fail('E_NO_PLATFORMS', ['platforms'], `recipe \`${id}\` configures no platform; add steps for at least one of ${PLATFORMS.join(', ')}`)
      for (const [name, entry] of Object.entries(raw.platforms)) {
        const path = ['platforms', name]
        if (!(PLATFORMS as readonly string[]).includes(name)) {
          fail('E_UNKNOWN_PLATFORM', path, `recipe \`${id}\` has unknown platform \`${name}\`; use ${PLATFORMS.join(', ')}`, { at: 'key' })
          continue
        }
        if (!isObj(entry)) {
          fail('E_PLATFORM_SHAPE', path, `platform \`${name}\` of recipe \`${id}\` is ${kind(entry)}; give it \`steps:\` or \`same_as: <platform>\``, { at: 'key' })
          continue
        }
        unknownFields(entry, PLATFORM_FIELDS, path)
        const hasSteps = entry.steps !== undefined && entry.steps !== null
        const hasSame = entry.same_as !== undefined && entry.same_as !== null
        if (hasSteps === hasSame) {
          fail('E_PLATFORM_SHAPE', path, `platform \`${name}\` of recipe \`${id}\` has ${hasSteps ? 'both steps and same_as' : 'neither steps nor same_as'}; keep exactly one`, { at: 'key' })
          continue
        }
        if (hasSame) {
          if (typeof entry.same_as !== 'string' || !(PLATFORMS as readonly string[]).includes(entry.same_as)) {
            fail('E_UNKNOWN_PLATFORM', [...path, 'same_as'], `same_as ${show(entry.same_as)} of platform \`${name}\` is not a platform; use ${PLATFORMS.join(', ')}`)
          } else platforms[name as Platform] = { same_as: entry.same_as as Platform }
          continue
        }
        const s = steps(entry.steps, [...path, 'steps'], 'the steps')
        if (s && s.length === 0) fail('E_PLATFORM_SHAPE', [...path, 'steps'], `platform \`${name}\` of recipe \`${id}\` has an empty step list; add steps or use same_as`)
        if (s) platforms[name as Platform] = { steps: s }
      }
    }
  }

  const verification: VerificationStep[] = []
  if (raw.verification != null) {
    const items = list(raw.verification, ['verification'], 'the verification checks')
    if (items && items.length === 0) fail('E_VERIFICATION_EMPTY', ['verification'], `recipe \`${id}\` has no verification; add a read-only check with \`run\` and \`expect\``)
    items?.forEach((v, i) => {
      const path = ['verification', i]
      if (!isObj(v)) return fail('E_WRONG_TYPE', path, `verification ${i + 1} of recipe \`${id}\` is ${kind(v)}; write a mapping with \`run\` and \`expect\``)
      unknownFields(v, VERIFY_FIELDS, path)
      if (!missing(v, ['run', 'expect'], path, `verification ${i + 1} of recipe \`${id}\``)) return
      const run = text(v.run, [...path, 'run'], 'the check command')
      const expect = text(v.expect, [...path, 'expect'], 'what a successful check shows')
      if (run && expect) verification.push({ run, expect })
    })
  }

  let undo: Undo | undefined
  if (raw.undo != null) {
    const u = raw.undo
    if (!isObj(u)) fail('E_WRONG_TYPE', ['undo'], `undo of recipe \`${id}\` is ${kind(u)}; write \`possible: true\` with steps or \`possible: false\` with a note`)
    else {
      unknownFields(u, UNDO_FIELDS, ['undo'])
      if (typeof u.possible !== 'boolean') {
        fail('E_UNDO_SHAPE', ['undo'], `undo of recipe \`${id}\` needs \`possible: true\` or \`possible: false\``)
      } else {
        const s = u.steps === undefined || u.steps === null ? undefined : steps(u.steps, ['undo', 'steps'], 'the undo steps')
        const note = u.note === undefined || u.note === null ? undefined : text(u.note, ['undo', 'note'], 'what cannot be undone')
        undo = { possible: u.possible, ...(s ? { steps: s } : {}), ...(note ? { note } : {}) }
      }
    }
  }

  const strings = (key: 'pitfalls' | 'related', label: string): string[] => {
    if (raw[key] == null) return []
    const items = list(raw[key], [key], label) ?? []
    return items.map((item, i) => text(item, [key, i], key === 'pitfalls' ? 'the pitfall' : 'a recipe id') ?? '')
  }
  const pitfalls = strings('pitfalls', 'the pitfalls')
  const related = strings('related', 'the related recipe ids')

  if (!ok || !idValue || version === undefined || !title || !description || !category || !tags || !recipeRisk || typeof raw.requires_confirmation !== 'boolean' || !undo || raw.platforms == null) return undefined
  return {
    id: idValue, version, title, description, category, tags, risk: recipeRisk,
    requires_confirmation: raw.requires_confirmation, parameters, platforms, verification, undo, pitfalls, related, file, dir,
  }
}

/** Levenshtein distance, for "did you mean" on field names (a handful of short strings). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]!
}
