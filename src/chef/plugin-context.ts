/**
 * What the kitchen row reads from its plugin context both before and after its core is loaded: the
 * agent registry, and the log lines for the person, each said once while the row runs (a line the
 * row said before its core loaded is not said again by the core); and an error's text.
 */
import type { Context } from '@deepseek-ai/cordis'
import { PLUGIN_NAME } from './schema.js'

export function errorText(error: unknown): string {
  return (error as Error)?.message ?? String(error)
}

/** The agent registry, while the plugin runs. */
export function agentsOf(ctx: Context): { get(id: string): unknown; list(): unknown[] } | undefined {
  try {
    return ctx.get('agents') as never
  } catch {
    return undefined
  }
}

type Logger = { warn(format: string, ...args: unknown[]): void }

export class ReportOnce {
  private readonly reported = new Set<string>()

  constructor(private readonly ctx: Context) {}

  /** Error lines for the person: the harness log, each once. */
  readonly report = (lines: readonly string[]): void => {
    const log = (this.ctx as unknown as { logger?: (name: string) => Logger }).logger?.(PLUGIN_NAME)
    for (const l of lines) {
      if (this.reported.has(l)) continue
      this.reported.add(l)
      log?.warn('%s', l)
    }
  }
}
