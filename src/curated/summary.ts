/** A recipe as search results show it, on every surface (dsh tool, MCP, HTTP API). */
import { supportedPlatforms } from './render.js'
import { CATEGORIES, type CuratedRecipe, type Library, type Platform, type Risk } from './schema.js'
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

/** The curated tools' descriptions, the same on every agent surface. */
export const CURATED_DESCRIPTIONS = {
  search: `Search the curated how-to recipes (vetted, step-by-step shell procedures with risk levels, verification and undo) for tasks in ${CATEGORIES.join(', ')}. Recipes matching every word come back (else those matching the most), best first. Then render or run one by its id.`,
  render: (platform: Platform) => `Render a curated recipe for this machine (${platform}): its commands with parameters filled in and shell-quoted, the verification checks and the undo commands. Nothing runs.`,
  run: (platform: Platform) => `Run a curated recipe on this machine (${platform}): each step in order (stopping at the first failure), then its verification. Recipes of risk medium or above, or marked for confirmation, ask the user first. Render it first when unsure.`,
  query: 'Words to look for, e.g. "undo commit" or "port in use".',
  category: 'Only this category.',
  tags: 'Only recipes with every one of these tags.',
  risk: 'Only these risk levels.',
  id: 'Recipe id from the search, e.g. git.undo_last_commit.',
  runId: 'Recipe id, e.g. network.find_process_on_port.',
  params: 'Parameter values by name; defaults fill the rest.',
  cwd: 'Working directory, relative to the workspace (default: the workspace).',
} as const

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
