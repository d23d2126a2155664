// The recipe skills say "asks for confirmation" of exactly the recipes a run asks about: risk medium
// or above, or marked `requires_confirmation` (a medium recipe such as git.undo_last_commit asks
// although it is not marked).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { recipeSkills } from '../../dist/src/skills/write.js'
import { loadLibrary, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

const library = loadLibrary([SHIPPED_RECIPES_DIR])

/** The documented rule, written out here rather than taken from the code under test. */
const asks = (recipe) => recipe.requires_confirmation || recipe.risk === 'medium' || recipe.risk === 'destructive'

/** Each recipe's line under its heading (`` `id` · risk note · platforms ``), by id, from every skill of `lib`. */
function entryLines(lib) {
  const lines = new Map()
  for (const skill of recipeSkills(lib)) {
    for (const m of skill.body.matchAll(/^`([^`]+)` · (.*)$/gm)) lines.set(m[1], m[2])
  }
  return lines
}

test('every recipe entry says it asks for confirmation exactly when a run asks', () => {
  const undo = library.byId.get('git.undo_last_commit')
  assert.ok(undo && undo.risk === 'medium' && !undo.requires_confirmation, 'a medium recipe that is not marked is shipped')
  const lines = entryLines(library)
  assert.equal(lines.size, library.recipes.length, 'every recipe has an entry')
  for (const recipe of library.recipes) {
    const line = lines.get(recipe.id)
    assert.equal(line.includes('asks for confirmation'), asks(recipe), `${recipe.id}: ${line}`)
    assert.ok(!/asks for confirmation.*asks for confirmation/.test(line), `${recipe.id} says it once: ${line}`)
  }
  assert.match(lines.get('git.undo_last_commit'), /^medium risk, asks for confirmation · /)
})

test('a low recipe marked for confirmation says so; unmarked it does not', () => {
  const low = library.recipes.find((r) => r.risk === 'low')
  assert.ok(low, 'a low recipe is shipped')
  assert.match(entryLines({ ...library, recipes: [low] }).get(low.id), /^low risk · /)
  const marked = { ...low, requires_confirmation: true }
  assert.match(entryLines({ ...library, recipes: [marked] }).get(low.id), /^low risk, asks for confirmation · /)
})
