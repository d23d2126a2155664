// The deno collector on a synthetic deno workspace (250, 500 and 1,000 members, 5 tasks each,
// deno.json and deno.jsonc mixed, a `./members/*` glob), against `deno task` with no task name in
// the same run: deno loads and checks the whole workspace's configs to print the root's task list.
// Prints medians and ratios. Usage: node bench/deno.bench.mjs (after npm run build; deno on PATH:
// source test/setup/10-runners.sh, or npm run bench).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { findBin, OFFLINE_ENV, printTable, time } from './scripts.bench.mjs'

/** Writes a deno workspace of `count` members under `dir`. */
export function makeDenoWorkspace(dir, count) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'deno.json'), JSON.stringify({
    workspace: ['./members/*'],
    tasks: { check: 'deno check .', test: { command: 'deno test -A', dependencies: ['check'] }, fmt: 'deno fmt' },
  }, null, 2))
  for (let i = 0; i < count; i++) {
    const member = join(dir, 'members', `m-${i}`)
    mkdirSync(member, { recursive: true })
    const tasks = {
      dev: 'deno run --watch mod.ts',
      build: { command: 'deno compile mod.ts', description: 'Compile the member' },
      test: 'deno test',
      lint: 'deno lint',
      ci: { description: 'Lint then test', dependencies: ['lint', 'test'] },
    }
    const body = JSON.stringify({ name: `@bench/m-${i}`, version: '1.0.0', exports: './mod.ts', tasks }, null, 2)
    if (i % 2) writeFileSync(join(member, 'deno.jsonc'), `// member ${i}\n${body.replace(/\n}$/, ',\n}')}\n`)
    else writeFileSync(join(member, 'deno.json'), body)
    writeFileSync(join(member, 'mod.ts'), 'export const x = 1\n')
  }
}

const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`

async function main() {
  const { denoCollector } = await import(new URL('../dist/src/collectors/deno/collect.js', import.meta.url))
  const deno = findBin('deno')
  const base = mkdtempSync(join(tmpdir(), 'scout-bench-deno-'))
  const rows = [['members', 'collector (in process)', 'deno task (list)', 'ratio', 'recipes']]
  const linear = []
  try {
    for (const count of [250, 500, 1000]) {
      const dir = join(base, `ws-${count}`)
      makeDenoWorkspace(dir, count)
      const collect = () => denoCollector.collect({ root: dir, options: { enabled: true } })
      const result = collect()
      if (result.recipes.length !== 3 + 5 * count || result.diagnostics.length) throw new Error(`unexpected result: ${result.recipes.length} recipes, ${result.diagnostics.length} diagnostics`)
      const ours = time(collect, 15)
      linear.push([count, ours])
      let theirs = NaN
      if (deno) {
        const env = { ...OFFLINE_ENV, DENO_DIR: join(base, '.deno') }
        const out = execFileSync(deno, ['task'], { cwd: dir, env, encoding: 'utf8' })
        if (!out.includes('- check')) throw new Error(`deno task printed no task list:\n${out}`)
        theirs = time(() => execFileSync(deno, ['task'], { cwd: dir, env, stdio: 'ignore' }), 5)
      }
      rows.push([count, fmt(ours), deno ? fmt(theirs) : 'n/a', deno ? `${(theirs / ours).toFixed(1)}x` : '', result.recipes.length])
    }
    console.log('deno collector vs deno task listing (medians; ratio = theirs / ours)')
    printTable(rows)
    const [[n0, t0]] = linear
    console.log(`linearity (time per member, relative to ${n0}): ${linear.map(([n, t]) => `${n}: ${((t / n) / (t0 / n0)).toFixed(2)}`).join(', ')}`)
    if (!deno) console.log('(deno is not on PATH: source test/setup/10-runners.sh)')
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
