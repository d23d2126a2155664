/**
 * The recipe HTTP API's answers, as plain `{ status, body }` values (app.ts does the HTTP). Every
 * answer comes from the same library, search, summary and renderer as the CLI, MCP and dsh tools.
 * Errors are `{ error: { code, message, parameter? } }`; `parameter` names the field at fault.
 */
import type { Library, Platform } from '../curated/schema.js'
import { CATEGORIES, PLATFORMS, RISKS } from '../curated/schema.js'
import { RecipeRenderError, renderRecipe, suggest, supportedPlatforms } from '../curated/render.js'
import { searchAnswer, type SearchAnswer } from '../curated/summary.js'

export interface ApiAnswer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export interface ApiError {
  error: { code: string; message: string; parameter?: string }
}

export const error = (status: number, code: string, message: string, parameter?: string, headers?: Record<string, string>): ApiAnswer => ({
  status,
  body: { error: { code, message, ...(parameter ? { parameter } : {}) } } satisfies ApiError,
  ...(headers ? { headers } : {}),
})

/** Most recipes one search answers with (`limit` may ask for fewer). */
export const MAX_SEARCH_LIMIT = 100
/**
 * A search's bounds: its text, its words and its tags. Each word costs a prefix and a one-typo
 * walk of the index, so a query of thousands of words would hold the server for seconds while
 * every other request waits; a question people ask is a few words.
 */
export const MAX_QUERY_CHARS = 256
export const MAX_QUERY_WORDS = 16
export const MAX_QUERY_TAGS = 16
const SEARCH_KEYS = ['q', 'category', 'tag', 'risk', 'limit']

/** Why a search (the API's or the index page's) is too big to answer, or undefined. */
export function queryProblem(query: URLSearchParams): ApiAnswer | undefined {
  const q = query.getAll('q').join(' ')
  if (q.length > MAX_QUERY_CHARS) return error(400, 'QUERY_TOO_LONG', `the search text is ${q.length} characters; use at most ${MAX_QUERY_CHARS}`, 'q')
  const words = q.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length
  if (words > MAX_QUERY_WORDS) return error(400, 'QUERY_TOO_LONG', `the search text has ${words} words; use at most ${MAX_QUERY_WORDS}`, 'q')
  const tags = query.getAll('tag').length
  if (tags > MAX_QUERY_TAGS) return error(400, 'QUERY_TOO_LONG', `the search names ${tags} tags; use at most ${MAX_QUERY_TAGS}`, 'tag')
  return undefined
}

/** `GET /api/v1/recipes?q=&category=&tag=&risk=&limit=`: tag and risk repeat (every tag, any risk). */
export function searchRecipes(library: Library, query: URLSearchParams): ApiAnswer {
  for (const key of query.keys()) {
    if (!SEARCH_KEYS.includes(key)) return error(400, 'UNKNOWN_QUERY_PARAMETER', `unknown query parameter \`${key.slice(0, 100)}\`; this endpoint takes ${SEARCH_KEYS.join(', ')}`, key.slice(0, 100))
  }
  const tooBig = queryProblem(query)
  if (tooBig) return tooBig
  const category = query.get('category') || undefined
  if (category && !(CATEGORIES as readonly string[]).includes(category)) return error(400, 'INVALID_QUERY_PARAMETER', `category must be one of ${CATEGORIES.join(', ')} (got ${JSON.stringify(category)})`, 'category')
  const risk = query.getAll('risk').flatMap((r) => r.split(',')).filter(Boolean)
  const badRisk = risk.find((r) => !(RISKS as readonly string[]).includes(r))
  if (badRisk) return error(400, 'INVALID_QUERY_PARAMETER', `risk must be one of ${RISKS.join(', ')} (got ${JSON.stringify(badRisk)})`, 'risk')
  const limitText = query.get('limit')
  // Decimal digits only: Number() would also take 0x10, 1e2 and ' 5'.
  const limit = limitText === null ? MAX_SEARCH_LIMIT : /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) return error(400, 'INVALID_QUERY_PARAMETER', `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, in decimal digits (got ${JSON.stringify(limitText?.slice(0, 40))})`, 'limit')
  const tags = query.getAll('tag').filter(Boolean)
  const answer: SearchAnswer = searchAnswer(library, {
    ...(query.get('q') ? { query: query.get('q')! } : {}),
    ...(category ? { category } : {}),
    ...(tags.length ? { tags } : {}),
    ...(risk.length ? { risk } : {}),
  }, limit)
  return { status: 200, body: answer }
}

function unknownRecipe(library: Library, id: string): ApiAnswer {
  const hint = suggest(id, [...library.byId.keys()])
  return error(404, 'RECIPE_UNKNOWN', `no recipe \`${id}\`${hint ? `; did you mean \`${hint}\`?` : ''}`)
}

/** `GET /api/v1/recipes/{id}`: the definition as validated (server paths left out), with the platforms it supports. */
export function getRecipe(library: Library, id: string): ApiAnswer {
  const recipe = library.byId.get(id)
  if (!recipe) return unknownRecipe(library, id)
  const { file: _file, dir: _dir, ...definition } = recipe
  return { status: 200, body: { ...definition, supported_platforms: supportedPlatforms(recipe) } }
}

/** `POST /api/v1/recipes/{id}/render` with `{ platform, params }`: the Specification's JSON. */
export function renderRecipeAnswer(library: Library, id: string, body: unknown): ApiAnswer {
  if (!library.byId.has(id)) return unknownRecipe(library, id)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return error(400, 'INVALID_BODY', 'the body must be a JSON object: {"platform": "linux", "params": {...}}')
  const { platform, params, ...extra } = body as Record<string, unknown>
  const stray = Object.keys(extra)[0]
  if (stray) return error(400, 'INVALID_BODY', `unknown field \`${stray}\`; the body takes platform and params`, stray)
  if (typeof platform !== 'string' || !(PLATFORMS as readonly string[]).includes(platform)) {
    return error(400, 'INVALID_PLATFORM', `platform must be one of ${PLATFORMS.join(', ')} (got ${JSON.stringify(platform ?? null)})`, 'platform')
  }
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return error(400, 'INVALID_PARAMS', 'params must be an object of parameter name to value, e.g. {"port": 3000}', 'params')
  const declared = new Map(library.byId.get(id)!.parameters.map((p) => [p.name, p.type]))
  const values: Record<string, string | number | boolean> = {}
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string' && typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      return error(400, 'RECIPE_INVALID_PARAM', `parameter \`${name}\` must be a string, number or boolean`, `params.${name}`)
    }
    // JSON has numbers and booleans; a parameter that holds one as text (a port, `^[0-9]{1,5}$`)
    // takes it as that text, and its pattern or values then decide, as for a string.
    const type = declared.get(name)
    values[name] = typeof value !== 'string' && (type === 'string' || type === 'enum') ? String(value) : value
  }
  try {
    return { status: 200, body: renderRecipe(library, id, { platform: platform as Platform, params: values }) }
  } catch (e) {
    if (!(e instanceof RecipeRenderError)) throw e
    const where = e.param ? `params.${e.param}` : e.code === 'RECIPE_UNSUPPORTED_PLATFORM' ? 'platform' : undefined
    return error(e.code === 'RECIPE_UNKNOWN' ? 404 : 400, e.code, e.message, where)
  }
}
