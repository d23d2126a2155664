// The whole CLI as a person or a script runs it: `node bin/command-scout scan --format json` on a
// synthetic pnpm monorepo of 250, 500 and 1,000 packages (bench/scripts.bench.mjs builds it), next
// to a bare `node -e 0` spawn as the floor any Node CLI pays. Prints medians and the ratios.
// Usage: node bench/scan.bench.mjs (after npm run build).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeMonorepo, printTable, time } from './scripts.bench.mjs'

const BIN = new URL('../bin/command-scout', import.meta.url).pathname
const fmt = (ms) => `${ms.toFixed(1)} ms`

const base = mkdtempSync(join(tmpdir(), 'scout-bench-scan-'))
try {
  const floor = time(() => execFileSync(process.execPath, ['-e', '0']), 9)
  const rows = [['packages', 'scan --format json', 'node -e 0', 'scan - node', 'ratio', 'recipes']]
  const linear = []
  for (const count of [250, 500, 1000]) {
    const dir = join(base, `mono-${count}`)
    makeMonorepo(dir, count, 'pnpm')
    const scan = () => execFileSync(process.execPath, [BIN, 'scan', '--format', 'json', '--root', dir], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NO_COLOR: '1' } })
    const out = JSON.parse(scan())
    const recipes = out.recipes.length
    if (recipes !== 4 + 6 * count) throw new Error(`scan found ${recipes} recipes, expected ${4 + 6 * count}`)
    const ms = time(scan, 9)
    linear.push([count, ms - floor])
    rows.push([count, fmt(ms), fmt(floor), fmt(ms - floor), `${(ms / floor).toFixed(1)}x`, recipes])
  }
  console.log('command-scout scan --format json, whole process (medians; ratio = scan / node -e 0; target: 1,000 packages under 300 ms)')
  printTable(rows)
  const [[n0, t0]] = linear
  console.log(`linearity of the work above the node floor (per package, relative to ${n0}): ${linear.map(([n, t]) => `${n}: ${((t / n) / (t0 / n0)).toFixed(2)}`).join(', ')}`)
} finally {
  rmSync(base, { recursive: true, force: true })
}
