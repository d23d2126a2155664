/**
 * The options scan, docs and run share, parsed by node's parseArgs, and their help lines. The
 * collector switches come from the collector table (src/base/collector-table.ts), so a new
 * collector gets its flag and help line by its row.
 */
import { resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { BUILTIN_SOURCES, type BuiltinSource } from '../base/collector-table.js'
import { normalizeConfig, NAMING_STYLES, RUNNERS, type Config, type ConfigInput } from '../book/config.js'
import { defaultCacheDir, type ScanCacheOptions } from '../book/scan-cache.js'
import { UsageError, type CliIo } from './io.js'
import { parseArgsMessage } from './parse-args-message.js'

/**
 * `--no-<source>` switches a collector off: flag name -> its key in `config.collectors` (its
 * source), one per built-in collector, so a new collector gets its flag and its help line without an edit here.
 */
export const COLLECTOR_FLAGS: Readonly<Record<string, BuiltinSource>> = Object.fromEntries(
  BUILTIN_SOURCES.map((source) => [`no-${source}`, source]),
)

export const COMMON_OPTIONS = {
  root: { type: 'string', short: 'r' },
  naming: { type: 'string' },
  runner: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  'no-cache': { type: 'boolean' },
  ...Object.fromEntries(Object.keys(COLLECTOR_FLAGS).map((k) => [k, { type: 'boolean' as const }])),
} satisfies ParseArgsConfig['options']

/** Wraps `--no-a --no-b ...` into lines that fit the help's 80 columns. */
function collectorFlagLines(indent: string): string {
  const lines: string[] = []
  let line = ''
  for (const flag of Object.keys(COLLECTOR_FLAGS).map((f) => `--${f}`)) {
    if (line && indent.length + line.length + 1 + flag.length > 80) lines.push(line), (line = '')
    line = line ? `${line} ${flag}` : flag
  }
  if (line) lines.push(line)
  return lines.map((l) => indent + l).join('\n')
}

/** The help lines of COMMON_OPTIONS, for each subcommand's help text. */
export const COMMON_HELP = `  -r, --root DIR        directory to scan (default: current directory)
      --naming STYLE    tool names: scoped (make_build, default) or flat (build)
      --runner NAME     package.json runner: auto (default), npm, yarn, pnpm or
                        bun
${collectorFlagLines('      ')}
                        skip a collector
      --no-cache        read every manifest again (by default a scan, and each
                        collector's result, is reused while none of the files
                        it read has changed; kept in ~/.cache/command-scout,
                        or COMMAND_SCOUT_CACHE_DIR; COMMAND_SCOUT_CACHE=off
                        turns every cache off)
  -h, --help            show this help`

export interface Common {
  root: string
  config: Config
  /** discover()'s cache option: the user's cache directory, or false for --no-cache. */
  cache: false | ScanCacheOptions
}

export function commonConfig(values: Record<string, unknown>, io: CliIo, command: string): Common {
  const root = resolve(io.cwd, (values.root as string | undefined) ?? '.')
  const input: ConfigInput = { root, collectors: {} }
  if (values.naming !== undefined) {
    if (!NAMING_STYLES.includes(values.naming as never)) throw new UsageError(`--naming must be one of ${NAMING_STYLES.join(', ')} (got ${values.naming})`, command)
    input.naming = { style: values.naming as Config['naming']['style'] }
  }
  if (values.runner !== undefined) {
    const runners = ['auto', ...RUNNERS]
    if (!runners.includes(values.runner as string)) throw new UsageError(`--runner must be one of ${runners.join(', ')} (got ${values.runner})`, command)
    input.collectors!.scripts = { runner: values.runner as 'auto' }
  }
  for (const [flag, key] of Object.entries(COLLECTOR_FLAGS)) {
    if (values[flag]) input.collectors![key] = { ...(input.collectors![key] ?? {}), enabled: false }
  }
  return { root, config: normalizeConfig(input), cache: values['no-cache'] ? false : { dir: defaultCacheDir(), build: io.build } }
}

export type Parsed = { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] }

/** parseArgs with its errors reworded as UsageErrors that name the subcommand. */
export function parseOptions(argv: string[], options: ParseArgsConfig['options'], command: string): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    return { values: values as Parsed['values'], positionals }
  } catch (error) {
    throw new UsageError(parseArgsMessage(error as Error & { code?: string }), command)
  }
}
