// npm run bench: builds the package, installs the pinned runners (for the baselines), then runs
// every bench/*.bench.mjs in turn. Each prints its own table of medians and ratios, measured
// against its baseline in the same run. Arguments filter by name: npm run bench -- make just
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const filters = process.argv.slice(2)
const step = (cmd) => {
  const r = spawnSync('bash', ['-c', cmd], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
step('npm run --silent build')
// The runners' own listing commands are the baselines: put the pinned ones on PATH.
const env = spawnSync('bash', ['-c', 'source test/setup/10-runners.sh >/dev/null && source test/setup/40-tools.sh >/dev/null && echo "$PATH"'], { cwd: root, encoding: 'utf8' })
if (env.status === 0) process.env.PATH = env.stdout.trim()
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
let failed = 0
for (const file of benches) {
  console.log(`\n== ${file}`)
  const r = spawnSync(process.execPath, [join(root, 'bench', file)], { cwd: root, stdio: 'inherit', env: process.env })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
