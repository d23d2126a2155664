/**
 * `command-scout serve`: the recipe HTTP API and pages on 127.0.0.1 (by default) until SIGINT or
 * SIGTERM. Prints the address it listens on (useful with --port 0, which picks a free port), and
 * warns when that address is reachable from other machines.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CliIo } from './main.js'
import { visibleLine } from '../base/visible-text.js'
import { startServer } from '../serve/server.js'

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
                    it to the network). Requests must name the server's own
                    address in their Host header
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
    io.stderr(`command-scout serve: ${visibleLine((error as Error).message)}\nTry 'command-scout serve --help'.\n`)
    return 2
  }
  if (values.help) return io.stdout(SERVE_HELP), 0
  const port = values.port === undefined ? 8787 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (values.port !== undefined && !/^[0-9]+$/.test(values.port))) return io.stderr(`command-scout serve: --port must be 0 to 65535, in decimal digits (got ${JSON.stringify(values.port)})\n`), 2
  if (values.host === '') return io.stderr(`command-scout serve: --host is empty; give an address such as 127.0.0.1, or 0.0.0.0 for every interface\n`), 2
  const root = values.root === undefined ? undefined : resolve(io.cwd, values.root)
  const dirs = (values.dir ?? []).map((d) => resolve(io.cwd, d))
  for (const d of [...(root ? [root] : []), ...dirs]) if (!existsSync(d)) return io.stderr(`command-scout serve: ${visibleLine(d)} does not exist\n`), 2
  // As scan says it: a file is no repository to serve (the pages would show one empty scan after another).
  for (const [flag, d] of [...(root ? [['--root', root]] : []), ...dirs.map((x) => ['--dir', x])]) {
    if (!statSync(d!).isDirectory()) return io.stderr(`command-scout serve: ${flag} ${visibleLine(d!)} is not a directory\n`), 2
  }
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  let running
  try {
    running = await startServer({ host: values.host ?? '127.0.0.1', port, version, recipeDirs: dirs, ...(root ? { root } : {}) })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    const why = e.code === 'EADDRINUSE' ? `port ${port} is in use; pick another with --port, or --port 0 for a free one` : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' ? `cannot listen on ${visibleLine(values.host ?? '')}: no such interface here` : visibleLine(e.message)
    io.stderr(`command-scout serve: ${why}\n`)
    return 1
  }
  // What it binds, as it is: an address of every interface is said as such, with the local URL.
  const local = running.bound === running.url ? '' : ` (every interface; on this machine ${running.url})`
  io.stdout(`command-scout serve: listening on ${running.bound}${local}${root ? ` (commands of ${visibleLine(root)})` : ''}\n`)
  if (!running.loopback) {
    io.stderr(`command-scout serve: warning: ${running.bound} is reachable from other machines: anyone on the network can read the recipes${root ? " and this repository's commands" : ''}; use --host 127.0.0.1 to keep it on this machine\n`)
  }
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  await running.close()
  return 0
}
