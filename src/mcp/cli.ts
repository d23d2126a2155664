/**
 * `command-scout mcp`: the MCP server over stdio, for any MCP client. stdout carries the protocol,
 * so everything people read goes to stderr. Runs until the client closes stdin (or SIGINT/SIGTERM);
 * commands still running are stopped, their process trees killed.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { LineTransport } from './transport.js'
import type { CliIo } from '../cli.js'
import { EXPOSURES, NAMING_STYLES, normalizeConfig, type ConfigInput } from '../config.js'
import { createMcpServer } from './server.js'

export const MCP_HELP = `command-scout mcp: an MCP server (stdio): a repository's commands and recipes

Usage: command-scout mcp [--root DIR] [options]

Tools: one per command the repository declares (a dispatcher tool "recipe" above
--threshold commands), curated_recipe_search and curated_recipe_render, and
curated_recipe_run with --allow-recipe-run. Arguments are words, each quoted
onto the command line. Every call is judged by what it runs, with its words: one
that deletes or overwrites what is not build output, discards work, rewrites
history, publishes or deploys runs only when the call passes "confirm": true,
and so does a curated recipe of risk medium or above. The tool list follows
edits to the manifests. Recipes are also resources
(command-scout://recipes/<id>).

Options:
  -r, --root DIR           repository whose commands are served (default: the
                           current directory)
      --naming STYLE       tool names: scoped (make_build, default) or flat
      --exposure MODE      auto (default), tools or dispatcher
      --threshold N        with auto, above N commands one dispatcher tool
                           (default 40)
      --timeout MS         kill a command's process tree after MS milliseconds
                           (default 120000)
      --dir DIR            an extra curated library
                           (<DIR>/<category>/<slug>.yaml; repeatable)
      --allow-recipe-run   offer curated_recipe_run (off: recipes are only
                           searched and rendered)
      --no-watch           don't follow manifest changes
  -h, --help               show this help

Client configuration (the command/args form most clients take):
  { "mcpServers": { "command-scout": { "command": "npx",
    "args": ["-y", "dsh-command-scout", "mcp", "--root", "."] } } }
`

class McpUsage extends Error {}

function positiveInt(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isInteger(n) || n < min) throw new McpUsage(`--${flag} must be a whole number >= ${min} (got ${JSON.stringify(text)})`)
  return n
}

export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>
  try {
    ;({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        root: { type: 'string', short: 'r' }, naming: { type: 'string' }, exposure: { type: 'string' }, threshold: { type: 'string' },
        timeout: { type: 'string' }, dir: { type: 'string', multiple: true }, 'allow-recipe-run': { type: 'boolean' },
        'no-watch': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }))
    if (values.help) return io.stdout(MCP_HELP), 0
    if (values.naming !== undefined && !NAMING_STYLES.includes(values.naming as never)) throw new McpUsage(`--naming must be one of ${NAMING_STYLES.join(', ')}`)
    if (values.exposure !== undefined && !EXPOSURES.includes(values.exposure as never)) throw new McpUsage(`--exposure must be one of ${EXPOSURES.join(', ')}`)
  } catch (error) {
    io.stderr(`command-scout mcp: ${(error as Error).message}\nTry 'command-scout mcp --help'.\n`)
    return 2
  }
  const root = resolve(io.cwd, (values.root as string | undefined) ?? '.')
  const input: ConfigInput = { root }
  if (values.naming) input.naming = { style: values.naming as never }
  if (values.exposure) input.exposure = values.exposure as never
  try {
    const threshold = positiveInt('threshold', values.threshold as string | undefined, 0)
    const timeout = positiveInt('timeout', values.timeout as string | undefined, 1)
    if (threshold !== undefined) input.dispatcherThreshold = threshold
    if (timeout !== undefined) input.execution = { timeoutMs: timeout }
  } catch (error) {
    io.stderr(`command-scout mcp: ${(error as Error).message}\n`)
    return 2
  }
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  const mcp = await createMcpServer({
    root,
    config: normalizeConfig(input),
    version: pkg.version,
    recipeDirs: ((values.dir as string[] | undefined) ?? []).map((d) => resolve(io.cwd, d)),
    allowRecipeRun: values['allow-recipe-run'] === true,
    watch: values['no-watch'] !== true,
    log: (line) => io.stderr(`command-scout mcp: ${line}\n`),
  })
  let stop = () => {}
  const closed = new Promise<void>((done) => {
    stop = done
    process.stdin.once('end', done)
  })
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  await mcp.connect(new LineTransport())
  mcp.server.onclose = stop
  await closed
  await mcp.close()
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return 0
}
