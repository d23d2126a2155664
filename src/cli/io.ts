import { isKind, markKinds } from '../base/error-kind.js'
import type { RecordPlace } from '../book/scan-record.js'

/** What every subcommand writes to and reads from, and the error that means "you called it wrong". */

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Terminal width, undefined when stdout is not a terminal. */
  columns?: number
  cwd: string
  /** Whether stdout and stderr are the process's own (then `run` streams with backpressure). */
  realStreams?: boolean
  /**
   * Where a scan may remember its output for bin/command-scout to replay (src/book/scan-record.ts):
   * set by the launcher when the CLI runs from its bundle with stdout off a terminal.
   */
  record?: RecordPlace
  /** The build id of the CLI bundle running (bin/command-scout reads it from the bundle's first line); undefined outside the bundle. */
  build?: string
}

/** A mistake in the command line: exit 2, with a pointer to the help of `command` (e.g. `scan`). */
export class UsageError extends Error {
  static readonly kind: string = 'UsageError'
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, this.kind)
  }
  override name = 'UsageError'
  constructor(message: string, readonly command?: string) {
    super(message)
    markKinds(this, new.target)
  }
}

/** A failure the user can act on, already worded for them: one line, exit 1, no stack. */
export class CliFailure extends Error {
  static readonly kind: string = 'CliFailure'
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isKind(value, this.kind)
  }
  override name = 'CliFailure'
  constructor(message: string) {
    super(message)
    markKinds(this, new.target)
  }
}

/** The signature of a subcommand module's entry point. */
export type SubcommandRun = (argv: string[], io: CliIo) => number | Promise<number>

/** What a subcommand module exports: its own help text and its entry point. */
export interface SubcommandModule {
  help: string
  run: SubcommandRun
}
