/**
 * The OpenAPI 3.1 document of the recipe API, served at `/api/v1/openapi.json`. Its schemas are
 * strict (`additionalProperties: false`), so the test that validates every answer against it catches
 * a field added or renamed on one side only.
 */
import { CATEGORIES, PARAM_TYPES, PLATFORMS, RISKS } from '../curated/schema.js'

const str = { type: 'string' } as const
const strings = { type: 'array', items: str } as const
const paramValue = { type: ['string', 'number', 'boolean'] } as const
const risk = { type: 'string', enum: [...RISKS] } as const
const platform = { type: 'string', enum: [...PLATFORMS] } as const
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const strict = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: 'object', additionalProperties: false, properties, required })

const step = strict({ run: str, purpose: str, risk }, ['run', 'purpose'])

export const SCHEMAS = {
  Error: strict({ error: strict({ code: str, message: str, parameter: str }, ['code', 'message']) }),
  RecipeSummary: strict({
    id: str, title: str, category: { type: 'string', enum: [...CATEGORIES] }, risk, tags: strings, requires_confirmation: { type: 'boolean' },
    platforms: { type: 'array', items: platform },
    parameters: { type: 'array', items: strict({ name: str, type: { type: 'string', enum: [...PARAM_TYPES] }, required: { type: 'boolean' }, description: str, values: strings }, ['name', 'type', 'required', 'description']) },
  }),
  SearchAnswer: strict({ total: { type: 'integer', minimum: 0 }, invalidFiles: { type: 'integer', minimum: 0 }, recipes: { type: 'array', items: ref('RecipeSummary') } }),
  Recipe: strict({
    id: str, version: { type: 'integer', minimum: 1 }, title: str, description: str, category: { type: 'string', enum: [...CATEGORIES] }, tags: strings, risk,
    requires_confirmation: { type: 'boolean' },
    parameters: { type: 'array', items: strict({ name: str, type: { type: 'string', enum: [...PARAM_TYPES] }, description: str, default: paramValue, values: strings, pattern: str, pattern_description: str }, ['name', 'type', 'description']) },
    platforms: { type: 'object', additionalProperties: false, properties: Object.fromEntries(PLATFORMS.map((p) => [p, strict({ steps: { type: 'array', items: step }, same_as: platform }, [])])) },
    verification: { type: 'array', items: strict({ run: str, expect: str }) },
    undo: strict({ possible: { type: 'boolean' }, steps: { type: 'array', items: step }, note: str }, ['possible']),
    pitfalls: strings, related: strings, supported_platforms: { type: 'array', items: platform },
  }),
  RenderRequest: strict({ platform, params: { type: 'object', additionalProperties: paramValue } }, ['platform']),
  RenderedRecipe: strict({
    id: str, version: { type: 'integer' }, risk, requires_confirmation: { type: 'boolean' },
    commands: { type: 'array', items: strict({ command: str, purpose: str, risk }) },
    verification: { type: 'array', items: strict({ command: str, expect: str }) },
    undo: strict({ possible: { type: 'boolean' }, commands: strings, note: str }, ['possible', 'commands']),
  }),
  ScanReport: strict({
    root: str,
    recipes: { type: 'array', items: strict({ id: str, tool: str, source: str, name: str, command: str, cwd: str, description: str, file: str, line: { type: ['integer', 'null'] }, prerequisites: strings, variables: strings }) },
    diagnostics: { type: 'array', items: strict({ source: str, file: str, line: { type: ['integer', 'null'] }, message: str, severity: { type: 'string', enum: ['error', 'warning'] } }) },
    detectedFiles: strings,
  }),
}

const json = (schema: unknown) => ({ 'application/json': { schema } })
const answer = (description: string, schema: unknown) => ({ description, content: json(schema) })
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), answer({ 400: 'Bad request: the parameter at fault is named', 403: 'A request from another origin (its Origin header)', 404: 'Unknown recipe or path', 405: 'Method not allowed (see the Allow header)', 413: 'Body too large', 414: 'Request target too long', 415: 'Content type is not application/json', 421: 'The Host header names another host than this server' }[c]!, ref('Error'))]))
const idParam = { name: 'id', in: 'path', required: true, schema: str, description: 'Recipe id, e.g. git.undo_last_commit' }

export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: { title: 'command-scout recipes', version, description: 'Curated how-to recipes: search, read and render them for a platform (Recipe Specification v0.1), and the commands a repository declares.' },
    paths: {
      '/api/v1/recipes': {
        get: {
          summary: 'Search the recipes',
          parameters: [
            { name: 'q', in: 'query', schema: { type: 'string', maxLength: 256 }, description: 'Words (at most 256 characters and 16 words); recipes matching every word first' },
            { name: 'category', in: 'query', schema: { type: 'string', enum: [...CATEGORIES] } },
            { name: 'tag', in: 'query', schema: { type: 'array', items: str, maxItems: 16 }, style: 'form', explode: true, description: 'Every tag must be on the recipe' },
            { name: 'risk', in: 'query', schema: { type: 'array', items: risk }, style: 'form', explode: true, description: 'Any of these risks' },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          ],
          responses: { 200: answer('Matching recipes, best first', ref('SearchAnswer')), ...errors(400, 403, 405, 414, 421) },
        },
      },
      '/api/v1/recipes/{id}': {
        get: { summary: 'One recipe as defined', parameters: [idParam], responses: { 200: answer('The recipe', ref('Recipe')), ...errors(400, 403, 404, 405, 414, 421) } },
      },
      '/api/v1/recipes/{id}/render': {
        post: {
          summary: 'Render a recipe for a platform with parameter values',
          parameters: [idParam],
          requestBody: { required: true, content: json(ref('RenderRequest')) },
          responses: { 200: answer('The rendered commands, verification and undo', ref('RenderedRecipe')), ...errors(400, 403, 404, 405, 413, 414, 415, 421) },
        },
      },
      '/api/v1/commands': {
        get: { summary: "The repository's commands (only when the server was started with --root)", responses: { 200: answer('The scan, as `command-scout scan --format json`', ref('ScanReport')), ...errors(403, 404, 405, 414, 421) } },
      },
    },
    components: { schemas: SCHEMAS },
  }
}
