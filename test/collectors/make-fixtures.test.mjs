// Each folder under test/fixtures/make is one rule: the make collector's recipes and
// diagnostics must match its expected.json (fields named there are compared exactly).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_GOAL_NAME, makeCollector } from '../../dist/src/collectors/make/collect.js'

const fixtures = new URL('../fixtures/make/', import.meta.url).pathname

for (const name of readdirSync(fixtures).sort()) {
  const dir = join(fixtures, name)
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
  test(`make fixture ${name}: recipes and diagnostics match expected.json`, () => {
    const result = makeCollector.collect({ root: dir, options: { enabled: true } })
    // Plain `make` comes first, whenever the makefile has a default goal (checked against make in make-oracle).
    const goal = result.recipes[0]?.name === DEFAULT_GOAL_NAME ? result.recipes[0] : undefined
    const targets = goal ? result.recipes.slice(1) : result.recipes
    const goalName = goal && (goal.description.match(/plain `make` builds `([^`]+)`/)?.[1] ?? (goal.description.includes('computed at run time') ? '(computed)' : goal.description))
    assert.equal(goalName, expected.defaultGoal, 'the default goal')
    if (goal) assert.equal(goal.command, 'make')
    if (expected.defaultMatch) assert.match(goal.description, new RegExp(expected.defaultMatch))
    assert.deepEqual(targets.map((r) => r.name), expected.recipes.map((r) => r.name), 'listed targets, in file order')
    expected.recipes.forEach((want, i) => {
      const got = targets[i]
      for (const [key, value] of Object.entries(want)) assert.deepEqual(got[key], value, `${want.name}.${key}`)
      assert.equal(got.source, 'make')
      assert.equal(got.runner, 'make')
      assert.equal(got.cwd, '.')
      if (!('command' in want)) assert.equal(got.command, `make ${got.name}`)
      if (!('file' in want)) assert.equal(got.file, result.files[0], `${want.name} is defined in the root makefile`)
    })
    assert.equal(result.diagnostics.length, expected.diagnostics.length, `diagnostics: ${JSON.stringify(result.diagnostics, null, 1)}`)
    expected.diagnostics.forEach((want, i) => {
      const got = result.diagnostics[i]
      assert.equal(got.source, 'make')
      assert.equal(got.file, want.file)
      assert.equal(got.line, want.line)
      assert.equal(got.severity, want.severity)
      assert.match(got.message, new RegExp(want.match))
    })
    if (expected.files) assert.deepEqual(result.files, expected.files)
  })
}

test('make collector names the makefiles it watches', () => {
  assert.deepEqual([...makeCollector.manifestNames], ['GNUmakefile', 'makefile', 'Makefile'])
})

test('target names with shell metacharacters are quoted in the command', async (t) => {
  const { writeFileSync } = await import('node:fs')
  const { tempDir } = await import('../support/temp.mjs')
  const dir = tempDir(t, 'make-quote-')
  writeFileSync(join(dir, 'Makefile'), 'lib(a.o): a.o\n\ttrue\nplain-name:\n\ttrue\n')
  const result = makeCollector.collect({ root: dir, options: { enabled: true } })
  assert.deepEqual(result.recipes.map((r) => r.command), ['make', "make 'lib(a.o)'", 'make plain-name'])
})
