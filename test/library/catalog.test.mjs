// The library as a whole: the validator accepts it, every category is stocked, the related graph
// is sound, and every recipe is exercised by a test in this folder.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { validateLibrary, formatIssues, CATEGORIES } from '../../dist/src/curated/index.js'
import { library, recipesDir, render, assertBashSyntax } from './harness.mjs'

const here = new URL('.', import.meta.url).pathname

test('the validator finds no errors in recipes/', () => {
  const issues = validateLibrary([recipesDir])
  const errors = issues.filter((i) => i.severity === 'error')
  assert.deepEqual(errors, [], formatIssues(errors))
  assert.equal(library.issues.filter((i) => i.severity === 'error').length, 0)
})

test('every category has at least 8 recipes, 48 in all', () => {
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0]))
  for (const r of library.recipes) counts[r.category]++
  for (const c of ['git', 'docker', 'files', 'network', 'node', 'db']) assert.ok(counts[c] >= 8, `${c} has ${counts[c]} recipes: ${JSON.stringify(counts)}`)
  assert.ok(library.recipes.length >= 48, `${library.recipes.length} recipes`)
  // Every YAML file under recipes/ loaded as a recipe (none dropped for an error).
  const files = readdirSync(recipesDir, { recursive: true }).filter((f) => String(f).endsWith('.yaml'))
  assert.equal(library.recipes.length, files.length)
})

test('every related id exists, and every recipe is linked to at least one other', () => {
  const linked = new Set()
  for (const r of library.recipes) {
    assert.ok(r.related.length > 0, `${r.id} lists no related recipes`)
    for (const id of r.related) {
      assert.ok(library.byId.has(id), `${r.id} relates to unknown ${id}`)
      assert.notEqual(id, r.id)
      linked.add(id)
      linked.add(r.id)
    }
  }
  assert.deepEqual(library.recipes.map((r) => r.id).filter((id) => !linked.has(id)), [])
})

test('destructive recipes ask for confirmation and say what cannot be undone', () => {
  for (const r of library.recipes.filter((x) => x.risk === 'destructive')) {
    assert.equal(r.requires_confirmation, true, r.id)
    assert.ok(r.undo.possible || r.undo.note, r.id)
  }
})

test('every recipe outside docker is rendered and run by a test in test/library', () => {
  const sources = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).map((f) => readFileSync(join(here, f), 'utf8')).join('\n')
  const rendered = new Set([...sources.matchAll(/render\('([a-z]+\.[a-z0-9_]+)'/g)].map((m) => m[1]))
  const missing = library.recipes.filter((r) => r.category !== 'docker' && !rendered.has(r.id)).map((r) => r.id)
  assert.deepEqual(missing, [], 'recipes without a test')
})

/** Values tried, in order, for a parameter without a default: the first its pattern accepts is used. */
const SAMPLES = ['web', 'shop', 'public.orders', 'notes.txt', 'backup.dump', 'export.csv', 'site.tar.gz', 'abc1234', 'feature/login',
  'https://example.com/file.tar.gz', 'example.com', 'fix typo in README', 'lodash', 'reader', '/var/log/app', '20']

test('every recipe renders on every platform it declares; the macOS and Linux renders pass bash -n', () => {
  let renders = 0
  for (const r of library.recipes) {
    const params = {}
    for (const p of r.parameters.filter((x) => x.default === undefined)) {
      const value = p.type === 'enum' ? p.values[0] : p.type === 'number' ? 1 : SAMPLES.find((v) => !p.pattern || new RegExp(p.pattern).test(v))
      assert.ok(value !== undefined, `${r.id}: no sample value fits parameter ${p.name}`)
      params[p.name] = value
    }
    for (const platform of Object.keys(r.platforms)) {
      const out = render(r.id, params, platform)
      assert.equal(out.risk, r.risk)
      assert.ok(out.commands.length > 0 && out.verification.length > 0, `${r.id} on ${platform}`)
      assert.doesNotMatch(JSON.stringify(out), /\{\{\s*[a-z_]+\s*\}\}/, `${r.id} on ${platform} left a placeholder`)
      if (platform !== 'windows') assertBashSyntax(out)
      renders++
    }
  }
  assert.ok(renders >= library.recipes.length * 2)
})
