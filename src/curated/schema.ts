/**
 * The curated recipe data model (Recipe Specification v0.1): the values a `recipes/<category>/<slug>.yaml`
 * file decodes to, the closed vocabularies, and the table of validation rules with their stable codes.
 */

export const CATEGORIES = ['git', 'docker', 'files', 'network', 'node', 'db'] as const
export const RISKS = ['read_only', 'low', 'medium', 'destructive'] as const
export const PLATFORMS = ['macos', 'linux', 'windows'] as const
export const PARAM_TYPES = ['string', 'number', 'boolean', 'enum'] as const

export type Category = (typeof CATEGORIES)[number]
export type Risk = (typeof RISKS)[number]
export type Platform = (typeof PLATFORMS)[number]
export type ParamType = (typeof PARAM_TYPES)[number]
export type ParamValue = string | number | boolean

/** Orders risks so that rules can compare them: read_only < low < medium < destructive. */
export function riskRank(risk: Risk): number {
  return RISKS.indexOf(risk)
}

export interface Parameter {
  readonly name: string
  readonly type: ParamType
  readonly description: string
  readonly default?: ParamValue
  /** The allowed values of an `enum` parameter. */
  readonly values?: readonly string[]
  /** For `string` parameters: an anchored regular expression (`^...$`) every value must match. */
  readonly pattern?: string
  readonly pattern_description?: string
}

export interface Step {
  readonly run: string
  readonly purpose: string
  /** Per-step override; the recipe's risk when absent. */
  readonly risk?: Risk
}

/** A platform either lists its own steps or borrows another platform's (`same_as`). */
export interface PlatformEntry {
  readonly steps?: readonly Step[]
  readonly same_as?: Platform
}

export interface VerificationStep {
  readonly run: string
  readonly expect: string
}

export interface Undo {
  readonly possible: boolean
  readonly steps?: readonly Step[]
  /** Required when `possible` is false, and for destructive recipes: what cannot be undone. */
  readonly note?: string
}

export interface CuratedRecipe {
  readonly id: string
  readonly version: number
  readonly title: string
  readonly description: string
  readonly category: Category
  readonly tags: readonly string[]
  readonly risk: Risk
  readonly requires_confirmation: boolean
  readonly parameters: readonly Parameter[]
  readonly platforms: Readonly<Partial<Record<Platform, PlatformEntry>>>
  readonly verification: readonly VerificationStep[]
  readonly undo: Undo
  readonly pitfalls: readonly string[]
  readonly related: readonly string[]
  /** Absolute path of the YAML file it was read from. */
  readonly file: string
  /** The library directory that holds it. */
  readonly dir: string
}

export interface ValidationIssue {
  /** A stable code from RULES; route on it, never on the message. */
  code: string
  severity: 'error' | 'warning'
  /** The file as the caller named it (library dir joined with `<category>/<slug>.yaml`). */
  file: string
  line?: number
  column?: number
  /** What is wrong and how to fix it. */
  message: string
}

export interface Library {
  /** The recipes that passed every load-time rule, in directory then file order. */
  recipes: CuratedRecipe[]
  byId: Map<string, CuratedRecipe>
  /** Problems found while loading; a file with an error is left out of `recipes`. */
  issues: ValidationIssue[]
}

/**
 * Every validation rule, by stable code. The test suite holds one failing fixture per code
 * (`test/fixtures/curated/invalid/<CODE>/`) and checks this table against them.
 */
export const RULES = {
  E_DIR_UNREADABLE: 'every library directory given exists and can be read',
  E_YAML_SYNTAX: 'the file is valid YAML (reported with its position)',
  E_NOT_A_MAPPING: 'the document is a mapping of fields',
  E_FILE_LAYOUT: 'the file sits at `<dir>/<category>/<slug>.yaml`, slug in lowercase kebab-case',
  E_UNKNOWN_FIELD: 'no field outside the specification (catches typos)',
  E_MISSING_FIELD: 'every required field is present',
  E_WRONG_TYPE: 'every field has the type the specification gives it',
  E_EMPTY_TEXT: 'text fields (description, purpose, expect, note, pitfalls) are not blank',
  E_ID_FORMAT: 'id is `<category>.<slug_with_underscores>` in lowercase',
  E_ID_PATH_MISMATCH: 'id agrees with the file path',
  E_CATEGORY_MISMATCH: 'category agrees with the folder the file is in',
  E_DUPLICATE_ID: 'ids are unique across every library directory',
  E_VERSION_INVALID: 'version is an integer >= 1',
  E_TITLE_TOO_LONG: 'title is at most 60 characters',
  E_TITLE_NOT_IMPERATIVE: 'title is an imperative phrase: capitalized verb first, not a gerund or third-person form, no final period',
  E_UNKNOWN_CATEGORY: 'category is one of git, docker, files, network, node, db',
  E_TAGS_EMPTY: 'tags lists at least one tag',
  E_TAG_FORMAT: 'tags are lowercase plain or kebab-case words',
  E_UNKNOWN_RISK: 'risk (recipe and step) is one of read_only, low, medium, destructive',
  E_CONFIRMATION_REQUIRED: 'a destructive recipe has requires_confirmation: true',
  E_STEP_RISK_ABOVE_RECIPE: "a step's risk is never above the recipe's risk",
  E_RISK_UNDERSTATED: 'a command that writes is not marked read_only, and a deleting/overwriting command is marked destructive',
  E_PARAM_NAME: 'parameter names are lowercase snake_case identifiers',
  E_PARAM_DUPLICATE: 'parameter names are unique within a recipe',
  E_PARAM_TYPE: 'parameter type is one of string, number, boolean, enum',
  E_ENUM_VALUES: 'an enum parameter lists non-empty unique string values; other types have none',
  E_PATTERN_PAIR: 'pattern and pattern_description come together, on string parameters only',
  E_PATTERN_UNANCHORED: 'a pattern starts with ^ and ends with $',
  E_PATTERN_INVALID: 'a pattern is a valid regular expression',
  E_DEFAULT_TYPE: "a default has the parameter's type (and is one of an enum's values)",
  E_DEFAULT_PATTERN: "a default matches the parameter's pattern",
  E_PARAM_UNDEFINED: 'every {{placeholder}} names a declared parameter',
  E_PARAM_UNUSED: 'every declared parameter is used in some command',
  E_PLACEHOLDER_QUOTED: 'a {{placeholder}} stands outside quotes (the renderer quotes the value itself)',
  E_NO_PLATFORMS: 'platforms configures at least one of macos, linux, windows',
  E_UNKNOWN_PLATFORM: 'platform names are macos, linux or windows',
  E_PLATFORM_SHAPE: 'a platform has either non-empty steps or same_as, not both',
  E_SAME_AS_SELF: 'same_as does not name its own platform',
  E_SAME_AS_MISSING: 'same_as names another configured platform',
  E_SAME_AS_CHAIN: 'same_as names a platform that has its own steps (no chains)',
  E_VERIFICATION_EMPTY: 'verification lists at least one check',
  E_VERIFICATION_WRITES: 'verification commands are read-only',
  E_UNDO_SHAPE: 'undo is `possible: true` with steps, or `possible: false` with a note',
  E_DESTRUCTIVE_UNDO_NOTE: "a destructive recipe's undo has a note saying what cannot be undone",
  E_RELATED_UNKNOWN: 'every related id names a recipe in the library',
  E_RELATED_SELF: 'a recipe does not list itself as related',
  E_REMOTE_SCRIPT: 'no command pipes a download into a shell',
  E_INLINE_CREDENTIAL: 'no command carries a password, token or key inline',
  E_DISABLES_SECURITY: 'no command disables a security control',
  E_EXFILTRATION: 'no command sends secrets or system files to another host',
  E_SHELL_SYNTAX: 'every macos/linux command passes `bash -n` with sample parameter values',
} as const

export type RuleCode = keyof typeof RULES
