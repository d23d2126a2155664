/** A recipe as search results show it, on every surface (dsh tool, MCP, HTTP API). */
import { supportedPlatforms } from './render.js'
import { type CuratedRecipe, type Library, type Platform, type Risk } from './schema.js'
import { searchLibrary } from './search.js'

export interface RecipeSummary {
  id: string
  title: string
  category: string
  risk: Risk
  tags: string[]
  requires_confirmation: boolean
  platforms: Platform[]
  parameters: { name: string; type: string; required: boolean; description: string; values?: string[] }[]
}

export function recipeSummary(r: CuratedRecipe): RecipeSummary {
  return {
    id: r.id, title: r.title, category: r.category, risk: r.risk, tags: [...r.tags],
    requires_confirmation: r.requires_confirmation || r.risk === 'destructive',
    platforms: supportedPlatforms(r),
    parameters: r.parameters.map((p) => ({
      name: p.name,
      type: p.type,
      required: p.default === undefined,
      description: p.description,
      ...(p.values ? { values: [...p.values] } : {}),
    })),
  }
}

/** How many recipe files failed validation (they are left out of every answer). */
export function invalidFileCount(library: Library): number {
  return new Set(library.issues.filter((i) => i.severity === 'error').map((i) => i.file)).size
}

export { CURATED_DESCRIPTIONS } from './descriptions.js'

export interface SearchAnswer { total: number; invalidFiles: number; recipes: RecipeSummary[] }

/** A search as the agent tools answer it: the best `limit` summaries, how many matched, how many files were left out. */
export function searchAnswer(library: Library, args: { query?: string; category?: string; tags?: string[]; risk?: string[] }, limit: number): SearchAnswer {
  const found = searchLibrary(library, {
    ...(args.query ? { text: args.query } : {}),
    ...(args.category ? { category: args.category } : {}),
    ...(args.tags ? { tags: args.tags } : {}),
    ...(args.risk ? { risk: args.risk } : {}),
  })
  return { total: found.length, invalidFiles: invalidFileCount(library), recipes: found.slice(0, limit).map(recipeSummary) }
}

/** What a model reads back from a search. */
export function searchText(v: SearchAnswer): string {
  const note = v.invalidFiles ? `\n(${v.invalidFiles} recipe file${v.invalidFiles === 1 ? '' : 's'} failed validation and ${v.invalidFiles === 1 ? 'is' : 'are'} left out; \`command-scout recipes validate\` names the problems)` : ''
  if (!v.recipes.length) return `No curated recipe matches; try fewer or other words.${note}`
  const lines = v.recipes.map((r) => `${r.id} [${r.risk}] ${r.title}${r.parameters.length ? ` (params: ${r.parameters.map((p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`).join(', ')})` : ''}`)
  return `${lines.join('\n')}${v.total > v.recipes.length ? `\n(${v.total - v.recipes.length} more; narrow the search)` : ''}${note}`
}
