/**
 * `command-scout serve`: the recipe HTTP API and pages on 127.0.0.1 (by default) until SIGINT or
 * SIGTERM, and with --kitchen the kitchen's board (read-only). Prints the address it listens on
 * (useful with --port 0, which picks a free port), and warns when that address is reachable from
 * other machines.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CliIo } from './io.js'
import { visibleLine } from '../base/visible-text.js'
import { startServer } from '../serve/server.js'

export const SERVE_HELP = `command-scout serve: the curated recipes as an HTTP API and web pages

Usage: command-scout serve [--host HOST] [--port PORT] [--root DIR]
                           [--kitchen [DIR]] [--dir DIR]...

Pages: / (search, category and risk filters), /recipes/<id> (parameters render
live, steps per platform, copy buttons), /commands (with --root), /kitchen and
/kitchen/tasks/<id> (with --kitchen: every task live, its runs, log, messages
and diff; read-only, with the /chef command of each action to copy).
API: GET /api/v1/recipes?q=&category=&tag=&risk=, GET /api/v1/recipes/<id>,
POST /api/v1/recipes/<id>/render {"platform": ..., "params": {...}},
GET /api/v1/commands (with --root); with --kitchen
GET /api/v1/kitchen/tasks?page=&per=&state=, GET /api/v1/kitchen/tasks/<id>,
GET /api/v1/kitchen/tasks/<id>/diff and GET /api/v1/kitchen/events (server-sent
events). The OpenAPI document is /api/v1/openapi.json.

Options:
      --host HOST   interface to listen on (default 127.0.0.1; 0.0.0.0 exposes
                    it to the network). Requests must name the server's own
                    address in their Host header
      --port PORT   port (default 8787; 0 picks a free one)
  -r, --root DIR    also serve this repository's commands
      --kitchen [DIR]
                    also serve the board of this kitchen, read-only (default:
                    the chef's, $DSH_HOME/kitchen or ~/.dsh/kitchen; give DIR
                    when the kitchen row sets another dir)
      --dir DIR     an extra curated library (<DIR>/<category>/<slug>.yaml;
                    repeatable)
  -h, --help        show this help
`

/**
 * Takes `--kitchen [DIR]` out of the arguments: its DIR is optional, which parseArgs can't say. The
 * next word is its DIR unless it starts with `-` (serve takes no other words); `--kitchen=DIR` too.
 */
export function takeKitchen(argv: readonly string[]): { rest: string[]; kitchen?: string | true } {
  const rest: string[] = []
  let kitchen: string | true | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (a.startsWith('--kitchen=')) kitchen = a.slice('--kitchen='.length)
    else if (a === '--kitchen') {
      const next = argv[i + 1]
      if (next !== undefined && !next.startsWith('-')) (kitchen = next), i++
      else kitchen = true
    } else rest.push(a)
  }
  return { rest, ...(kitchen !== undefined ? { kitchen } : {}) }
}

/** The kitchen directory --kitchen names, absolute; an error line when it can't be a kitchen. */
async function kitchenOption(value: string | true | undefined, io: CliIo): Promise<{ dir?: string } | { problem: string }> {
  if (value === undefined) return {}
  if (value === '') return { problem: '--kitchen= is empty; give the kitchen directory, or --kitchen alone for the chef\'s' }
  const { defaultKitchenDir } = await import('../serve/kitchen/index.js')
  const dir = value === true ? defaultKitchenDir() : resolve(io.cwd, value)
  if (existsSync(dir) && !statSync(dir).isDirectory()) return { problem: `--kitchen ${visibleLine(dir)} is not a directory` }
  return { dir }
}

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  let values: { host?: string; port?: string; root?: string; dir?: string[]; help?: boolean }
  const taken = takeKitchen(argv)
  try {
    ;({ values } = parseArgs({
      args: taken.rest, strict: true, allowPositionals: false,
      options: {
        host: { type: 'string' }, port: { type: 'string' }, root: { type: 'string', short: 'r' }, dir: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
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
  const k = await kitchenOption(taken.kitchen, io)
  if ('problem' in k) return io.stderr(`command-scout serve: ${k.problem}\n`), 2
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  const kitchen = k.dir ? (await import('../serve/kitchen/index.js')).kitchenRoutes({ dir: k.dir, hasCommands: root !== undefined }) : undefined
  let running
  try {
    const host = values.host ?? '127.0.0.1'
    running = await startServer({ host, port, version, recipeDirs: dirs, ...(root ? { root } : {}), ...(kitchen ? { kitchen } : {}) })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    const why = e.code === 'EADDRINUSE'
      ? `port ${port} is in use; pick another with --port, or --port 0 for a free one`
      : e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND'
        ? `cannot listen on ${visibleLine(values.host ?? '')}: no such interface here`
        : visibleLine(e.message)
    io.stderr(`command-scout serve: ${why}\n`)
    return 1
  }
  // What it binds, as it is: an address of every interface is said as such, with the local URL.
  const local = running.bound === running.url ? '' : ` (every interface; on this machine ${running.url})`
  io.stdout(`command-scout serve: listening on ${running.bound}${local}${root ? ` (commands of ${visibleLine(root)})` : ''}\n`)
  if (k.dir) {
    const missing = existsSync(join(k.dir, 'tasks')) ? '' : ' (no kitchen there yet: the board shows it once the chef opens it with /chef on)'
    io.stdout(`command-scout serve: the board of the kitchen ${visibleLine(k.dir)} is at ${running.url}kitchen${missing}\n`)
  }
  if (!running.loopback) {
    const what = [root ? "this repository's commands" : '', k.dir ? "the kitchen's tasks, briefs and diffs" : ''].filter(Boolean).join(' and ')
    const readable = `the recipes${what ? ` and ${what}` : ''}`
    const fix = 'use --host 127.0.0.1 to keep it on this machine'
    io.stderr(`command-scout serve: warning: ${running.bound} is reachable from other machines: anyone on the network can read ${readable}; ${fix}\n`)
  }
  await new Promise<void>((done) => {
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  await running.close()
  return 0
}
