// The make collector against GNU make itself: on a throwaway copy of each fixture, the targets
// make's own database lists (`make -pRrq -f <file> :`) must equal the targets the collector
// parses, and, with the .PHONY policy applied to make's list, the targets it offers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defaultMakefile, listedTargets, makeCollector } from '../../dist/collectors/make.js'
import { parseMakefile } from '../../dist/collectors/make-parse.js'
import { readText } from '../../dist/collectors/fs.js'
import { onPath } from '../../dist/src/discover.js'

const fixtures = new URL('../fixtures/make/', import.meta.url).pathname
const noMake = !onPath('make') && 'make is not on PATH'

/**
 * Runs make's database listing and keeps what bash-completion's make target listing keeps:
 * entries of the "# Files" section that are targets (not "# Not a target:"), skipping
 * target-specific variable lines, names starting with "." and pattern rules.
 */
function makeDatabase(dir, file, args) {
  const run = spawnSync('make', ['-pRrq', '-f', file, ...args, ':'], {
    cwd: dir, encoding: 'utf8', timeout: 20_000, maxBuffer: 64 << 20,
    env: { PATH: process.env.PATH, LC_ALL: 'C' },
  })
  assert.ok(run.stdout.includes('# Files'), `make printed no database for ${file}: ${run.stderr}`)
  const targets = new Set()
  let phony = new Set()
  let inFiles = false
  let skipNext = false
  let afterVarComment = false
  for (const line of run.stdout.split('\n')) {
    if (line === '# Files') inFiles = true
    else if (line.startsWith('# Finished Make data base')) inFiles = false
    if (!inFiles) continue
    if (line === '# Not a target:') { skipNext = true; continue }
    if (/^# (makefile|automatic|default|environment|command line|override)/.test(line)) { afterVarComment = true; continue }
    if (line.startsWith('#') || line.startsWith('\t') || line === '') { skipNext = false; continue }
    const m = /^(.+?)::?(?:\s|$)/.exec(line)
    if (skipNext || afterVarComment || !m) { skipNext = false; afterVarComment = false; continue }
    const name = m[1]
    if (name === '.PHONY') phony = new Set(line.slice(m[0].length).trim().split(/\s+/).filter(Boolean))
    else if (!name.startsWith('.') && !name.includes('%')) targets.add(name)
  }
  return { targets, phony }
}

for (const name of readdirSync(fixtures).sort()) {
  const src = join(fixtures, name)
  const expected = JSON.parse(readFileSync(join(src, 'expected.json'), 'utf8'))
  const file = defaultMakefile(src)
  const skip = noMake || (!file && 'no makefile in this fixture') || expected.oracle?.skip
  test(`make fixture ${name} agrees with GNU make's database`, { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), `make-oracle-${name}-`))
    try {
      cpSync(src, dir, { recursive: true })
      const rootFile = defaultMakefile(dir)
      const parsed = parseMakefile(rootFile, { cwd: dir, read: readText })
      const fromMake = new Set()
      const phony = new Set()
      for (const args of expected.oracle?.runs ?? [[]]) {
        const db = makeDatabase(dir, rootFile.slice(dir.length + 1), args)
        for (const t of db.targets) fromMake.add(t)
        for (const p of db.phony) phony.add(p)
      }
      const sorted = (s) => [...s].sort()
      if (expected.oracle?.compare !== 'listed') {
        assert.deepEqual(sorted(parsed.targets.map((t) => t.name)), sorted(fromMake), 'every explicit target')
      }
      // The policy on make's own list: phony targets, plus documented file targets.
      const docs = new Map(parsed.targets.map((t) => [t.name, t.doc]))
      const policy = [...fromMake].filter((t) => phony.size === 0 || phony.has(t) || docs.get(t))
      const listed = makeCollector.collect({ root: dir, options: { enabled: true } }).recipes.map((r) => r.name)
      assert.deepEqual(sorted(listed), sorted(policy), 'listed targets')
      assert.deepEqual(sorted(listedTargets(parsed).map((t) => t.target.name)), sorted(listed))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}
