/**
 * Whether a member directory (a go.work `use`, an Nx project, a CMake `include`) really lies
 * inside the scan root: both sides by real path, so a symlink or `..` that leaves the root is
 * refused. Missing paths are judged by their resolved path.
 */
import { relative, resolve, sep, isAbsolute } from 'node:path'
import { realPath } from './fs.js'

function real(path: string): string {
  try {
    return realPath(path)
  } catch {
    return resolve(path)
  }
}

export function insideRoot(root: string, path: string): boolean {
  const rel = relative(real(root), real(path))
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}
