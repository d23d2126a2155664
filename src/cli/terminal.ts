/**
 * Whether a file descriptor is a terminal, without loading node:tty in the usual cases: that
 * module loads Node's stream and net modules, milliseconds of a scan that only prints.
 */
import { fstatSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'

export function isTerminal(fd: number): boolean {
  let st
  try {
    st = fstatSync(fd)
  } catch {
    return false
  }
  // A pipe or a file is no terminal, nor is /dev/null, the character device output is most often sent to.
  if (!st.isCharacterDevice()) return false
  try {
    if (statSync('/dev/null').rdev === st.rdev) return false
  } catch {
    // no /dev/null here: node:tty decides
  }
  // A builtin resolves from anywhere: the base path only has to be absolute.
  const tty = (process.getBuiltinModule?.('node:tty') ?? createRequire(process.execPath)('node:tty')) as typeof import('node:tty')
  return tty.isatty(fd)
}
