/** A recipe as search results show it, on every surface (dsh tool, MCP, HTTP API). */
import { supportedPlatforms } from './render.js'
import type { CuratedRecipe, Library, Platform, Risk } from './schema.js'

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
    parameters: r.parameters.map((p) => ({ name: p.name, type: p.type, required: p.default === undefined, description: p.description, ...(p.values ? { values: [...p.values] } : {}) })),
  }
}

/** How many recipe files failed validation (they are left out of every answer). */
export function invalidFileCount(library: Library): number {
  return new Set(library.issues.filter((i) => i.severity === 'error').map((i) => i.file)).size
}
