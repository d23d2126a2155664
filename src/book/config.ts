/**
 * The configuration: defaults and normalization. Pure, no harness imports; the harness
 * schema in `src/dsh/schema.ts` declares the same shape with schemastery. The collectors' part
 * (keys, older names, options and their defaults) comes from the collector table
 * (src/base/collector-table.ts), so a new collector's config is its row.
 *
 * Older keys: `collectors.makefile`, `collectors.justfile` and `collectors.taskfile` are read as
 * `collectors.make`, `collectors.just` and `collectors.task` (a config may give one of the two
 * names, not both; errors name the key as written). A normalized config answers them too, for
 * embedders that read a section by an older name; they are not enumerable, so a config listed,
 * copied or written back holds only the sources.
 */
import { isKind, markKinds } from '../base/error-kind.js'
import {
  BUILTIN_SOURCES, COLLECTOR_TABLE, PACKAGE_MANAGERS,
  type AliasSource, type BuiltinSource, type CollectorAlias, type CollectorOption, type CollectorRow, type CollectorRowOf,
} from '../base/collector-table.js'

export const RUNNERS = PACKAGE_MANAGERS
export type ScriptRunner = (typeof RUNNERS)[number]
export const NAMING_STYLES = ['scoped', 'flat'] as const
export type NamingStyle = (typeof NAMING_STYLES)[number]
export const EXPOSURES = ['auto', 'tools', 'dispatcher'] as const
export type Exposure = (typeof EXPOSURES)[number]

/** Config keys of the built-in collectors, in the book's order: each one's source. */
export const COLLECTOR_KEYS: readonly BuiltinSource[] = BUILTIN_SOURCES
/** A key of `config.collectors`: a collector's source, or an older name of one (still read). */
export type CollectorKey = BuiltinSource | CollectorAlias

export interface CollectorConfig {
  enabled: boolean
}

type OptionValue<O> = O extends { kind: 'choice'; choices: readonly (infer T)[] } ? T : O extends { kind: 'names' } ? string[] : never
type RowOptions<S extends BuiltinSource> = CollectorRowOf<S>['options']
/** One built-in collector's normalized section: `enabled` and the options its row declares. */
export type CollectorSection<S extends BuiltinSource> = CollectorConfig & { -readonly [K in keyof RowOptions<S>]: OptionValue<RowOptions<S>[K]> }
export type ScriptsConfig = CollectorSection<'scripts'>

/** Every built-in collector's section, by source. */
export type CollectorsConfig = { [S in BuiltinSource]: CollectorSection<S> }
/** The older keys a normalized config still answers (`collectors.makefile` is `collectors.make`). */
export type AliasedCollectorsConfig = { readonly [A in CollectorAlias]: CollectorSection<AliasSource<A> & BuiltinSource> }

export interface Config {
  /** Directory scanned, relative to the process cwd (default `.`). */
  root: string
  collectors: CollectorsConfig & AliasedCollectorsConfig
  naming: { style: NamingStyle }
  execution: { timeoutMs: number }
  /** How the harness sees the book: one tool per recipe, one dispatcher tool, or by size (default auto). */
  exposure: Exposure
  /** With exposure auto, books larger than this get the dispatcher (default 40). */
  dispatcherThreshold: number
  /** Offer lifecycle scripts and pre/post hooks as tools too (default false: they run around other commands). */
  exposeHooks: boolean
}

const SCRIPTS_ROW: CollectorRowOf<'scripts'> = COLLECTOR_TABLE.find((row) => row.source === 'scripts')!
export const DEFAULT_LOCKFILE_PRIORITY: string[] = [...SCRIPTS_ROW.options.lockfilePriority.default]

/** The table's rows, as the generic shape the normalizer walks. */
const ROWS: readonly CollectorRow[] = COLLECTOR_TABLE

function optionDefault(option: CollectorOption): unknown {
  return option.kind === 'names' ? [...option.default] : option.default
}

function defaultSection(row: CollectorRow): CollectorConfig {
  return { enabled: true, ...Object.fromEntries(Object.entries(row.options).map(([name, option]) => [name, optionDefault(option)])) }
}

/** Adds the older keys to a collectors object as getters of their sources' sections, not enumerable. */
function withAliases(collectors: Record<string, CollectorConfig>): Config['collectors'] {
  for (const row of ROWS) {
    for (const alias of row.aliases) {
      Object.defineProperty(collectors, alias, { get: () => collectors[row.source], enumerable: false, configurable: false })
    }
  }
  return collectors as Config['collectors']
}

export const DEFAULT_CONFIG: Readonly<Config> = deepFreeze({
  root: '.',
  collectors: withAliases(Object.fromEntries(ROWS.map((row) => [row.source, defaultSection(row)]))),
  naming: { style: 'scoped' },
  execution: { timeoutMs: 120_000 },
  exposure: 'auto',
  dispatcherThreshold: 40,
  exposeHooks: false,
})

export class ConfigError extends Error {
  static readonly kind: string = 'ConfigError'
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, this.kind)
  }
  override name = 'ConfigError'
  constructor(readonly path: string, message: string) {
    super(`config ${path}: ${message}`)
    markKinds(this, new.target)
  }
}

/** A partial config as a user writes it. */
export type ConfigInput = {
  root?: string
  collectors?: { [S in BuiltinSource]?: Partial<CollectorSection<S>> } & { [A in CollectorAlias]?: Partial<CollectorSection<AliasSource<A> & BuiltinSource>> }
  naming?: Partial<Config['naming']>
  execution?: Partial<Config['execution']>
  exposure?: Exposure
  dispatcherThreshold?: number
  exposeHooks?: boolean
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Throws for a key not in `allowed`, naming the keys to write (`shown`, by default all allowed). */
function checkKeys(path: string, value: Record<string, unknown>, allowed: readonly string[], shown: readonly string[] = allowed): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new ConfigError(`${path}.${key}`, `unknown option; expected one of ${shown.join(', ')}`)
  }
}

function pickEnum<T extends string>(path: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new ConfigError(path, `must be one of ${allowed.join(' | ')} (got ${JSON.stringify(value)})`)
  }
  return value as T
}

function pickBool(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw new ConfigError(path, `must be true or false (got ${JSON.stringify(value)})`)
  return value
}

function pickInt(path: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigError(path, `must be an integer >= ${min} (got ${JSON.stringify(value)})`)
  }
  return value
}

/** One option of a collector's section, checked as its row declares it. */
function pickOption(path: string, value: unknown, option: CollectorOption): unknown {
  if (option.kind === 'choice') return pickEnum(path, value, option.choices, option.default)
  const list = value ?? option.default
  if (!Array.isArray(list) || list.some((f) => typeof f !== 'string' || f === '')) throw new ConfigError(path, `must be a list of ${option.of}`)
  return [...(list as string[])]
}

/** One collector's section as written at `path`: `enabled` and its row's options, defaults filled. */
function normalizeSection(row: CollectorRow, path: string, raw: unknown): CollectorConfig {
  if (!isObject(raw)) throw new ConfigError(path, 'must be an object')
  const options = Object.entries(row.options)
  checkKeys(path, raw, ['enabled', ...options.map(([name]) => name)])
  const section: Record<string, unknown> = { enabled: pickBool(`${path}.enabled`, raw.enabled, true) }
  for (const [name, option] of options) section[name] = pickOption(`${path}.${name}`, raw[name], option)
  return section as unknown as CollectorConfig
}

/** The `collectors` object: each built-in collector's section, under its source or an older key. */
function normalizeCollectors(input: unknown): Config['collectors'] {
  const given = input ?? {}
  if (!isObject(given)) throw new ConfigError('collectors', 'must be an object')
  checkKeys('collectors', given, ROWS.flatMap((row) => [row.source, ...row.aliases]), COLLECTOR_KEYS)
  // Own enumerable keys only: a normalized config given again answers the older keys too, by getters.
  const written = new Set(Object.keys(given).filter((k) => given[k] !== undefined && given[k] !== null))
  const collectors: Record<string, CollectorConfig> = {}
  for (const row of ROWS) {
    const [key = row.source, twice] = [row.source, ...row.aliases].filter((k) => written.has(k))
    if (twice !== undefined) {
      throw new ConfigError(`collectors.${twice}`, `names the same collector as collectors.${key}; keep one of them (collectors.${row.source})`)
    }
    collectors[row.source] = normalizeSection(row, `collectors.${key}`, given[key] ?? {})
  }
  return withAliases(collectors)
}

/** Fills defaults and checks every field; throws ConfigError naming the field and the fix. */
export function normalizeConfig(input: unknown = {}): Config {
  if (input === undefined || input === null) input = {}
  if (!isObject(input)) throw new ConfigError('(root)', 'must be an object')
  checkKeys('', input, ['root', 'collectors', 'naming', 'execution', 'exposure', 'dispatcherThreshold', 'exposeHooks'])
  const d = DEFAULT_CONFIG
  if (input.root !== undefined && (typeof input.root !== 'string' || input.root === '')) {
    throw new ConfigError('root', 'must be a non-empty path')
  }
  const collectors = normalizeCollectors(input.collectors)
  const naming = input.naming ?? {}
  if (!isObject(naming)) throw new ConfigError('naming', 'must be an object')
  checkKeys('naming', naming, ['style'])
  const execution = input.execution ?? {}
  if (!isObject(execution)) throw new ConfigError('execution', 'must be an object')
  checkKeys('execution', execution, ['timeoutMs'])
  return {
    root: (input.root as string | undefined) ?? d.root,
    collectors,
    naming: { style: pickEnum('naming.style', naming.style, NAMING_STYLES, d.naming.style) },
    execution: { timeoutMs: pickInt('execution.timeoutMs', execution.timeoutMs, d.execution.timeoutMs, 1) },
    exposure: pickEnum('exposure', input.exposure, EXPOSURES, d.exposure),
    dispatcherThreshold: pickInt('dispatcherThreshold', input.dispatcherThreshold, d.dispatcherThreshold, 0),
    exposeHooks: pickBool('exposeHooks', input.exposeHooks, d.exposeHooks),
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
