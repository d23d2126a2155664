/**
 * Searching the library. Filters (category, every tag, risk) narrow the set; words rank it. A word
 * matches as a prefix of a word of the recipe's id, title, tags (weight 3) or description and pitfalls
 * (weight 1); common words ("how", "to", "the", ...) are ignored. Recipes that match every word come
 * back, best score first, ties in id order; when none matches every word, those matching the most words
 * come back instead, so a phrase like "port already in use" still finds the port recipes.
 */
import type { Category, CuratedRecipe, Library, Risk } from './schema.js'

export interface SearchQuery {
  text?: string
  category?: Category | string
  /** Every tag listed must be on the recipe. */
  tags?: string[]
  /** One risk level, or several. */
  risk?: Risk | Risk[] | string | string[]
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'my', 'i', 'how', 'do', 'is', 'it', 'with', 'from', 'what', 'which', 'can', 'me'])
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)

export function searchLibrary(library: Pick<Library, 'recipes'>, query: SearchQuery = {}): CuratedRecipe[] {
  const risks = query.risk === undefined ? undefined : Array.isArray(query.risk) ? query.risk : [query.risk]
  const tags = (query.tags ?? []).map((t) => t.toLowerCase())
  const all = words(query.text ?? '')
  const terms = all.filter((w) => !STOP_WORDS.has(w))
  if (terms.length === 0) terms.push(...all)
  const scored: { recipe: CuratedRecipe; score: number; matched: number }[] = []
  for (const recipe of library.recipes) {
    if (query.category && recipe.category !== query.category) continue
    if (risks && !risks.includes(recipe.risk)) continue
    if (!tags.every((t) => recipe.tags.includes(t))) continue
    const strong = [...words(recipe.id), ...words(recipe.title), ...recipe.tags.flatMap(words)]
    const weak = [...words(recipe.description), ...recipe.pitfalls.flatMap(words)]
    let score = 0
    let matched = 0
    for (const term of terms) {
      if (strong.some((w) => w.startsWith(term))) (score += 3), matched++
      else if (weak.some((w) => w.startsWith(term))) (score += 1), matched++
    }
    if (terms.length && matched === 0) continue
    scored.push({ recipe, score, matched })
  }
  let chosen = scored
  if (terms.length) {
    const complete = scored.filter((s) => s.matched === terms.length)
    const best = Math.max(0, ...scored.map((s) => s.matched))
    chosen = complete.length ? complete : scored.filter((s) => s.matched === best)
  }
  return chosen
    .sort((a, b) => b.score - a.score || (a.recipe.id < b.recipe.id ? -1 : a.recipe.id > b.recipe.id ? 1 : 0))
    .map((s) => s.recipe)
}
