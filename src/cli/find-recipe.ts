/** Which recipe `command-scout run NAME` means: by tool name, id, `runner:name`, `source:name` or plain name. */
import type { NamingStyle } from '../book/config.js'
import type { DiscoverResult } from '../book/discover.js'
import type { Recipe } from '../book/recipe.js'
import { UsageError } from './io.js'

/** How many candidates an unknown name lists before pointing to `scan`. */
const CANDIDATES_SHOWN = 40

/**
 * Finds a recipe by name; ambiguity and absence are UsageErrors whose `candidates` list tool
 * names and commands, for the caller to lay out in columns.
 */
export function findRecipe(result: DiscoverResult, style: NamingStyle, wanted: string): Recipe {
  const names = result.book.assignToolNames(style)
  const all = result.book.entries()
  const byTool = all.filter((r) => names.get(r.id) === wanted || r.id === wanted)
  if (byTool.length === 1) return byTool[0]!
  const colon = wanted.indexOf(':')
  let matches = all.filter((r) => r.name === wanted || r.aliases.includes(wanted))
  if (matches.length === 0 && colon > 0) {
    const [prefix, name] = [wanted.slice(0, colon), wanted.slice(colon + 1)]
    matches = all.filter((r) => (r.runner === prefix || r.source === prefix) && (r.name === name || r.aliases.includes(name)))
  }
  if (matches.length === 1) return matches[0]!
  const rows = (rs: readonly Recipe[]) => rs.map((r) => [names.get(r.id)!, r.command, r.cwd === '.' ? '' : `in ${r.cwd}`])
  if (matches.length > 1) {
    throw new RecipeNotFound(`"${wanted}" is ambiguous; use one of these tool names:`, rows(matches), '')
  }
  if (all.length === 0) throw new UsageError(`no command "${wanted}": no commands were found under ${result.root}`, 'run')
  const more = all.length > CANDIDATES_SHOWN ? `... and ${all.length - CANDIDATES_SHOWN} more (command-scout scan lists them all)` : ''
  throw new RecipeNotFound(`no command "${wanted}"; available:`, rows(all.slice(0, CANDIDATES_SHOWN)), more)
}

/** A name that matched none or several recipes, with the candidates as rows of [tool, command, where]. */
export class RecipeNotFound extends UsageError {
  static override readonly kind: string = 'RecipeNotFound'
  constructor(readonly headline: string, readonly candidates: string[][], readonly more: string) {
    // The message stands alone; `run` lays the candidates out in columns that fit the terminal.
    super([headline, ...candidates.map((row) => `  ${row.filter(Boolean).join('  ')}`), ...(more ? [`  ${more}`] : [])].join('\n'), 'run')
  }
}
