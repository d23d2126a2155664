// The naming pass, which makes each runner's prefix and each scope's sanitized form once for all
// the recipes that share it, names every recipe as preferredToolName names it alone, with the first
// free `_n` suffix after a clash: checked on generated books of mixed runners, scopes and names.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RecipeBook, createRecipe, preferredToolName, RESERVED_TOOL_NAMES } from '../../dist/src/index.js'
import { MAX_TOOL_NAME } from '../../dist/src/book/recipe-book.js'
import { rng } from '../support/random.mjs'

/** assignToolNames as its contract says, one recipe at a time. */
function namesOneByOne(book, style) {
  const taken = new Set(RESERVED_TOOL_NAMES)
  const names = new Map()
  for (const recipe of book.entries()) {
    const wanted = preferredToolName(recipe, style)
    let name = wanted
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`
      // A cut name keeps room for its suffix (fitLength with the suffix reserved).
      name = wanted.length + suffix.length <= MAX_TOOL_NAME ? `${wanted}${suffix}` : undefined
      if (name === undefined) return undefined
    }
    taken.add(name)
    names.set(recipe.id, name)
  }
  return names
}

test('the naming pass gives the names preferredToolName gives, one recipe at a time', () => {
  const random = rng(17)
  const pick = (list) => list[Math.floor(random() * list.length)]
  let compared = 0
  for (let i = 0; i < 300; i++) {
    const recipes = []
    for (let k = 0; k < 40; k++) {
      const [source, runner] = pick([['make', 'make'], ['scripts', 'pnpm'], ['scripts', 'npm'], ['just', 'just'], ['task', 'Task-Runner'], ['x', '!!']])
      const name = pick(['build', 'test:watch', 'Build', 'run', 'bash', 'mod::x', 'a_b', '--', 'é', 'web_dev', 'dev'])
      const scope = pick([undefined, '@acme/web', 'web', 'a/b', '!!', 'mod'])
      recipes.push(createRecipe({ source, runner, name, command: `${runner} ${k}`, file: 'f', cwd: `d${k % 7}`, ...(scope ? { scope } : {}) }))
    }
    const book = new RecipeBook(recipes)
    for (const style of ['scoped', 'flat']) {
      const expected = namesOneByOne(book, style)
      if (!expected) continue
      assert.deepEqual([...book.assignToolNames(style)], [...expected])
      compared++
    }
  }
  assert.ok(compared > 500, `books compared: ${compared}`)
})
