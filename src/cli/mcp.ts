/**
 * `command-scout mcp`: the MCP server over stdio, for any MCP client. stdout carries the protocol,
 * so everything people read goes to stderr. Runs until the client closes stdin (or SIGINT/SIGTERM);
 * commands still running are stopped, their process trees killed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { LineTransport } from '../mcp/transport.js'
import type { CliIo } from './io.js'
import { EXPOSURES, NAMING_STYLES, normalizeConfig, type ConfigInput } from '../book/config.js'
import { createMcpServer } from '../mcp/server.js'
import { clientConfig, configPlacement, isMcpClient, MCP_CLIENTS, serverCommand } from '../mcp/client-config.js'

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
(command-scout://recipes/<id>). Prompts, built from what the scan found: how to
build, test and lint the repository, what to run before a commit, and one per
recipe category.

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
      --print-config CLIENT
                           print the configuration that starts this server
                           from this checkout, for CLIENT: claude (a
                           \`claude mcp add\` line), cursor (.cursor/mcp.json),
                           vscode (.vscode/mcp.json) or generic (the
                           "mcpServers" form); the other options given go in
                           it, --root as an absolute path
  -h, --help               show this help

Client configuration (the package is not on npm: it runs from a clone). A
client starts the server wherever the client runs, so the configuration names
the repository (--root; without it, the current directory). In the clone,
  node bin/command-scout mcp --print-config claude --root /path/to/repo
prints, for this checkout's node and bin/command-scout:
  claude mcp add --transport stdio command-scout -- /path/to/node \\
    /path/to/clone/bin/command-scout mcp --root /path/to/repo
and --print-config cursor, vscode or generic prints the JSON, e.g.
  { "mcpServers": { "command-scout": { "command": "/path/to/node",
    "args": ["/path/to/clone/bin/command-scout", "mcp",
             "--root", "/path/to/repo"] } } }
(VS Code: { "servers": { "command-scout": { "type": "stdio", ... } } }).
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
        'no-watch': { type: 'boolean' }, 'print-config': { type: 'string' }, help: { type: 'boolean', short: 'h' },
      },
    }))
    if (values.help) return io.stdout(MCP_HELP), 0
    if (values.naming !== undefined && !NAMING_STYLES.includes(values.naming as never)) throw new McpUsage(`--naming must be one of ${NAMING_STYLES.join(', ')}`)
    if (values.exposure !== undefined && !EXPOSURES.includes(values.exposure as never)) throw new McpUsage(`--exposure must be one of ${EXPOSURES.join(', ')}`)
    const client = values['print-config'] as string | undefined
    if (client !== undefined && !isMcpClient(client)) {
      throw new McpUsage(`--print-config: unknown client ${JSON.stringify(client)}; the known clients are ${MCP_CLIENTS.join(', ')}`)
    }
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
  const recipeDirs = ((values.dir as string[] | undefined) ?? []).map((d) => resolve(io.cwd, d))
  const client = values['print-config'] as string | undefined
  if (client !== undefined && isMcpClient(client)) {
    // A configuration for a folder that isn't there would start a server that lists nothing.
    let isDir = false
    try {
      isDir = statSync(root).isDirectory()
    } catch {}
    if (!isDir) {
      io.stderr(`command-scout mcp: --root ${root} is not a directory${existsSync(root) ? '' : ' (it does not exist)'}; give the repository's path\n`)
      return 1
    }
    // The same server, started by the client: every option given, paths absolute, --root always.
    const options: string[] = []
    if (values.naming) options.push('--naming', values.naming as string)
    if (values.exposure) options.push('--exposure', values.exposure as string)
    if (values.threshold !== undefined) options.push('--threshold', String(input.dispatcherThreshold))
    if (values.timeout !== undefined) options.push('--timeout', String(input.execution!.timeoutMs))
    for (const dir of recipeDirs) options.push('--dir', dir)
    if (values['allow-recipe-run']) options.push('--allow-recipe-run')
    if (values['no-watch']) options.push('--no-watch')
    io.stdout(clientConfig(client, serverCommand(root, options)))
    io.stderr(`command-scout mcp: ${configPlacement(client)} It serves ${root}.\n`)
    return 0
  }
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  const mcp = await createMcpServer({
    root,
    config: normalizeConfig(input),
    version: pkg.version,
    recipeDirs,
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
