// The make collector against GNU make itself: on a throwaway copy of each fixture, the targets
// make's own database lists (`make -pRrq -f <file> :`) must equal the targets the collector
// parses, and, with the .PHONY policy applied to make's list, the targets it offers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_GOAL_NAME, defaultMakefile, listedTargets, makeCollector } from '../../dist/src/collectors/make/collect.js'
import { parseMakefile } from '../../dist/src/collectors/make/parse.js'
import { readText } from '../../dist/src/collectors/shared/fs.js'
import { onPath } from '../../dist/src/book/discover.js'
import { isAmbiguous, makeDatabase } from './make-database.mjs'

const fixtures = new URL('../fixtures/make/', import.meta.url).pathname
const noMake = !onPath('make') && 'make is not on PATH'

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
        assert.ok(db.stdout.includes('# Files'), `make printed no database: ${db.stderr}`)
        if (args.length === 0) assert.equal(parsed.defaultGoal, db.defaultGoal, 'the default goal')
        for (const e of db.entries) if (!isAmbiguous(e)) fromMake.add(e.name)
        for (const p of db.phony) phony.add(p)
      }
      const sorted = (s) => [...s].sort()
      const ours = parsed.targets.filter((t) => !isAmbiguous({ phony: parsed.phony.has(t.name), hasPrerequisites: t.prerequisites.length + t.orderOnly.length > 0 || t.unresolvedPrerequisites, hasRecipe: t.hasRecipe }))
      if (expected.oracle?.compare !== 'listed') {
        assert.deepEqual(sorted(ours.map((t) => t.name)), sorted(fromMake), 'every explicit target')
      }
      // The policy on make's own list: phony targets, plus documented file targets.
      const docs = new Map(parsed.targets.map((t) => [t.name, t.doc]))
      const policy = [...fromMake].filter((t) => phony.size === 0 || phony.has(t) || docs.get(t))
      const ambiguous = new Set(parsed.targets.filter((t) => !ours.includes(t)).map((t) => t.name))
      const listed = makeCollector.collect({ root: dir, options: { enabled: true } }).recipes.map((r) => r.name).filter((n) => !ambiguous.has(n) && n !== DEFAULT_GOAL_NAME)
      assert.deepEqual(sorted(listed), sorted(policy), 'listed targets')
      assert.deepEqual(sorted(listedTargets(parsed).map((t) => t.target.name)), sorted(listed))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}

// A makefile make refuses while reading it (`*** missing separator.  Stop.`) offers nothing:
// the collector lists no target exactly when make stops before it could build one.
for (const name of readdirSync(fixtures).sort()) {
  const src = join(fixtures, name)
  const expected = JSON.parse(readFileSync(join(src, 'expected.json'), 'utf8'))
  const file = defaultMakefile(src)
  const skip = noMake || (!file && 'no makefile in this fixture') || (expected.oracle?.skip?.includes('crash') && expected.oracle.skip)
  test(`make fixture ${name}: listed only when make reads the makefile to the end`, { skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), `make-refuse-${name}-`))
    try {
      cpSync(src, dir, { recursive: true })
      const db = makeDatabase(dir, defaultMakefile(dir).slice(dir.length + 1))
      // "No rule to make target" is about a goal or an include, not the makefile's syntax.
      const stopped = db.stderr.split('\n').find((l) => /\*\*\* .*Stop\.$/.test(l) && !l.includes('No rule to make target') && !l.includes('Is a directory'))
      const result = makeCollector.collect({ root: dir, options: { enabled: true } })
      const refusal = result.diagnostics.find((d) => d.message.startsWith('make refuses this makefile'))
      assert.equal(Boolean(refusal), Boolean(stopped), `make said: ${db.stderr}`)
      if (stopped) {
        assert.deepEqual(result.recipes, [])
        // The line make names is the line of the error the collector reports.
        const at = /^[^:]+:(\d+): \*\*\*/.exec(stopped)?.[1]
        if (at) assert.ok(result.diagnostics.some((d) => d.severity === 'error' && d.line === Number(at)), `an error at line ${at}: ${JSON.stringify(result.diagnostics)}`)
      } else assert.ok(result.recipes.length > 0 || expected.recipes.length === 0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
}
