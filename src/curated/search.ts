/**
 * Searching the library: filters (category, every tag, risk) narrow the set; words rank it. Each word of
 * `text` must appear (case-insensitively, as a prefix of a word) in the recipe's id, title, tags,
 * description or pitfalls; matches in the id, title and tags weigh more. Ties keep id order.
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

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)

export function searchLibrary(library: Pick<Library, 'recipes'>, query: SearchQuery = {}): CuratedRecipe[] {
  const risks = query.risk === undefined ? undefined : Array.isArray(query.risk) ? query.risk : [query.risk]
  const tags = (query.tags ?? []).map((t) => t.toLowerCase())
  const terms = words(query.text ?? '')
  const scored: { recipe: CuratedRecipe; score: number }[] = []
  for (const recipe of library.recipes) {
    if (query.category && recipe.category !== query.category) continue
    if (risks && !risks.includes(recipe.risk)) continue
    if (!tags.every((t) => recipe.tags.includes(t))) continue
    let score = 0
    if (terms.length) {
      const strong = new Set([...words(recipe.id), ...words(recipe.title), ...recipe.tags.flatMap(words)])
      const weak = new Set([...words(recipe.description), ...recipe.pitfalls.flatMap(words)])
      const has = (set: Set<string>, term: string) => [...set].some((w) => w.startsWith(term))
      let all = true
      for (const term of terms) {
        if (has(strong, term)) score += 3
        else if (has(weak, term)) score += 1
        else { all = false; break }
      }
      if (!all) continue
    }
    scored.push({ recipe, score })
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.recipe.id < b.recipe.id ? -1 : a.recipe.id > b.recipe.id ? 1 : 0))
    .map((s) => s.recipe)
}
