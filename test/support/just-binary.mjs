// The just binary, from COMMAND_SCOUT_RUNNERS_BIN or PATH. The npm package's `just` is a Node
// launcher that costs ~0.6 s per call; its native binary sits in a sibling package, so use that.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'

export function findJust() {
  const dirs = [process.env.COMMAND_SCOUT_RUNNERS_BIN, ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean)
  for (const d of dirs) {
    try {
      accessSync(join(d, 'just'), constants.X_OK)
    } catch {
      continue
    }
    const real = realpathSync(join(d, 'just'))
    if (!/\.m?js$/.test(real)) return real
    const native = join(dirname(real), '..', '..', `rust-just-${process.platform}-${process.arch}`, 'bin', 'just')
    return existsSync(native) ? native : real
  }
  return undefined
}
