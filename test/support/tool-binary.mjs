// Finds a real tool the collector tests compare against: first in the folders the test setup puts
// on PATH (COMMAND_SCOUT_TOOLS_BIN from test/setup/40-tools.sh, COMMAND_SCOUT_RUNNERS_BIN from
// 10-runners.sh), then on PATH. Returns its absolute path, or undefined.
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

export function toolBinary(name) {
  const dirs = [process.env.COMMAND_SCOUT_TOOLS_BIN, process.env.COMMAND_SCOUT_RUNNERS_BIN, ...(process.env.PATH ?? '').split(delimiter)]
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {}
  }
  return undefined
}

/** The skip reason for a test that needs `name`, or false when it is there. */
export function skipWithout(name, what = name) {
  return toolBinary(name) ? false : `${what} is not on PATH or in COMMAND_SCOUT_TOOLS_BIN; run \`source test/setup/40-tools.sh\` (npm test does), which installs it pinned`
}
