/**
 * Rendering a curated recipe for one platform: the Specification's agent-readable JSON, with `same_as`
 * resolved, defaults applied, every value checked against its type, enum and pattern, and every value
 * shell-quoted for the platform (see quote.ts) so no parameter value can inject a command.
 */
import { editDistance } from './decode.js'
import { quoteFor } from '../base/quote.js'
import { typedValue } from './rules.js'
import { PLATFORMS, type CuratedRecipe, type Library, type Parameter, type ParamValue, type Platform, type Risk, type Step } from './schema.js'
import { substitute } from './template.js'

export interface RenderedCommand { command: string; purpose: string; risk: Risk }
export interface RenderedRecipe {
  id: string
  version: number
  risk: Risk
  requires_confirmation: boolean
  commands: RenderedCommand[]
  verification: { command: string; expect: string }[]
  /** `note` is present whenever the recipe gives one (always when `possible` is false). */
  undo: { possible: boolean; commands: string[]; note?: string }
}

export type RenderErrorCode =
  | 'RECIPE_UNKNOWN' | 'RECIPE_INVALID' | 'RECIPE_UNKNOWN_PLATFORM' | 'RECIPE_UNSUPPORTED_PLATFORM'
  | 'RECIPE_UNKNOWN_PARAM' | 'RECIPE_MISSING_PARAM' | 'RECIPE_INVALID_PARAM'

export class RecipeRenderError extends Error {
  override name = 'RecipeRenderError'
  /** `param` names the parameter at fault, for the errors about one. */
  constructor(message: string, readonly code: RenderErrorCode, readonly param?: string) {
    super(message)
  }
}

export interface RenderOptions {
  platform: Platform
  params?: Record<string, ParamValue>
}

/** This machine's platform in the Specification's words. */
export function currentPlatform(): Platform {
  return process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : 'linux'
}

/** The platform whose steps `platform` uses: itself, or its `same_as` target. */
export function stepsFor(recipe: CuratedRecipe, platform: Platform): readonly Step[] | undefined {
  const entry = recipe.platforms[platform]
  if (!entry) return undefined
  return entry.steps ?? (entry.same_as ? recipe.platforms[entry.same_as]?.steps : undefined)
}

export function supportedPlatforms(recipe: CuratedRecipe): Platform[] {
  return PLATFORMS.filter((p) => stepsFor(recipe, p) !== undefined)
}

export function renderRecipe(library: Library, id: string, options: RenderOptions): RenderedRecipe {
  const recipe = library.byId.get(id)
  if (!recipe) {
    const invalid = library.issues.find((i) => i.severity === 'error' && i.file.replace(/\\/g, '/').endsWith(`/${id.replace('.', '/').replace(/_/g, '-')}.yaml`))
    if (invalid) throw new RecipeRenderError(`recipe \`${id}\` failed validation and is not served: ${invalid.message} (${invalid.file}${invalid.line ? `:${invalid.line}` : ''}); run \`command-scout recipes validate\``, 'RECIPE_INVALID')
    const hint = suggest(id, [...library.byId.keys()])
    throw new RecipeRenderError(`no recipe \`${id}\` in the library${hint ? `; did you mean \`${hint}\`?` : '; list them with `command-scout recipes list`'}`, 'RECIPE_UNKNOWN')
  }
  const platform = options.platform
  if (!(PLATFORMS as readonly string[]).includes(platform)) {
    throw new RecipeRenderError(`unknown platform \`${String(platform)}\`; use one of ${PLATFORMS.join(', ')}`, 'RECIPE_UNKNOWN_PLATFORM')
  }
  const steps = stepsFor(recipe, platform)
  if (!steps) {
    throw new RecipeRenderError(`recipe \`${id}\` has no steps for ${platform}; it supports ${supportedPlatforms(recipe).join(', ')}`, 'RECIPE_UNSUPPORTED_PLATFORM')
  }
  const { quoted, plain } = resolveValues(recipe, options.params ?? {}, platform)
  const fill = (run: string) => substitute(run, quoted)
  // What a person or a model reads names the values too, unquoted: `port 8080 is free`, not `port <port>`.
  const say = (text: string) => fillText(text, plain)
  return {
    id: recipe.id,
    version: recipe.version,
    risk: recipe.risk,
    requires_confirmation: recipe.requires_confirmation || recipe.risk === 'destructive',
    commands: steps.map((s) => ({ command: fill(s.run), purpose: say(s.purpose), risk: s.risk ?? recipe.risk })),
    verification: recipe.verification.map((v) => ({ command: fill(v.run), expect: say(v.expect) })),
    undo: {
      possible: recipe.undo.possible,
      commands: (recipe.undo.steps ?? []).map((s) => fill(s.run)),
      ...(recipe.undo.note ? { note: say(recipe.undo.note) } : {}),
    },
  }
}

/**
 * A text with its parameters named, as `{{name}}` (the commands' form) or `<name>` (the usual
 * notation in prose), replaced by their values; other `<...>` are left alone.
 */
export function fillText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([\w-]+)\s*\}\}|<([\w-]+)>/g, (whole, braced?: string, angled?: string) => {
    const name = (braced ?? angled)!
    return Object.hasOwn(values, name) ? values[name]! : whole
  })
}

/** Checks the given values, applies defaults, and returns each value quoted for the platform. */
export function resolveParams(recipe: CuratedRecipe, given: Record<string, ParamValue>, platform: Platform): Record<string, string> {
  return resolveValues(recipe, given, platform).quoted
}

/** The checked values, quoted for the platform's shell and as plain text for people. */
function resolveValues(
  recipe: CuratedRecipe,
  given: Record<string, ParamValue>,
  platform: Platform,
): { quoted: Record<string, string>; plain: Record<string, string> } {
  const declared = new Map(recipe.parameters.map((p) => [p.name, p]))
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) {
      const names = [...declared.keys()]
      throw new RecipeRenderError(`recipe \`${recipe.id}\` has no parameter \`${name}\`; ${names.length ? `its parameters are ${names.join(', ')}` : 'it takes no parameters'}`, 'RECIPE_UNKNOWN_PARAM', name)
    }
  }
  const quoted: Record<string, string> = {}
  const plain: Record<string, string> = {}
  for (const p of recipe.parameters) {
    const raw = Object.hasOwn(given, p.name) ? given[p.name] : p.default
    if (raw === undefined) {
      throw new RecipeRenderError(`recipe \`${recipe.id}\` needs parameter \`${p.name}\` (${p.type}${p.values ? `: ${p.values.join(', ')}` : ''}): ${p.description}`, 'RECIPE_MISSING_PARAM', p.name)
    }
    plain[p.name] = String(checkValue(recipe, p, raw))
    quoted[p.name] = quoteFor(platform, plain[p.name]!)
  }
  return { quoted, plain }
}

/**
 * Converts a value (strings from a command line are accepted for numbers and booleans) and checks it.
 * String values may not start with `-` unless the parameter declares a pattern, so a value cannot turn
 * into an option of the command it is passed to; NUL and other control characters except tab and
 * newline are refused.
 */
function checkValue(recipe: CuratedRecipe, p: Parameter, raw: ParamValue): ParamValue {
  const bad = (why: string) => new RecipeRenderError(`parameter \`${p.name}\` of recipe \`${recipe.id}\` ${why}`, 'RECIPE_INVALID_PARAM', p.name)
  let value: ParamValue | undefined = raw
  if (p.type === 'number' && typeof raw === 'string') value = /^-?\d+(?:\.\d+)?$/.test(raw.trim()) ? Number(raw) : undefined
  if (p.type === 'boolean' && typeof raw === 'string') value = raw === 'true' ? true : raw === 'false' ? false : undefined
  const typed = value === undefined ? undefined : typedValue(p, value)
  if (typed === undefined) {
    throw bad(p.type === 'enum' ? `must be one of ${(p.values ?? []).join(', ')} (got ${JSON.stringify(raw)})` : `must be a ${p.type}${p.type === 'boolean' ? ' (true or false)' : ''} (got ${JSON.stringify(raw)})`)
  }
  if (typeof typed === 'string' && p.type === 'string') {
    if (/[\0-\x08\x0b-\x1f\x7f]/.test(typed)) throw bad('contains a control character; pass printable text')
    if (p.pattern !== undefined) {
      if (!new RegExp(p.pattern, 'u').test(typed)) throw bad(`must be ${p.pattern_description} (got ${JSON.stringify(typed)}, which does not match \`${p.pattern}\`)`)
    } else if (typed.startsWith('-')) throw bad(`may not start with \`-\` (it would read as an option); got ${JSON.stringify(typed)}`)
  }
  return typed
}

/** The closest id by edit distance, when it is close enough to be a typo. */
export function suggest(wanted: string, ids: string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(wanted.length / 4)) + 1
  for (const id of ids) {
    const d = editDistance(wanted, id)
    if (d < bestDistance) [best, bestDistance] = [id, d]
  }
  return best
}
