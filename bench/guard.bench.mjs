// What the scan's guarantees cost and what they bound. Part 1: the guarded reads (regular-file
// check, size cap, non-blocking open) against a bare readFileSync over the same 2,000 manifests,
// and resolving members by real path against not resolving them. Part 2: whole scans of hostile
// repositories that once hung or blew up, each next to a scan of an ordinary repository of the
// same shape. Medians and ratios measured in the same run. Usage: node bench/guard.bench.mjs
import { readFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { timeMedian } from './support.mjs'
import { readText, resolveInsideRoot } from '../dist/src/collectors/shared/fs.js'
import { discover } from '../dist/src/index.js'

const base = mkdtempSync(join(tmpdir(), 'scout-bench-guard-'))
const fmt = (ms) => `${ms.toFixed(2)} ms`
try {
  const files = []
  for (let i = 0; i < 2000; i++) {
    const dir = join(base, 'reads', `p${i}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `p${i}`, scripts: { build: 'tsc', test: 'node --test' } }))
    files.push(join(dir, 'package.json'))
  }
  const bare = timeMedian(() => { for (const f of files) readFileSync(f, 'utf8') }, 9)
  const guarded = timeMedian(() => { for (const f of files) readText(f) }, 9)
  const root = join(base, 'reads')
  const dirs = files.map((_, i) => `p${i}`)
  const real = timeMedian(() => { for (const d of dirs) resolveInsideRoot(root, d) }, 9)
  console.log('reads of 2,000 small manifests (medians)')
  console.log(`  readFileSync          ${fmt(bare)}`)
  console.log(`  readText (guarded)    ${fmt(guarded)}   ratio ${(guarded / bare).toFixed(2)}x`)
  console.log(`  resolveInsideRoot     ${fmt(real)}   (per member ${(real / 2000 * 1000).toFixed(1)} us)`)

  const repo = (name, files) => {
    const dir = join(base, name)
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(join(dir, p, '..'), { recursive: true })
      writeFileSync(join(dir, p), text)
    }
    return dir
  }
  const cases = []
  const ordinary = repo('ordinary', { 'package.json': JSON.stringify({ workspaces: ['**'] }), 'packages/a/package.json': '{"scripts":{"t":"x"}}' })
  const doubled = repo('doubled', { 'package.json': JSON.stringify({ workspaces: ['**'] }), 'packages/a/package.json': '{"scripts":{"t":"x"}}' })
  for (const d of ['', 'packages', 'packages/a']) for (const l of ['l1', 'l2']) symlinkSync('.', join(doubled, d, l))
  cases.push(['"**" with l1 -> . and l2 -> . at three levels', ordinary, doubled])
  const bombs = repo('bombs', { 'package.json': JSON.stringify({ workspaces: ['{a,b}'.repeat(100), '*a'.repeat(50), '{1..1000000000}'] }) })
  cases.push(['workspace glob and brace bombs', ordinary, bombs])
  const plainMake = repo('make-plain', { Makefile: 'D := 0 1 2 3\nN := $(foreach a,$(D),$(a))\n$(N): $(N)\n' })
  const foreach = repo('make-foreach', { Makefile: 'D := 0 1 2 3 4 5 6 7 8 9\nN := $(foreach a,$(D),$(foreach b,$(D),$(foreach c,$(D),$(foreach d,$(D),$(a)$(b)$(c)$(d)))))\n$(N): $(N)\n$(N): $(N) x\n' })
  cases.push(['202 bytes of nested $(foreach) (10k x 10k)', plainMake, foreach])
  const chain = { justfile: "import? 'a0.just'\nroot:\n  echo\n" }
  const diamond = { justfile: "import? 'a0.just'\nimport? 'b0.just'\nroot:\n  echo\n" }
  for (let i = 0; i < 40; i++) {
    chain[`a${i}.just`] = `import? 'a${i + 1}.just'\nr${i}:\n  echo\n`
    for (const x of ['a', 'b']) diamond[`${x}${i}.just`] = `import? 'a${i + 1}.just'\nimport? 'b${i + 1}.just'\nr${x}${i}:\n  echo\n`
  }
  cases.push(['just import? diamond of 81 files', repo('just-chain', chain), repo('just-diamond', diamond)])
  console.log('\nwhole scans (discover, medians): hostile next to an ordinary repository of the same shape')
  for (const [label, a, b] of cases) {
    const plain = timeMedian(() => discover(a), 5, 1)
    const hostile = timeMedian(() => discover(b), 5, 1)
    console.log(`  ${label.padEnd(48)} ordinary ${fmt(plain).padStart(10)}  hostile ${fmt(hostile).padStart(10)}  ratio ${(hostile / plain).toFixed(1)}x`)
  }
} finally {
  rmSync(base, { recursive: true, force: true })
}
