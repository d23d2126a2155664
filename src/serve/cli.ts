/**
 * `command-scout serve`: the recipe HTTP API and pages on 127.0.0.1 (by default) until SIGINT or
 * SIGTERM. Prints the URL it listens on (useful with --port 0, which picks a free port).
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CliIo } from '../cli.js'
import { startServer } from './server.js'

export const SERVE_HELP = `command-scout serve: the curated recipes as an HTTP API and web pages

Usage: command-scout serve [--host HOST] [--port PORT] [--root DIR]
                           [--dir DIR]...

Pages: / (search, category and risk filters), /recipes/<id> (parameters render
live, steps per platform, copy buttons), /commands (with --root).
API: GET /api/v1/recipes?q=&category=&tag=&risk=, GET /api/v1/recipes/<id>,
POST /api/v1/recipes/<id>/render {"platform": ..., "params": {...}},
GET /api/v1/commands (with --root); the OpenAPI document is
/api/v1/openapi.json.

Options:
      --host HOST   interface to listen on (default 127.0.0.1; 0.0.0.0 exposes
                    it to the network)
      --port PORT   port (default 8787; 0 picks a free one)
  -r, --root DIR    also serve this repository's commands
      --dir DIR     an extra curated library (<DIR>/<category>/<slug>.yaml;
                    repeatable)
  -h, --help        show this help
`

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  let values: { host?: string; port?: string; root?: string; dir?: string[]; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: { host: { type: 'string' }, port: { type: 'string' }, root: { type: 'string', short: 'r' }, dir: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    }))
  } catch (error) {
    io.stderr(`command-scout serve: ${(error as Error).message}\nTry 'command-scout serve --help'.\n`)
    return 2
  }
  if (values.help) return io.stdout(SERVE_HELP), 0
  const port = values.port === undefined ? 8787 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) return io.stderr(`command-scout serve: --port must be 0 to 65535 (got ${JSON.stringify(values.port)})\n`), 2
  const root = values.root === undefined ? undefined : resolve(io.cwd, values.root)
  const dirs = (values.dir ?? []).map((d) => resolve(io.cwd, d))
  for (const d of [...(root ? [root] : []), ...dirs]) if (!existsSync(d)) return io.stderr(`command-scout serve: ${d} does not exist\n`), 2
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  let running
  try {
    running = await startServer({ host: values.host ?? '127.0.0.1', port, version, recipeDirs: dirs, ...(root ? { root } : {}) })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    const why = e.code === 'EADDRINUSE' ? `port ${port} is in use; pick another with --port, or --port 0 for a free one` : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' ? `cannot listen on ${values.host}: no such interface here` : e.message
    io.stderr(`command-scout serve: ${why}\n`)
    return 1
  }
  io.stdout(`command-scout serve: listening on ${running.url}${root ? ` (commands of ${root})` : ''}\n`)
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  await running.close()
  return 0
}
