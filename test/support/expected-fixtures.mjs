// One test per folder under a fixture directory: the collector's recipes and diagnostics must
// match the folder's expected.json. Recipes are compared by name, in order, and each field an
// expected recipe names is compared exactly; diagnostics by file, line, severity and a `match`
// regular expression; `files`, when given, exactly. Shared by the collectors' fixture tests.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export function fixtureTests(collector, fixtures, { source = collector.source } = {}) {
  for (const name of readdirSync(fixtures).sort()) {
    const dir = join(fixtures, name)
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
    test(`${source} fixture ${name}: recipes and diagnostics match expected.json`, () => {
      const result = collector.collect({ root: dir, options: { enabled: true } })
      assert.deepEqual(result.recipes.map((r) => r.name), expected.recipes.map((r) => r.name), 'the names, in order')
      expected.recipes.forEach((want, i) => {
        const got = result.recipes[i]
        assert.equal(got.source, source)
        for (const [key, value] of Object.entries(want)) assert.deepEqual(got[key], value, `${want.name}.${key}`)
      })
      assert.equal(result.diagnostics.length, expected.diagnostics.length, `diagnostics: ${JSON.stringify(result.diagnostics, null, 1)}`)
      expected.diagnostics.forEach((want, i) => {
        const got = result.diagnostics[i]
        assert.equal(got.source, source)
        assert.equal(got.file, want.file, `diagnostic ${i} file`)
        assert.equal(got.line, want.line, `diagnostic ${i} line: ${got.message}`)
        assert.equal(got.severity, want.severity, `diagnostic ${i} severity: ${got.message}`)
        assert.match(got.message, new RegExp(want.match))
      })
      if (expected.files) assert.deepEqual(result.files, expected.files)
    })
  }
}
