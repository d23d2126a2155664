/**
 * The CLI's last word on any error: one line a person can act on, an exit code, never a stack
 * (set COMMAND_SCOUT_DEBUG=1 to get the stack of an unexpected error). Control and bidi
 * characters in a message are shown escaped (visible-text.ts).
 */
import { ConfigError } from '../book/config.js'
import { visible, visibleLine } from '../base/visible-text.js'
import { CliFailure, UsageError } from './io.js'

const EXIT = { FAILURE: 1, USAGE: 2 } as const

/** What node's system errors mean, in words (the code stays in the line for searching). */
const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'it already exists',
  EMFILE: 'too many open files',
}

const SYSCALL_VERBS: Record<string, string> = {
  open: 'open', read: 'read', write: 'write', mkdir: 'create', scandir: 'read the directory', stat: 'read', lstat: 'read', rename: 'rename',
  unlink: 'remove', spawn: 'start',
}

export interface Outcome {
  text: string
  exitCode: number
}

/** The stderr text and exit code for an error that reached the top of the CLI. */
export function describeError(error: unknown, env: NodeJS.ProcessEnv = process.env): Outcome {
  // Messages quote what they were given (an argument, a path, a recipe's name): shown with
  // control and bidi characters escaped, so a name can't rewrite the terminal.
  if (error instanceof UsageError) {
    const help = `command-scout${error.command ? ` ${error.command}` : ''} --help`
    return { text: `command-scout: ${visible(error.message)}\nTry '${help}'.\n`, exitCode: EXIT.USAGE }
  }
  if (error instanceof ConfigError) return { text: `command-scout: ${visible(error.message)}\n`, exitCode: EXIT.USAGE }
  if (error instanceof CliFailure) return { text: `command-scout: ${visible(error.message)}\n`, exitCode: EXIT.FAILURE }
  const system = error as NodeJS.ErrnoException
  let line: string
  if (system && typeof system.code === 'string' && typeof system.syscall === 'string') {
    const verb = SYSCALL_VERBS[system.syscall] ?? system.syscall
    const reason = SYSTEM_REASONS[system.code] ?? system.code
    line = `can't ${verb}${system.path ? ` ${system.path}` : ''}: ${reason} (${system.code})`
  } else {
    line = error instanceof Error ? error.message : String(error)
  }
  const stack = env.COMMAND_SCOUT_DEBUG && error instanceof Error && error.stack ? `${error.stack}\n` : ''
  return { text: `command-scout: ${visibleLine(line.split('\n')[0]!)}\n${stack}`, exitCode: EXIT.FAILURE }
}
