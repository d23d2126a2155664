// The recipe pages say "asks for confirmation" of exactly the recipes a run asks about: risk medium
// or above, or marked `requires_confirmation` (a medium recipe such as git.undo_last_commit asks
// although it is not marked). Checked against the run's own decision where a recipe renders.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { indexPage, recipePage } from '../../dist/src/serve/pages.js'
import { decideRecipeRun } from '../../dist/src/curated/confirm.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR, supportedPlatforms } from '../../dist/src/curated/index.js'

const library = loadLibrary([SHIPPED_RECIPES_DIR])

/** The documented rule, written out here rather than taken from the code under test. */
const asks = (recipe) => recipe.requires_confirmation || recipe.risk === 'medium' || recipe.risk === 'destructive'

/** Whether a run of the recipe, rendered with its defaults, asks; undefined when it needs parameters to render. */
function runAsks(recipe) {
  try {
    return decideRecipeRun(library, renderRecipe(library, recipe.id, { platform: supportedPlatforms(recipe)[0] })).kind === 'ask'
  } catch {
    return undefined
  }
}

/** The index's meta line of each recipe, by id. */
function indexMeta(html) {
  const meta = new Map()
  for (const m of html.matchAll(/<a href="\/recipes\/([^"]+)">[^\n]*\n<span class="meta">([^\n]*)<\/span>/g)) meta.set(m[1], m[2])
  return meta
}

test('the shipped library has recipes on both sides of the rule, and a medium one that is not marked', () => {
  const undo = library.byId.get('git.undo_last_commit')
  assert.ok(undo, 'git.undo_last_commit is shipped')
  assert.equal(undo.risk, 'medium')
  assert.equal(undo.requires_confirmation, false)
  assert.ok(library.recipes.some((r) => !asks(r)), 'some recipe runs without asking')
})

test('the rule here is the run\'s: every recipe that renders with its defaults asks exactly when the rule says', () => {
  let checked = 0
  for (const recipe of library.recipes) {
    const decided = runAsks(recipe)
    if (decided === undefined) continue
    checked++
    assert.equal(decided, asks(recipe), `${recipe.id} (risk ${recipe.risk}, marked ${recipe.requires_confirmation})`)
  }
  assert.ok(checked >= library.recipes.length / 2, `${checked} of ${library.recipes.length} recipes rendered`)
})

test('the index says "asks for confirmation" of exactly the recipes that ask', () => {
  const meta = indexMeta(indexPage(library, new URLSearchParams()))
  assert.equal(meta.size, library.recipes.length, 'every recipe is listed')
  for (const recipe of library.recipes) {
    assert.equal(meta.get(recipe.id).includes('asks for confirmation'), asks(recipe), `${recipe.id}: ${meta.get(recipe.id)}`)
  }
})

test('a recipe page has the confirmation notice exactly when the recipe asks, saying why', () => {
  for (const recipe of library.recipes) {
    const notice = /<p class="notice" role="note"><strong>Asks for confirmation\.<\/strong> ([^<]*)<\/p>/.exec(recipePage(library, recipe, null))
    assert.equal(notice !== null, asks(recipe), `${recipe.id} (risk ${recipe.risk})`)
    if (!notice) continue
    if (recipe.risk === 'destructive') assert.match(notice[1], /deletes or overwrites data/, recipe.id)
    else assert.match(notice[1], /changes state you may want to keep/, recipe.id)
  }
})

test('a low recipe marked for confirmation gets the notice too, worded for its mark', () => {
  const low = library.recipes.find((r) => r.risk === 'low')
  assert.ok(low, 'a low recipe is shipped')
  const plain = /class="notice"/.test(recipePage(library, low, null))
  assert.equal(plain, false, `${low.id} unmarked has no notice`)
  const marked = { ...low, requires_confirmation: true }
  const html = recipePage({ ...library, byId: new Map([...library.byId, [low.id, marked]]) }, marked, null)
  assert.match(html, /<strong>Asks for confirmation\.<\/strong> This recipe changes state that is hard to restore\./)
})
