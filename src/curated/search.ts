/**
 * Searching the library. Filters (category, every tag, risk) narrow the set; words rank it with
 * MiniSearch's BM25 full-text ranking over the recipe's id, title and tags (weighted up) and its
 * description and pitfalls. A word matches a word of the recipe or its start (`branc` finds
 * `branch`), and a longer word also matches one typo; common words ("how", "to", "the", ...) are
 * ignored. Recipes that match every word come back, best first, ties in id order; when none matches
 * every word, those matching the most words come back instead, so a phrase like "port already in
 * use" still finds the port recipes.
 */
import { createRequire } from 'node:module'
import type MiniSearchType from 'minisearch'
import type { SearchResult } from 'minisearch'
import type { Category, CuratedRecipe, Library, Risk } from './schema.js'

// Loaded on the first search: show, render and validate never pay for it.
const require = createRequire(import.meta.url)
let MiniSearch: typeof MiniSearchType | undefined
const miniSearch = () => (MiniSearch ??= require('minisearch') as typeof MiniSearchType)

export interface SearchQuery {
  text?: string
  category?: Category | string
  /** Every tag listed must be on the recipe. */
  tags?: string[]
  /** One risk level, or several. */
  risk?: Risk | Risk[] | string | string[]
}

const STOP_WORDS = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'my', 'i', 'how', 'do', 'is', 'it', 'with', 'from', 'what', 'which', 'can', 'me',
  'all', 'that', 'this', 'be', 'by', 'at', 'get',
])
const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)

/**
 * Field weights: what a recipe is (its id, title and tags) counts far more than words that only
 * occur in its explanation; the title is what people phrase their question like.
 */
const BOOST = { title: 4, id: 3, tags: 3, description: 1, pitfalls: 0.3 } as const
const FIELDS = Object.keys(BOOST) as (keyof typeof BOOST)[]

interface Indexed {
  index: MiniSearchType<CuratedRecipe>
  byId: Map<string, CuratedRecipe>
}

/** One index per loaded library (the recipe list is immutable once loaded). */
const indexes = new WeakMap<readonly CuratedRecipe[], Indexed>()

function indexFor(recipes: readonly CuratedRecipe[]): Indexed {
  let indexed = indexes.get(recipes)
  if (!indexed) {
    const index = new (miniSearch())<CuratedRecipe>({
      idField: 'id',
      fields: FIELDS,
      tokenize: words,
      processTerm: (term) => (STOP_WORDS.has(term) ? null : term),
      extractField: (recipe, field) => {
        const value = (recipe as unknown as Record<string, unknown>)[field]
        return Array.isArray(value) ? value.join(' ') : String(value ?? '')
      },
    })
    index.addAll(recipes as CuratedRecipe[])
    indexed = { index, byId: new Map(recipes.map((r) => [r.id, r])) }
    indexes.set(recipes, indexed)
  }
  return indexed
}

/** The query's words without the common ones; all of them when every word is common. */
function queryTerms(text: string): string[] {
  const all = words(text)
  const terms = all.filter((w) => !STOP_WORDS.has(w))
  return terms.length ? terms : all
}

export function searchLibrary(library: Pick<Library, 'recipes'>, query: SearchQuery = {}): CuratedRecipe[] {
  const risks = query.risk === undefined ? undefined : Array.isArray(query.risk) ? query.risk : [query.risk]
  const tags = (query.tags ?? []).map((t) => t.toLowerCase())
  const passes = (recipe: CuratedRecipe) =>
    (!query.category || recipe.category === query.category) && (!risks || risks.includes(recipe.risk)) && tags.every((t) => recipe.tags.includes(t))
  const terms = queryTerms(query.text ?? '')
  if (terms.length === 0) return library.recipes.filter(passes).sort((a, b) => compareIds(a.id, b.id))
  const { index, byId } = indexFor(library.recipes)
  const options = {
    boost: BOOST,
    prefix: true,
    // One typo in a word of five letters or more; shorter words are too easy to confuse.
    fuzzy: (term: string) => (term.length >= 5 ? 1 : false),
    // Query terms are already cut: keep each one, even a common word when it is all there is.
    processTerm: (term: string) => term,
    filter: (result: SearchResult) => passes(byId.get(result.id)!),
  }
  let results = index.search(terms.join(' '), { ...options, combineWith: 'AND' })
  if (results.length === 0) {
    const any = index.search(terms.join(' '), { ...options, combineWith: 'OR' })
    const most = Math.max(0, ...any.map((r) => matchedTerms(r, terms)))
    results = any.filter((r) => matchedTerms(r, terms) === most)
  }
  return results.sort((a, b) => b.score - a.score || compareIds(a.id, b.id)).map((r) => byId.get(r.id)!)
}

/** How many of the query's words a result matched (a prefix or a fuzzy match counts). */
function matchedTerms(result: SearchResult, terms: string[]): number {
  return new Set(result.queryTerms).size || terms.length
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
