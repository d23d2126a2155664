// The build scripts' one way to write a generated file: unchanged, a file is left alone (a running CLI
// may be reading it); changed, it is replaced whole, through a temporary file made exclusively (never
// through a link planted at its name).
import { randomBytes } from 'node:crypto'
import { constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'

/** Writes `content` to `file` unless it already holds it; true when it wrote. */
export function replaceIfChanged(file, content) {
  let before
  try {
    before = readFileSync(file, 'utf8')
  } catch {}
  if (before === content) return false
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(tmp, content, { flag: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW })
  try {
    renameSync(tmp, file)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
  return true
}
