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

const TOP_FIELDS = [
  'id', 'version', 'title', 'description', 'category', 'tags', 'risk', 'requires_confirmation', 'parameters', 'platforms', 'verification', 'undo',
  'pitfalls', 'related',
] as const
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
  if (!isObj(raw)) {
    report('E_NOT_A_MAPPING', [], `the recipe document is ${kind(raw)}; write it as a mapping of fields (id: ..., title: ..., ...)`, undefined)
    return undefined
  }
  return new RecipeDecoder(raw, report).decode(file, dir)
}

const where = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '')

/** The fields that come before the lists: what the recipe is, and how risky. */
interface Header {
  idValue: string | undefined
  version: number | undefined
  title: string | undefined
  description: string | undefined
  category: Category | undefined
  tags: string[] | undefined
  recipeRisk: Risk | undefined
}

/**
 * One recipe document, decoded field by field in the document's order (so the reports come in
 * that order too); any error report makes the whole decode fail.
 */
class RecipeDecoder {
  private readonly raw: Obj
  private readonly report: Report
  private readonly id: string
  private ok = true

  constructor(raw: Obj, report: Report) {
    this.raw = raw
    this.report = report
    this.id = typeof raw.id === 'string' ? raw.id : '(unnamed)'
  }

  private fail(code: RuleCode, path: Path, message: string, options?: Parameters<Report>[3]): void {
    if ((options?.severity ?? 'error') === 'error') this.ok = false
    this.report(code, path, message, options)
  }

  decode(file: string, dir: string): CuratedRecipe | undefined {
    const raw = this.raw
    this.unknownFields(raw, TOP_FIELDS, [])
    this.missing(raw, REQUIRED_TOP, [], `recipe \`${this.id}\``)
    const { idValue, version, title, description, category, tags, recipeRisk } = this.header()
    const parameters = this.parameters()
    const platforms = this.platforms()
    const verification = this.verification()
    const undo = this.undo()
    const pitfalls = this.strings('pitfalls', 'the pitfalls')
    const related = this.strings('related', 'the related recipe ids')
    if (!this.ok || !idValue || version === undefined || !title || !description || !category || !tags || !recipeRisk
      || typeof raw.requires_confirmation !== 'boolean' || !undo || raw.platforms == null) return undefined
    return {
      id: idValue, version, title, description, category, tags, risk: recipeRisk,
      requires_confirmation: raw.requires_confirmation, parameters, platforms, verification, undo, pitfalls, related, file, dir,
    }
  }

  private unknownFields(obj: Obj, allowed: readonly string[], path: Path): void {
    for (const key of Object.keys(obj)) {
      if (allowed.includes(key)) continue
      const close = allowed.find((a) => editDistance(a, key) <= 2)
      const hint = close ? `did you mean \`${close}\`?` : `allowed here: ${allowed.join(', ')}`
      this.fail('E_UNKNOWN_FIELD', [...path, key], `recipe \`${this.id}\` has unknown field \`${where([...path, key])}\`; ${hint}`, { at: 'key' })
    }
  }

  private missing(obj: Obj, names: readonly string[], path: Path, what: string): boolean {
    let all = true
    for (const name of names) {
      if (obj[name] === undefined || obj[name] === null) {
        this.fail('E_MISSING_FIELD', path, `${what} is missing required field \`${name}\`; add it`)
        all = false
      }
    }
    return all
  }

  private text(v: unknown, path: Path, label: string): string | undefined {
    if (typeof v !== 'string') {
      this.fail('E_WRONG_TYPE', path, `\`${where(path)}\` of recipe \`${this.id}\` is ${kind(v)}; write ${label} as a string`)
      return undefined
    }
    if (v.trim() === '') {
      this.fail('E_EMPTY_TEXT', path, `\`${where(path)}\` of recipe \`${this.id}\` is blank; write ${label}`)
      return undefined
    }
    return v
  }

  private list(v: unknown, path: Path, label: string): unknown[] | undefined {
    if (!Array.isArray(v)) {
      this.fail('E_WRONG_TYPE', path, `\`${where(path)}\` of recipe \`${this.id}\` is ${kind(v)}; write ${label} as a YAML list`)
      return undefined
    }
    return v
  }

  private risk(v: unknown, path: Path): Risk | undefined {
    if (typeof v === 'string' && (RISKS as readonly string[]).includes(v)) return v as Risk
    this.fail('E_UNKNOWN_RISK', path, `risk ${show(v)} of recipe \`${this.id}\` is not a risk level; use one of ${RISKS.join(', ')}`)
    return undefined
  }

  private steps(v: unknown, path: Path, label: string): Step[] | undefined {
    const items = this.list(v, path, label)
    if (!items) return undefined
    return items.map((s, i) => {
      const p = [...path, i]
      if (!isObj(s)) {
        this.fail('E_WRONG_TYPE', p, `step \`${where(p)}\` of recipe \`${this.id}\` is ${kind(s)}; write it as a mapping with \`run\` and \`purpose\``)
        return undefined
      }
      this.unknownFields(s, STEP_FIELDS, p)
      if (!this.missing(s, ['run', 'purpose'], p, `step \`${where(p)}\``)) return undefined
      const run = this.text(s.run, [...p, 'run'], 'the command')
      const purpose = this.text(s.purpose, [...p, 'purpose'], 'what the step does')
      const r = s.risk === undefined ? undefined : this.risk(s.risk, [...p, 'risk'])
      return run && purpose ? { run, purpose, ...(r ? { risk: r } : {}) } : undefined
    }) as Step[]
  }

  /** id, version, title, description, category, tags, risk and requires_confirmation. */
  private header(): Header {
    const { raw, id } = this
    const idValue = raw.id === undefined ? undefined : this.text(raw.id, ['id'], 'the id')
    let version: number | undefined
    if (raw.version !== undefined && raw.version !== null) {
      if (typeof raw.version === 'number' && Number.isInteger(raw.version) && raw.version >= 1) version = raw.version
      else {
        const message = `version ${show(raw.version)} of recipe \`${id}\` is not an integer >= 1; start at 1 and bump it on breaking changes`
        this.fail('E_VERSION_INVALID', ['version'], message)
      }
    }
    const title = raw.title == null ? undefined : this.text(raw.title, ['title'], 'an imperative title')
    const description = raw.description == null ? undefined : this.text(raw.description, ['description'], 'what the recipe does and why')
    let category: Category | undefined
    if (raw.category != null) {
      if (typeof raw.category === 'string' && (CATEGORIES as readonly string[]).includes(raw.category)) category = raw.category as Category
      else {
        const message = `category ${show(raw.category)} of recipe \`${id}\` is not a category; use one of ${CATEGORIES.join(', ')}`
        this.fail('E_UNKNOWN_CATEGORY', ['category'], message)
      }
    }
    let tags: string[] | undefined
    if (raw.tags != null) {
      const items = this.list(raw.tags, ['tags'], 'the tags')
      const tag = (t: unknown, i: number) =>
        typeof t === 'string' ? t : (this.fail('E_WRONG_TYPE', ['tags', i], `tag ${show(t)} of recipe \`${id}\` is ${kind(t)}; write tags as words`), '')
      if (items) tags = items.map(tag)
    }
    const recipeRisk = raw.risk == null ? undefined : this.risk(raw.risk, ['risk'])
    if (raw.requires_confirmation != null && typeof raw.requires_confirmation !== 'boolean') {
      const message = `requires_confirmation of recipe \`${id}\` is ${kind(raw.requires_confirmation)}; write true or false`
      this.fail('E_WRONG_TYPE', ['requires_confirmation'], message)
    }
    return { idValue, version, title, description, category, tags, recipeRisk }
  }

  private parameters(): Parameter[] {
    const parameters: Parameter[] = []
    if (this.raw.parameters != null) {
      const items = this.list(this.raw.parameters, ['parameters'], 'the parameters') ?? []
      items.forEach((p, i) => {
        const parameter = this.parameter(p, i)
        if (parameter) parameters.push(parameter)
      })
    }
    return parameters
  }

  private parameter(p: unknown, i: number): Parameter | undefined {
    const id = this.id
    const path = ['parameters', i]
    if (!isObj(p)) {
      this.fail('E_WRONG_TYPE', path, `parameter ${i + 1} of recipe \`${id}\` is ${kind(p)}; write it as a mapping with name, type and description`)
      return undefined
    }
    this.unknownFields(p, PARAM_FIELDS, path)
    if (!this.missing(p, ['name', 'type', 'description'], path, `parameter ${i + 1} of recipe \`${id}\``)) return undefined
    const name = this.text(p.name, [...path, 'name'], 'the parameter name')
    const description = this.text(p.description, [...path, 'description'], 'what the parameter means')
    let type: Parameter['type'] | undefined
    if (typeof p.type === 'string' && (PARAM_TYPES as readonly string[]).includes(p.type)) type = p.type as Parameter['type']
    else {
      const message = `parameter \`${String(p.name)}\` of recipe \`${id}\` has type ${show(p.type)}; use one of ${PARAM_TYPES.join(', ')}`
      this.fail('E_PARAM_TYPE', [...path, 'type'], message)
    }
    let values: string[] | undefined
    if (p.values !== undefined) {
      const vs = this.list(p.values, [...path, 'values'], 'the enum values')
      const value = (v: unknown, j: number) => {
        if (typeof v === 'string') return v
        this.fail('E_ENUM_VALUES', [...path, 'values', j], `enum value ${show(v)} of parameter \`${String(p.name)}\` is ${kind(v)}; quote it so it is a string`)
        return ''
      }
      if (vs) values = vs.map(value)
    }
    const pattern = p.pattern === undefined ? undefined : this.text(p.pattern, [...path, 'pattern'], 'the regular expression')
    const patternDescription = p.pattern_description === undefined ? undefined
      : this.text(p.pattern_description, [...path, 'pattern_description'], 'what the pattern accepts')
    const def = p.default
    if (def !== undefined && def !== null && !['string', 'number', 'boolean'].includes(typeof def)) {
      this.fail('E_DEFAULT_TYPE', [...path, 'default'], `default of parameter \`${String(p.name)}\` is ${kind(def)}; write a ${String(p.type)} value`)
    }
    if (!name || !description || !type) return undefined
    return {
      name, type, description,
      ...(def !== undefined && def !== null ? { default: def as ParamValue } : {}),
      ...(values ? { values } : {}),
      ...(pattern !== undefined ? { pattern } : {}),
      ...(patternDescription !== undefined ? { pattern_description: patternDescription } : {}),
    }
  }

  private platforms(): Partial<Record<Platform, PlatformEntry>> {
    const { raw, id } = this
    const platforms: Partial<Record<Platform, PlatformEntry>> = {}
    if (raw.platforms == null) return platforms
    if (!isObj(raw.platforms)) {
      this.fail('E_WRONG_TYPE', ['platforms'], `platforms of recipe \`${id}\` is ${kind(raw.platforms)}; write a mapping of macos/linux/windows to steps`)
      return platforms
    }
    if (Object.keys(raw.platforms).length === 0) {
      this.fail('E_NO_PLATFORMS', ['platforms'], `recipe \`${id}\` configures no platform; add steps for at least one of ${PLATFORMS.join(', ')}`)
    }
    for (const [name, entry] of Object.entries(raw.platforms)) {
      const decoded = this.platform(name, entry)
      if (decoded) platforms[name as Platform] = decoded
    }
    return platforms
  }

  /** One platform's entry: its steps, or `same_as` another platform. */
  private platform(name: string, entry: unknown): PlatformEntry | undefined {
    const id = this.id
    const path = ['platforms', name]
    if (!(PLATFORMS as readonly string[]).includes(name)) {
      this.fail('E_UNKNOWN_PLATFORM', path, `recipe \`${id}\` has unknown platform \`${name}\`; use ${PLATFORMS.join(', ')}`, { at: 'key' })
      return undefined
    }
    if (!isObj(entry)) {
      const message = `platform \`${name}\` of recipe \`${id}\` is ${kind(entry)}; give it \`steps:\` or \`same_as: <platform>\``
      this.fail('E_PLATFORM_SHAPE', path, message, { at: 'key' })
      return undefined
    }
    this.unknownFields(entry, PLATFORM_FIELDS, path)
    const hasSteps = entry.steps !== undefined && entry.steps !== null
    const hasSame = entry.same_as !== undefined && entry.same_as !== null
    if (hasSteps === hasSame) {
      const which = hasSteps ? 'both steps and same_as' : 'neither steps nor same_as'
      this.fail('E_PLATFORM_SHAPE', path, `platform \`${name}\` of recipe \`${id}\` has ${which}; keep exactly one`, { at: 'key' })
      return undefined
    }
    if (hasSame) {
      if (typeof entry.same_as !== 'string' || !(PLATFORMS as readonly string[]).includes(entry.same_as)) {
        const message = `same_as ${show(entry.same_as)} of platform \`${name}\` is not a platform; use ${PLATFORMS.join(', ')}`
        this.fail('E_UNKNOWN_PLATFORM', [...path, 'same_as'], message)
        return undefined
      }
      return { same_as: entry.same_as as Platform }
    }
    const s = this.steps(entry.steps, [...path, 'steps'], 'the steps')
    if (s && s.length === 0) {
      this.fail('E_PLATFORM_SHAPE', [...path, 'steps'], `platform \`${name}\` of recipe \`${id}\` has an empty step list; add steps or use same_as`)
    }
    return s ? { steps: s } : undefined
  }

  private verification(): VerificationStep[] {
    const { raw, id } = this
    const verification: VerificationStep[] = []
    if (raw.verification == null) return verification
    const items = this.list(raw.verification, ['verification'], 'the verification checks')
    if (items && items.length === 0) {
      this.fail('E_VERIFICATION_EMPTY', ['verification'], `recipe \`${id}\` has no verification; add a read-only check with \`run\` and \`expect\``)
    }
    items?.forEach((v, i) => {
      const path = ['verification', i]
      if (!isObj(v)) {
        this.fail('E_WRONG_TYPE', path, `verification ${i + 1} of recipe \`${id}\` is ${kind(v)}; write a mapping with \`run\` and \`expect\``)
        return
      }
      this.unknownFields(v, VERIFY_FIELDS, path)
      if (!this.missing(v, ['run', 'expect'], path, `verification ${i + 1} of recipe \`${id}\``)) return
      const run = this.text(v.run, [...path, 'run'], 'the check command')
      const expect = this.text(v.expect, [...path, 'expect'], 'what a successful check shows')
      if (run && expect) verification.push({ run, expect })
    })
    return verification
  }

  private undo(): Undo | undefined {
    const id = this.id
    const u = this.raw.undo
    if (u == null) return undefined
    if (!isObj(u)) {
      this.fail('E_WRONG_TYPE', ['undo'], `undo of recipe \`${id}\` is ${kind(u)}; write \`possible: true\` with steps or \`possible: false\` with a note`)
      return undefined
    }
    this.unknownFields(u, UNDO_FIELDS, ['undo'])
    if (typeof u.possible !== 'boolean') {
      this.fail('E_UNDO_SHAPE', ['undo'], `undo of recipe \`${id}\` needs \`possible: true\` or \`possible: false\``)
      return undefined
    }
    const s = u.steps === undefined || u.steps === null ? undefined : this.steps(u.steps, ['undo', 'steps'], 'the undo steps')
    const note = u.note === undefined || u.note === null ? undefined : this.text(u.note, ['undo', 'note'], 'what cannot be undone')
    return { possible: u.possible, ...(s ? { steps: s } : {}), ...(note ? { note } : {}) }
  }

  private strings(key: 'pitfalls' | 'related', label: string): string[] {
    const raw = this.raw
    if (raw[key] == null) return []
    const items = this.list(raw[key], [key], label) ?? []
    return items.map((item, i) => this.text(item, [key, i], key === 'pitfalls' ? 'the pitfall' : 'a recipe id') ?? '')
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
