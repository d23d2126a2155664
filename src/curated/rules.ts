/**
 * The rules of one decoded recipe that need more than its structure: naming, risk, parameters and
 * placeholders, platforms, verification, undo, and the safety policy. Rules across files (unique ids,
 * related ids) and the shell syntax check live in load.ts and validate.ts.
 */
import { destroys, safetyFindings, writes } from './commands.js'
import type { Path, Report } from './decode.js'
import { PLATFORMS, riskRank, type CuratedRecipe, type Parameter, type ParamValue, type Platform, type Step } from './schema.js'
import { placeholders } from './template.js'

export const MAX_TITLE = 60
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const PARAM_NAME = /^[a-z][a-z0-9_]*$/
const ID = /^[a-z]+\.[a-z0-9]+(?:_[a-z0-9]+)*$/
/** Words ending in -ing/-ed/-s that are still imperative verbs. */
const IMPERATIVE_EXCEPTIONS = new Set([
  'bring', 'ping', 'ring', 'string', 'swing', 'sing', 'sling', 'spring', 'sting', 'wring', 'cling', 'fling',
  'embed', 'shred', 'shed', 'feed', 'seed', 'need', 'speed', 'proceed', 'exceed', 'succeed',
  'alias', 'focus', 'bias', 'access', 'bypass', 'compress', 'press', 'pass', 'process', 'address', 'express', 'discuss', 'dismiss', 'miss', 'toss', 'gas',
])
const NOT_VERBS = new Set([
  'a', 'an', 'the', 'how', 'why', 'what', 'when', 'where', 'which', 'this', 'that', 'these', 'those', 'your', 'my', 'our', 'its', 'it', 'i', 'we', 'you',
])

/** Why a title is not an imperative phrase, or undefined when it reads as one. */
export function notImperative(title: string): string | undefined {
  const trimmed = title.trim()
  if (/[.!?:;]$/.test(trimmed)) return 'it ends with punctuation; drop the final mark'
  const first = trimmed.split(/\s+/)[0] ?? ''
  if (!/^[A-Z]/.test(first)) return `its first word \`${first}\` is not a capitalized verb; start with the action, e.g. "Undo the last commit"`
  const word = first.toLowerCase().replace(/[^a-z-]/g, '')
  if (NOT_VERBS.has(word)) return `it starts with \`${first}\`; start with the verb, e.g. "Undo the last commit"`
  if (IMPERATIVE_EXCEPTIONS.has(word)) return undefined
  if (word.endsWith('ing')) return `\`${first}\` is a gerund; use the plain verb (\`${first.slice(0, -3)}…\`)`
  if (word.endsWith('ed') && !word.endsWith('eed')) return `\`${first}\` is past tense; use the plain verb`
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return `\`${first}\` is a third-person form; use the plain verb (e.g. "Remove", not "Removes")`
  return undefined
}

/** A value of the parameter's type, or undefined. Enum values must be one of `values`. */
export function typedValue(param: Parameter, value: unknown): ParamValue | undefined {
  switch (param.type) {
    case 'string': return typeof value === 'string' ? value : undefined
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? value : undefined
    case 'boolean': return typeof value === 'boolean' ? value : undefined
    case 'enum': return typeof value === 'string' && (param.values ?? []).includes(value) ? value : undefined
  }
}

/** Every command of a recipe with its path, for rules that look at all of them. */
export function allCommands(recipe: CuratedRecipe): { run: string; path: Path; kind: 'step' | 'verification' | 'undo'; platform?: Platform; step?: Step }[] {
  const out: ReturnType<typeof allCommands> = []
  for (const platform of PLATFORMS) {
    recipe.platforms[platform]?.steps?.forEach((step, i) => out.push({ run: step.run, path: ['platforms', platform, 'steps', i, 'run'], kind: 'step', platform, step }))
  }
  recipe.verification.forEach((v, i) => out.push({ run: v.run, path: ['verification', i, 'run'], kind: 'verification' }))
  recipe.undo.steps?.forEach((step, i) => out.push({ run: step.run, path: ['undo', 'steps', i, 'run'], kind: 'undo', step }))
  return out
}

export function checkRecipe(r: CuratedRecipe, report: Report): void {
  const id = r.id
  if (!ID.test(id)) report('E_ID_FORMAT', ['id'], `id \`${id}\` is not \`<category>.<slug_with_underscores>\`; use lowercase letters, digits and underscores, e.g. \`git.undo_last_commit\``)
  if ([...r.title].length > MAX_TITLE) report('E_TITLE_TOO_LONG', ['title'], `title of recipe \`${id}\` is ${[...r.title].length} characters; shorten it to at most ${MAX_TITLE}`)
  const why = notImperative(r.title)
  if (why) report('E_TITLE_NOT_IMPERATIVE', ['title'], `title "${r.title}" of recipe \`${id}\` is not imperative: ${why}`)
  if (r.tags.length === 0) report('E_TAGS_EMPTY', ['tags'], `recipe \`${id}\` has no tags; add a few lowercase words people search for`)
  r.tags.forEach((tag, i) => {
    if (tag !== '' && !TAG.test(tag)) report('E_TAG_FORMAT', ['tags', i], `tag \`${tag}\` of recipe \`${id}\` is not a lowercase word; write it as \`${tag.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}\``)
  })
  if (r.risk === 'destructive' && !r.requires_confirmation) {
    report('E_CONFIRMATION_REQUIRED', ['requires_confirmation'], `recipe \`${id}\` is destructive but has requires_confirmation: false; set it to true`)
  }
  checkParameters(r, report)
  checkPlatforms(r, report)
  checkCommands(r, report)
  const undo = r.undo
  if (undo.possible && (!undo.steps || undo.steps.length === 0)) report('E_UNDO_SHAPE', ['undo'], `undo of recipe \`${id}\` says possible: true but lists no steps; add the steps, or write possible: false with a note`)
  if (!undo.possible && undo.steps) report('E_UNDO_SHAPE', ['undo', 'steps'], `undo of recipe \`${id}\` says possible: false but lists steps; drop the steps or set possible: true`)
  if (!undo.possible && !undo.note) report('E_UNDO_SHAPE', ['undo'], `undo of recipe \`${id}\` says possible: false without a note; add \`note:\` explaining why it cannot be undone`)
  if (r.risk === 'destructive' && undo.possible && !undo.note) {
    report('E_DESTRUCTIVE_UNDO_NOTE', ['undo'], `recipe \`${id}\` is destructive; add \`note:\` to its undo saying what the undo steps cannot bring back`)
  }
  r.related.forEach((rel, i) => {
    if (rel === id) report('E_RELATED_SELF', ['related', i], `recipe \`${id}\` lists itself as related; remove it`)
  })
}

function checkParameters(r: CuratedRecipe, report: Report): void {
  const seen = new Set<string>()
  r.parameters.forEach((p, i) => {
    const at = (k: string): Path => ['parameters', i, k]
    if (!PARAM_NAME.test(p.name)) report('E_PARAM_NAME', at('name'), `parameter name \`${p.name}\` of recipe \`${r.id}\` is not snake_case; use lowercase letters, digits and underscores, starting with a letter`)
    if (seen.has(p.name)) report('E_PARAM_DUPLICATE', at('name'), `recipe \`${r.id}\` declares parameter \`${p.name}\` twice; rename or remove one`)
    seen.add(p.name)
    if (p.type === 'enum') {
      const values = p.values ?? []
      if (values.length === 0) report('E_ENUM_VALUES', p.values ? at('values') : ['parameters', i], `enum parameter \`${p.name}\` of recipe \`${r.id}\` has no values; list them under \`values:\``)
      else if (new Set(values).size !== values.length) report('E_ENUM_VALUES', at('values'), `enum parameter \`${p.name}\` of recipe \`${r.id}\` lists a value twice; remove the duplicate`)
    } else if (p.values) report('E_ENUM_VALUES', at('values'), `parameter \`${p.name}\` of recipe \`${r.id}\` has values but type ${p.type}; set type: enum or drop values`)
    let regex: RegExp | undefined
    if ((p.pattern === undefined) !== (p.pattern_description === undefined)) {
      report('E_PATTERN_PAIR', at(p.pattern === undefined ? 'pattern_description' : 'pattern'), `parameter \`${p.name}\` of recipe \`${r.id}\` has ${p.pattern === undefined ? 'pattern_description without pattern' : 'pattern without pattern_description'}; declare both together`)
    } else if (p.pattern !== undefined && p.type !== 'string') {
      report('E_PATTERN_PAIR', at('pattern'), `parameter \`${p.name}\` of recipe \`${r.id}\` has a pattern but type ${p.type}; patterns apply to string parameters only`)
    } else if (p.pattern !== undefined) {
      if (!p.pattern.startsWith('^') || !p.pattern.endsWith('$') || p.pattern.endsWith('\\$')) {
        report('E_PATTERN_UNANCHORED', at('pattern'), `pattern \`${p.pattern}\` of parameter \`${p.name}\` is not anchored; start it with ^ and end it with $`)
      }
      try {
        regex = new RegExp(p.pattern, 'u')
      } catch (error) {
        report('E_PATTERN_INVALID', at('pattern'), `pattern \`${p.pattern}\` of parameter \`${p.name}\` is not a valid regular expression (${(error as Error).message}); fix its syntax`)
      }
    }
    if (p.default !== undefined) {
      const value = typedValue(p, p.default)
      if (value === undefined) {
        report('E_DEFAULT_TYPE', at('default'), `default ${JSON.stringify(p.default)} of parameter \`${p.name}\` is not ${p.type === 'enum' ? `one of ${(p.values ?? []).join(', ')}` : `a ${p.type}`}; fix the default or the type`)
      } else if (regex && typeof value === 'string' && !regex.test(value)) {
        report('E_DEFAULT_PATTERN', at('default'), `default ${JSON.stringify(value)} of parameter \`${p.name}\` does not match its pattern \`${p.pattern}\`; fix one of them`)
      }
    }
  })
}

function checkPlatforms(r: CuratedRecipe, report: Report): void {
  for (const platform of PLATFORMS) {
    const target = r.platforms[platform]?.same_as
    if (!target) continue
    const path = ['platforms', platform, 'same_as']
    if (target === platform) report('E_SAME_AS_SELF', path, `platform \`${platform}\` of recipe \`${r.id}\` is same_as itself; give it steps or point it at another platform`)
    else if (!r.platforms[target]) report('E_SAME_AS_MISSING', path, `platform \`${platform}\` of recipe \`${r.id}\` is same_as \`${target}\`, which the recipe does not configure; add \`${target}\` with steps or point at a configured platform`)
    else if (!r.platforms[target]!.steps) report('E_SAME_AS_CHAIN', path, `platform \`${platform}\` of recipe \`${r.id}\` is same_as \`${target}\`, which is itself an alias; point it at \`${r.platforms[target]!.same_as}\` directly`)
  }
}

function checkCommands(r: CuratedRecipe, report: Report): void {
  const declared = new Set(r.parameters.map((p) => p.name))
  const used = new Set<string>()
  for (const c of allCommands(r)) {
    for (const ph of placeholders(c.run)) {
      used.add(ph.name)
      if (!declared.has(ph.name)) report('E_PARAM_UNDEFINED', c.path, `\`{{${ph.name}}}\` in recipe \`${r.id}\` names no declared parameter; declare it under \`parameters:\` or fix the name${closest(ph.name, declared)}`, { offset: ph.index })
      else if (ph.quotedBy === '$') report('E_PLACEHOLDER_QUOTED', c.path, `\`{{${ph.name}}}\` in recipe \`${r.id}\` directly follows \`$\`, so its value would be read as a variable or escape sequence; remove the \`$\``, { offset: ph.index })
      else if (ph.quotedBy) report('E_PLACEHOLDER_QUOTED', c.path, `\`{{${ph.name}}}\` in recipe \`${r.id}\` stands inside ${ph.quotedBy} quotes; remove the quotes around it (the value is quoted when rendered)`, { offset: ph.index })
    }
    for (const f of safetyFindings(c.run)) report(f.code, c.path, `command \`${c.run}\` of recipe \`${r.id}\` ${f.reason}; ${f.fix}`)
    if (c.kind === 'verification') {
      const why = writes(c.run)
      if (why) report('E_VERIFICATION_WRITES', c.path, `verification \`${c.run}\` of recipe \`${r.id}\` is not read-only: ${why}; check with a command that only reads (status, list, show)`)
      continue
    }
    const stepRisk = c.step?.risk ?? r.risk
    if (c.step?.risk && riskRank(c.step.risk) > riskRank(r.risk)) {
      report('E_STEP_RISK_ABOVE_RECIPE', [...c.path.slice(0, -1), 'risk'], `a step of recipe \`${r.id}\` has risk ${c.step.risk}, above the recipe's ${r.risk}; raise the recipe's risk to ${c.step.risk} or lower the step's`)
    }
    if (stepRisk === 'read_only') {
      const why = writes(c.run)
      if (why) report('E_RISK_UNDERSTATED', c.path, `step \`${c.run}\` of recipe \`${r.id}\` is marked read_only but ${why}; mark it low, medium or destructive`)
    } else if (stepRisk !== 'destructive' && c.kind === 'step') {
      // Undo steps are exempt: removing what the recipe itself made (an archive, a branch) is their job.
      const why = destroys(c.run)
      if (why) report('E_RISK_UNDERSTATED', c.path, `step \`${c.run}\` of recipe \`${r.id}\` is marked ${stepRisk} but ${why}; mark it (and the recipe) destructive`)
    }
  }
  for (const [i, p] of r.parameters.entries()) {
    if (!used.has(p.name)) report('E_PARAM_UNUSED', ['parameters', i, 'name'], `parameter \`${p.name}\` of recipe \`${r.id}\` is used by no command; use it as \`{{${p.name}}}\` or remove it`)
  }
}

function closest(name: string, names: Set<string>): string {
  const hit = [...names].find((n) => n.includes(name) || name.includes(n))
  return hit ? ` (did you mean \`${hit}\`?)` : ''
}
