/**
 * The OpenAPI 3.1 document of the recipe API (and the kitchen board's), served at `/api/v1/openapi.json`. Its schemas are
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
const strict = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object', additionalProperties: false, properties, required,
})

const step = strict({ run: str, purpose: str, risk }, ['run', 'purpose'])

export const SCHEMAS = {
  Error: strict({ error: strict({ code: str, message: str, parameter: str }, ['code', 'message']) }),
  RecipeSummary: strict({
    id: str, title: str, category: { type: 'string', enum: [...CATEGORIES] }, risk, tags: strings, requires_confirmation: { type: 'boolean' },
    platforms: { type: 'array', items: platform },
    parameters: {
      type: 'array',
      items: strict(
        { name: str, type: { type: 'string', enum: [...PARAM_TYPES] }, required: { type: 'boolean' }, description: str, values: strings },
        ['name', 'type', 'required', 'description'],
      ),
    },
  }),
  SearchAnswer: strict({ total: { type: 'integer', minimum: 0 }, invalidFiles: { type: 'integer', minimum: 0 }, recipes: { type: 'array', items: ref('RecipeSummary') } }),
  Recipe: strict({
    id: str, version: { type: 'integer', minimum: 1 }, title: str, description: str, category: { type: 'string', enum: [...CATEGORIES] }, tags: strings, risk,
    requires_confirmation: { type: 'boolean' },
    parameters: {
      type: 'array',
      items: strict(
        {
          name: str, type: { type: 'string', enum: [...PARAM_TYPES] }, description: str, default: paramValue, values: strings,
          pattern: str, pattern_description: str,
        },
        ['name', 'type', 'description'],
      ),
    },
    platforms: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(PLATFORMS.map((p) => [p, strict({ steps: { type: 'array', items: step }, same_as: platform }, [])])),
    },
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
    recipes: {
      type: 'array',
      items: strict({
        id: str, tool: str, source: str, name: str, command: str, cwd: str, description: str, file: str, line: { type: ['integer', 'null'] },
        prerequisites: strings, variables: strings,
      }),
    },
    diagnostics: {
      type: 'array',
      items: strict({ source: str, file: str, line: { type: ['integer', 'null'] }, message: str, severity: { type: 'string', enum: ['error', 'warning'] } }),
    },
    detectedFiles: strings,
  }),
}

// ---------------------------------------------------------------- the kitchen board (served with --kitchen)

const int = { type: 'integer' } as const
const count = { type: 'integer', minimum: 0 } as const
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] })
const BOARD_STATES = ['waiting', 'cooking', 'needs_decision', 'done', 'failed', 'closed']
const ENTRY_KINDS = ['start', 'prompt', 'message', 'assistant', 'tool', 'output', 'error', 'report', 'end', 'cut']
const LOG_TYPES = ['prompt', 'launch', 'fetched', 'stop', 'hold', 'notified', 'launch_failed', 'closed', 'verified']

export const KITCHEN_SCHEMAS = {
  KitchenEntry: strict({ at: nullable(int), kind: { type: 'string', enum: ENTRY_KINDS }, text: str }),
  KitchenTaskRow: strict({
    id: str, title: str, project: str, state: { type: 'string', enum: BOARD_STATES }, detail: str, since: nullable(int),
    model: nullable(str), models: strings, fallbacks: { type: 'array', items: strict({ run: int, model: str, error: str }) },
    branch: str, baseBranch: str, ahead: nullable(count), tip: nullable(str), tipSource: nullable({ type: 'string', enum: ['clone', 'project'] }),
    branchProblem: nullable(str),
    run: nullable(int), lines: { type: 'array', items: ref('KitchenEntry') }, verify: nullable(strict({ passed: { type: 'boolean' }, command: str, at: int })),
    pending: count, createdAt: nullable(int), live: { type: 'boolean' },
  }),
  KitchenTaskList: strict({
    kitchen: str, present: { type: 'boolean' }, total: count,
    page: { type: 'integer', minimum: 1 }, per: { type: 'integer', minimum: 1 }, pages: { type: 'integer', minimum: 1 },
    state: { type: 'string', enum: BOARD_STATES }, counts: strict(Object.fromEntries(BOARD_STATES.map((s) => [s, count]))),
    tasks: { type: 'array', items: ref('KitchenTaskRow') }, broken: { type: 'array', items: strict({ id: str, reason: str }) }, problems: strings, cursor: str,
  }, ['kitchen', 'present', 'total', 'page', 'per', 'pages', 'counts', 'tasks', 'broken', 'problems', 'cursor']),
  KitchenTask: strict({
    task: ref('KitchenTaskRow'), brief: str, taskDir: str, worktree: str, project: strict({ name: str, path: nullable(str) }),
    runs: {
      type: 'array',
      items: strict({
        n: int, model: nullable(str), startedAt: nullable(int), settledAt: nullable(int), lines: count, bad: count, size: count,
        report: nullable(strict({ status: str, summary: str })),
        providerError: nullable(str), runnerError: nullable(str), readError: nullable(str), errTail: str,
        prompt: nullable(strict({ text: str, cut: { type: 'boolean' } })), entries: nullable({ type: 'array', items: ref('KitchenEntry') }),
      }),
    },
    log: { type: 'array', items: strict({ at: int, type: { type: 'string', enum: LOG_TYPES }, text: str }) },
    messages: { type: 'array', items: strict({ at: int, state: { type: 'string', enum: ['waiting', 'delivered'] }, text: str, cut: { type: 'boolean' } }) },
    problems: strings,
    commands: strict({
      chef: { type: 'array', items: strict({ action: { type: 'string', enum: ['send', 'stop', 'close'] }, command: str, what: str }) },
      shell: { type: 'array', items: strict({ what: str, command: str }) },
    }),
    diff: strict({
      tip: nullable(str), baseTip: nullable(str), source: nullable({ type: 'string', enum: ['clone', 'project'] }), bytes: count, cut: { type: 'boolean' },
      files: { type: 'array', items: strict({ path: str, status: str, added: count, removed: count }) }, problem: str,
    }, ['tip', 'baseTip', 'source', 'bytes', 'cut', 'files']),
  }),
}

const json = (schema: unknown) => ({ 'application/json': { schema } })
const answer = (description: string, schema: unknown) => ({ description, content: json(schema) })
const ERRORS: Record<number, string> = {
  400: 'Bad request: the parameter at fault is named', 403: 'A request from another origin (its Origin header)', 404: 'Unknown recipe, task or path',
  405: 'Method not allowed (see the Allow header)', 413: 'Body too large', 414: 'Request target too long', 415: 'Content type is not application/json',
  421: 'The Host header names another host than this server', 503: 'Too many event streams are open (see Retry-After)',
}
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), answer(ERRORS[c]!, ref('Error'))]))
const taskIdParam = {
  name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*-[1-9][0-9]{0,8}$' },
  description: 'Task id, e.g. api-7 (a project name, a dash, a number)',
}

/** The kitchen board's paths, in the document of a server started with --kitchen. */
const KITCHEN_PATHS = {
  '/api/v1/kitchen/tasks': {
    get: {
      summary: "The kitchen's tasks, open ones first, newest first (only with --kitchen)",
      parameters: [
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100000 } },
        { name: 'per', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 }, description: 'Tasks per page (default 50)' },
        { name: 'state', in: 'query', schema: { type: 'string', enum: BOARD_STATES } },
      ],
      responses: {
        200: answer('One page of tasks; texts a cook or model wrote have control and bidi characters escaped', ref('KitchenTaskList')),
        ...errors(400, 403, 405, 414, 421),
      },
    },
  },
  '/api/v1/kitchen/tasks/{id}': {
    get: {
      summary: 'One task: its row, brief, runs, log, messages and a summary of its diff',
      parameters: [taskIdParam],
      responses: { 200: answer('The task', ref('KitchenTask')), ...errors(400, 403, 404, 405, 414, 421) },
    },
  },
  '/api/v1/kitchen/tasks/{id}/diff': {
    get: {
      summary: "The task branch's diff against its base (git diff base...branch), as git wrote it",
      description: 'The bytes git printed, unescaped (a patch `git apply` takes); at most 4 MiB, X-Diff-Truncated says when cut. '
        + 'The tip is the cook\'s clone\'s when it has commits the project does not have yet.',
      parameters: [taskIdParam],
      responses: { 200: { description: 'The unified diff', content: { 'text/plain': { schema: str } } }, ...errors(400, 403, 404, 405, 414, 421) },
    },
  },
  '/api/v1/kitchen/events': {
    get: {
      summary: 'Server-sent events of the board: task (added or changed; data {id, added, previous, row, html}), '
        + 'lines (run entries appended; {id, run, lines, html, skipped}), removed ({id, previous}), kitchen ({present}), reset (load again)',
      parameters: [
        { name: 'task', in: 'query', schema: taskIdParam.schema, description: 'Only the events of this task' },
        {
          name: 'since', in: 'query', schema: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9]{1,15}$' },
          description: 'The last event id seen (a page gives the cursor it was rendered at); Last-Event-ID wins',
        },
      ],
      responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: str } } }, ...errors(400, 403, 405, 414, 421, 503) },
    },
  },
}
const idParam = { name: 'id', in: 'path', required: true, schema: str, description: 'Recipe id, e.g. git.undo_last_commit' }

/** The document; the kitchen board's paths and schemas are in it when the server serves a kitchen. */
export function openApiDocument(version: string, options: { kitchen?: boolean } = {}) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'command-scout recipes', version,
      description: 'Curated how-to recipes: search, read and render them for a platform (Recipe Specification v0.1), '
        + 'the commands a repository declares, and a kitchen\'s board (read-only).',
    },
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
        get: {
          summary: "The repository's commands (only when the server was started with --root)",
          responses: { 200: answer('The scan, as `command-scout scan --format json`', ref('ScanReport')), ...errors(403, 404, 405, 414, 421) },
        },
      },
      ...(options.kitchen ? KITCHEN_PATHS : {}),
    },
    components: { schemas: options.kitchen ? { ...SCHEMAS, ...KITCHEN_SCHEMAS } : SCHEMAS },
  }
}
