/**
 * The cook runner's startup plugin (row `command-scout-cook-startup`): takes the role variables out
 * of the environment, parses the cook flags from the launcher's command line, and provides them as
 * the `cookStartup` service, which the session store's row and the runner inject. A bad command line
 * is a `runner_error` line on stdout (the run file) and exit code 2; `--help` prints the usage.
 */
import { writeSync } from 'node:fs'
import type { Context } from '@deepseek-ai/cordis'
import { COOK_HELP, ROLE_ENV, parseCookFlags, type CookStartup } from './flags.js'

export const name = 'command-scout-cook-startup'
export const inject = ['cmdlineArgs']

/** The service name the overlay's rows inject. */
export const COOK_STARTUP_SERVICE = 'cookStartup'

/**
 * Reads and deletes the role variables, so that a `dsh` or a kitchen the cook's tools start is
 * not taken for this cook. Called once, when the plugin loads.
 */
export function takeRoleEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const taken: Record<string, string | undefined> = {}
  for (const key of ROLE_ENV) {
    taken[key] = env[key]
    delete env[key]
  }
  return taken
}

type Exit = (code: number) => void

export function apply(ctx: Context): void {
  const role = takeRoleEnv()
  const args = (ctx.get('cmdlineArgs') as { get(): readonly string[] } | undefined)?.get() ?? []
  const exit = ctx.get('appExit') as Exit | undefined
  const r = parseCookFlags(args, role)
  if (r.kind === 'help') {
    writeSync(1, COOK_HELP)
    exit?.(0)
    return
  }
  if (r.kind === 'error') {
    writeSync(1, JSON.stringify({ type: 'runner_error', at: Date.now(), message: r.message }) + '\n')
    process.stderr.write(`dsh cook runner: ${r.message}\n`)
    exit?.(2)
    return
  }
  const startup: CookStartup = r.startup
  ;(ctx as unknown as { provide(name: string, value: unknown): void }).provide(COOK_STARTUP_SERVICE, Object.freeze(startup))
}
