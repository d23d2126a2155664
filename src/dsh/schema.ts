/**
 * The plugin rows' configs as schemastery schemas, so the harness loader validates and defaults
 * them. Defaults come from `DEFAULT_CONFIG`, and `normalizeConfig` (src/book/config.ts) makes the final
 * checks, so the CLI and the harness share one source of truth.
 */
import z from '@deepseek-ai/schemastery'
import { collectorRow, type BuiltinSource, type CollectorOption } from '../base/collector-table.js'
import {
  COLLECTOR_KEYS, ConfigError, DEFAULT_CONFIG, EXPOSURES, NAMING_STYLES, normalizeConfig,
  type CollectorConfig, type Config, type ScriptsConfig,
} from '../book/config.js'

const d = DEFAULT_CONFIG

/** The `command-scout` row (the book and its tools). */
export interface AdapterConfig {
  /** Directory scanned, relative to the harness's working directory (default `.`). */
  root: string
  naming: {
    /** `scoped` names tools by runner (`make_build`), `flat` by task (`build`) (default scoped). */
    style: Config['naming']['style']
  }
  execution: {
    /** Hard budget per command in ms; the harness shell's own cap still applies (default 120000). */
    timeoutMs: number
  }
  /** `tools`: one tool per recipe; `dispatcher`: one tool for all; `auto`: by book size (default auto). */
  exposure: Config['exposure']
  /** With exposure auto, books with more recipes than this get the dispatcher (default 40). */
  dispatcherThreshold: number
  /** Offer npm lifecycle scripts and pre/post hooks as tools too (default false). */
  exposeHooks: boolean
}

export const AdapterConfig: z<AdapterConfig> = z.object({
  root: z.string().default(d.root).description('Directory scanned, relative to the working directory.'),
  naming: z.object({
    style: z.union([...NAMING_STYLES]).default(d.naming.style).description('scoped: make_build; flat: build.'),
  }),
  execution: z.object({
    timeoutMs: z.natural().min(1).default(d.execution.timeoutMs).description('Hard budget per command (ms).'),
  }),
  exposure: z.union([...EXPOSURES]).default(d.exposure).description('tools | dispatcher | auto (by book size).'),
  dispatcherThreshold: z.natural().default(d.dispatcherThreshold).description('auto: more recipes than this use the dispatcher.'),
  exposeHooks: z.boolean().default(d.exposeHooks).description('Offer lifecycle scripts and pre/post hooks as tools too.'),
}) as never

/** Final checks of an adapter row's config; throws ConfigError naming the field and the fix. */
export function normalizeAdapterConfig(config: unknown): Config {
  const input = { ...((config ?? {}) as Record<string, unknown>) }
  if ('collectors' in input) {
    throw new ConfigError('collectors', 'each collector is its own plugin row: configure it there, e.g. `- id: command-scout-make` with `config: { enabled: false }` (or `disabled: true` on the row)')
  }
  return normalizeConfig(input)
}

/** One option of a collector row, as its table row declares it. */
function optionSchema(option: CollectorOption): z<unknown> {
  const schema = option.kind === 'choice' ? z.union([...option.choices]).default(option.default) : z.array(String).default([...option.default])
  return schema.description(option.help) as never
}

/**
 * A built-in collector row's config schema (its section of the seed's `collectors`): `enabled` and
 * the options of its table row, with the defaults the config has.
 */
export function collectorConfigSchema(source: BuiltinSource): z<CollectorConfig> {
  const row = collectorRow(source)
  if (!row) throw new Error(`no built-in collector named ${source}`)
  const options = Object.entries(row.options).map(([name, option]) => [name, optionSchema(option)] as const)
  return z.object({
    enabled: z.boolean().default(d.collectors[source].enabled).description('Collect these recipes.'),
    ...Object.fromEntries(options),
  }) as never
}

/** Final checks of a collector row's config, through the shared normalizer. */
export function normalizeCollectorConfig(key: BuiltinSource, config: unknown): CollectorConfig | ScriptsConfig {
  try {
    return normalizeConfig({ collectors: { [key]: config ?? {} } }).collectors[key]
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(error.path.replace(`collectors.${key}.`, ''), error.message.replace(/^config [^:]+: /, ''))
    throw error
  }
}

export { COLLECTOR_KEYS }
