/**
 * The `command-scout-kitchen` row's config as a schemastery schema, so the harness loader validates
 * and defaults it, and its mapping to the kitchen config the core normalizes. The row is the one
 * place a person configures the kitchen in dsh: the core reads it (through `KitchenDeps.config`) at
 * each tick, and a cook gets its rulebook on its command line. Nothing of it is written to the
 * kitchen directory, where a file could be rewritten under the kitchen.
 */
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import z from '@deepseek-ai/schemastery'

/** The kitchen row's plugin name, which its log lines name. */
export const PLUGIN_NAME = 'command-scout-kitchen'

export const THINKING = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const

export interface ProfileConfig {
  model: string
  thinking?: (typeof THINKING)[number]
}

export interface KitchenRowConfig {
  /** The kitchen directory; empty: `$DSH_HOME/kitchen` (`~/.dsh/kitchen`). */
  dir: string
  maxCooks: number
  models: {
    rules: { name: string; when: string; use: ProfileConfig[]; why?: string }[]
    default: ProfileConfig[]
  }
  /** Extra arguments for every cook's dsh. */
  cookArgs: string[]
  /** The cook command template; empty: the bundle's cook runner on this dsh install. */
  cookCommand: string[]
  rulebook: { default?: string; projects: Record<string, string> }
  killGraceMs: number
  exitGraceMs: number
  exitWaitMs: number
  reclaimAfterMs: number
  /** The credential each provider route reads its key from, for the model check before a dispatch. */
  providerKeys: Record<string, string>
  /** How long `chef_result {verify: true}` lets the test command run. */
  verifyTimeoutMs: number
}

const profile = z.object({
  model: z.string().required().description('provider/id, e.g. deepseek-official/deepseek-v4-flash'),
  thinking: z.union([...THINKING]).description('Reasoning effort for this model.'),
})

export const KitchenRowConfig: z<KitchenRowConfig> = z.object({
  dir: z.string().default('').description('Kitchen directory; empty means $DSH_HOME/kitchen.'),
  maxCooks: z.natural().min(1).default(3).description('Cooks running at once; more tasks queue.'),
  models: z.object({
    rules: z.array(z.object({
      name: z.string().required(),
      when: z.string().required(),
      use: z.array(profile).required(),
      why: z.string(),
    })).default([]),
    default: z.array(profile).default([]),
  }),
  cookArgs: z.array(String).default([]).description('Extra dsh arguments for every cook.'),
  cookCommand: z.array(String).default([]).description('Cook command template; empty runs the bundle cook runner.'),
  rulebook: z.object({
    default: z.string().description('Rulebook of the chef and of cooks without a project entry; "none" for no block.'),
    projects: z.dict(String).default({}).description('Rulebook per project name.'),
  }),
  killGraceMs: z.natural().default(5_000),
  exitGraceMs: z.natural().default(10_000),
  exitWaitMs: z.natural().default(5_000),
  reclaimAfterMs: z.natural().default(30_000),
  providerKeys: z.dict(String).default({ 'deepseek-official': 'DEEPSEEK_API_KEY' }).description('Credential name per provider route.'),
  verifyTimeoutMs: z.natural().min(1).default(300_000).description('Budget of chef_result verify (ms).'),
}) as never

/** A row config a patch layer sent, schema-checked: the new config, or the log line that says why the kitchen keeps its own. */
export function checkRowConfig(raw: unknown): { row: KitchenRowConfig } | { refused: string } {
  try {
    return { row: (KitchenRowConfig as unknown as (v: unknown) => KitchenRowConfig)(raw ?? {}) }
  } catch (error) {
    return { refused: `${PLUGIN_NAME} config: ${(error as Error).message}; the kitchen keeps its config` }
  }
}

/** The kitchen directory the row names, absolute. */
export function kitchenDir(config: Pick<KitchenRowConfig, 'dir'>, env: NodeJS.ProcessEnv = process.env): string {
  const dshHome = env.DSH_HOME ? resolve(env.DSH_HOME) : join(homedir(), '.dsh')
  const dir = config.dir?.trim() ?? ''
  if (dir === '') return join(dshHome, 'kitchen')
  if (dir === '~' || dir.startsWith('~/')) return join(homedir(), dir.slice(1))
  return isAbsolute(dir) ? dir : resolve(dir)
}

/**
 * The kitchen config (the core's `normalizeKitchenConfig` input) from the row. The cook command is
 * not in it: the service hands the core that one on its own (`KitchenDeps.cookCommand`).
 */
export function kitchenConfigFile(row: KitchenRowConfig): Record<string, unknown> {
  const rb: Record<string, unknown> = {}
  if (row.rulebook?.default !== undefined && row.rulebook.default !== '') rb.default = row.rulebook.default
  if (row.rulebook?.projects && Object.keys(row.rulebook.projects).length > 0) rb.projects = { ...row.rulebook.projects }
  const out: Record<string, unknown> = {
    maxCooks: row.maxCooks,
    models: {
      rules: (row.models?.rules ?? []).map((r) => ({ name: r.name, when: r.when, use: r.use, ...(r.why ? { why: r.why } : {}) })),
      default: row.models?.default ?? [],
    },
    cookArgs: row.cookArgs ?? [],
    killGraceMs: row.killGraceMs,
    exitGraceMs: row.exitGraceMs,
    exitWaitMs: row.exitWaitMs,
    reclaimAfterMs: row.reclaimAfterMs,
  }
  if (Object.keys(rb).length > 0) out.rulebook = rb
  return out
}
