/**
 * The configuration: defaults and normalization. Pure, no harness imports; the harness
 * schema in `src/dsh/schema.ts` declares the same shape with schemastery.
 */
import { isKind, markKinds } from '../base/error-kind.js'

export const RUNNERS = ['npm', 'yarn', 'pnpm', 'bun'] as const
export type ScriptRunner = (typeof RUNNERS)[number]
export const NAMING_STYLES = ['scoped', 'flat'] as const
export type NamingStyle = (typeof NAMING_STYLES)[number]
export const EXPOSURES = ['auto', 'tools', 'dispatcher'] as const
export type Exposure = (typeof EXPOSURES)[number]

/** Config keys of the built-in collectors, in the book's order. */
export const COLLECTOR_KEYS = ['makefile', 'scripts', 'justfile', 'deno', 'cargo', 'taskfile', 'go', 'python', 'composer', 'vscode', 'cmake', 'mise', 'nx'] as const
export type CollectorKey = (typeof COLLECTOR_KEYS)[number]

export interface CollectorConfig {
  enabled: boolean
}
export interface ScriptsConfig extends CollectorConfig {
  runner: 'auto' | ScriptRunner
  lockfilePriority: string[]
}

export interface Config {
  /** Directory scanned, relative to the process cwd (default `.`). */
  root: string
  collectors: {
    makefile: CollectorConfig
    scripts: ScriptsConfig
    justfile: CollectorConfig
    deno: CollectorConfig
    cargo: CollectorConfig
    taskfile: CollectorConfig
    go: CollectorConfig
    python: CollectorConfig
    composer: CollectorConfig
    vscode: CollectorConfig
    cmake: CollectorConfig
    mise: CollectorConfig
    nx: CollectorConfig
  }
  naming: { style: NamingStyle }
  execution: { timeoutMs: number }
  /** How the harness sees the book: one tool per recipe, one dispatcher tool, or by size (default auto). */
  exposure: Exposure
  /** With exposure auto, books larger than this get the dispatcher (default 40). */
  dispatcherThreshold: number
  /** Offer lifecycle scripts and pre/post hooks as tools too (default false: they run around other commands). */
  exposeHooks: boolean
}

export const DEFAULT_LOCKFILE_PRIORITY = ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock', 'package-lock.json']

export const DEFAULT_CONFIG: Readonly<Config> = deepFreeze({
  root: '.',
  collectors: {
    makefile: { enabled: true },
    scripts: { enabled: true, runner: 'auto', lockfilePriority: [...DEFAULT_LOCKFILE_PRIORITY] },
    justfile: { enabled: true },
    deno: { enabled: true },
    cargo: { enabled: true },
    taskfile: { enabled: true },
    go: { enabled: true },
    python: { enabled: true },
    composer: { enabled: true },
    vscode: { enabled: true },
    cmake: { enabled: true },
    mise: { enabled: true },
    nx: { enabled: true },
  },
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
  collectors?: { [K in CollectorKey]?: Partial<Config['collectors'][K]> }
  naming?: Partial<Config['naming']>
  execution?: Partial<Config['execution']>
  exposure?: Exposure
  dispatcherThreshold?: number
  exposeHooks?: boolean
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkKeys(path: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new ConfigError(`${path}.${key}`, `unknown option; expected one of ${allowed.join(', ')}`)
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

/** Fills defaults and checks every field; throws ConfigError naming the field and the fix. */
export function normalizeConfig(input: unknown = {}): Config {
  if (input === undefined || input === null) input = {}
  if (!isObject(input)) throw new ConfigError('(root)', 'must be an object')
  checkKeys('', input, ['root', 'collectors', 'naming', 'execution', 'exposure', 'dispatcherThreshold', 'exposeHooks'])
  const d = DEFAULT_CONFIG
  if (input.root !== undefined && (typeof input.root !== 'string' || input.root === '')) {
    throw new ConfigError('root', 'must be a non-empty path')
  }
  const collectorsIn = input.collectors ?? {}
  if (!isObject(collectorsIn)) throw new ConfigError('collectors', 'must be an object')
  checkKeys('collectors', collectorsIn, COLLECTOR_KEYS)
  const collectors = {} as Config['collectors']
  for (const key of COLLECTOR_KEYS) {
    const raw = collectorsIn[key] ?? {}
    const path = `collectors.${key}`
    if (!isObject(raw)) throw new ConfigError(path, 'must be an object')
    if (key === 'scripts') {
      checkKeys(path, raw, ['enabled', 'runner', 'lockfilePriority'])
      const lock = raw.lockfilePriority ?? d.collectors.scripts.lockfilePriority
      if (!Array.isArray(lock) || lock.some((f) => typeof f !== 'string' || f === '')) {
        throw new ConfigError(`${path}.lockfilePriority`, 'must be a list of lockfile names')
      }
      collectors.scripts = {
        enabled: pickBool(`${path}.enabled`, raw.enabled, true),
        runner: pickEnum(`${path}.runner`, raw.runner, ['auto', ...RUNNERS] as const, 'auto'),
        lockfilePriority: [...(lock as string[])],
      }
    } else {
      checkKeys(path, raw, ['enabled'])
      collectors[key] = { enabled: pickBool(`${path}.enabled`, raw.enabled, true) }
    }
  }
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
