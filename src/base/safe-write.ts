/**
 * Writing a generated file where a repository's own files live (COMMANDS.md): through a new
 * temporary file in the same directory, renamed over the target. A rename replaces a symbolic
 * link itself, so a link the repository planted (`COMMANDS.md -> ../../outside/x`) never leads the
 * write elsewhere; a FIFO or a directory at the target is a clear error, never a hang or a stack
 * trace; a half-written file is never left behind.
 */
import { chmodSync, closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'

// node:crypto on first use: the scan path that bundles this module never writes.
const nodeRequire = createRequire(import.meta.url)

export class SafeWriteError extends Error {
  override name = 'SafeWriteError'
}

export interface SafeWriteResult {
  /** The target was a symbolic link; the link itself was replaced by the new file. */
  replacedLink: boolean
}

function what(st: Stats): string | undefined {
  if (st.isDirectory()) return 'a directory'
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  return undefined
}

/** Writes `text` to `target` atomically, never through a symbolic link and never into a special file. */
export function writeFileSafely(target: string, text: string): SafeWriteResult {
  let existing: Stats | undefined
  try {
    existing = lstatSync(target)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new SafeWriteError(`can't write ${target}: ${(error as Error).message}`)
  }
  const special = existing && what(existing)
  if (special) throw new SafeWriteError(`can't write ${target}: ${basename(target)} is ${special}, not a file; remove it or choose another file with --output`)
  const dir = dirname(target)
  const temp = join(dir, `.${basename(target)}.${process.pid}.${(nodeRequire('node:crypto') as typeof import('node:crypto')).randomBytes(4).toString('hex')}.tmp`)
  let fd: number
  try {
    // O_CREAT | O_EXCL (and O_NOFOLLOW): not even a link planted at the temporary name is followed.
    fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      existing?.isFile() ? existing.mode & 0o777 : 0o666,
    )
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new SafeWriteError(
      code === 'ENOENT'
        ? `can't write ${target}: the directory ${dir} does not exist`
        : code === 'EACCES' || code === 'EPERM'
          ? `can't write ${target}: permission denied in ${dir}`
          : `can't write ${target}: ${(error as Error).message}`,
    )
  }
  try {
    try {
      const data = Buffer.from(text)
      for (let off = 0; off < data.length;) off += writeSync(fd, data, off)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    if (existing?.isFile()) chmodSync(temp, existing.mode & 0o7777)
    renameSync(temp, target)
  } catch (error) {
    rmSync(temp, { force: true })
    throw new SafeWriteError(`can't write ${target}: ${(error as Error).message}`)
  }
  return { replacedLink: existing?.isSymbolicLink() ?? false }
}
