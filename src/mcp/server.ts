/**
 * The MCP server (official SDK, low-level `Server`: the tool list is built at run time from the
 * book, so tools carry JSON Schemas rather than zod ones).
 *
 * - The repository's commands, exposed as in dsh (exposure.ts): one tool per command up to the
 *   threshold, else one dispatcher tool with the `op` grammar; the same descriptions; runs through
 *   runCommand (cwd, timeout, whole tree killed, streams capped). `args` are words, each quoted onto
 *   the command line (a string is split as a shell would, and refused if it holds an operator, a
 *   newline or a substitution). Each call runs through book/run-tool.ts: book/approval.ts decides it
 *   with its words, and one that asks runs only with `confirm: true`, which a tool whose plain call
 *   is destructive requires; the annotations say what the body does (`destructiveHint`).
 *   Runs report progress when the client asks for it and stop (tree killed) when it cancels.
 *   The list follows the manifests (LiveBook): a change sends `notifications/tools/list_changed`.
 * - The curated recipes: search, render, and (only with `allowRecipeRun`) run; a recipe of risk
 *   medium or above, or marked for confirmation, runs only with `confirm: true` (curated/confirm.ts
 *   `decideRecipeRun`);
 *   each recipe is also a resource (`command-scout://recipes/<id>`, its definition as JSON).
 * - Prompts (prompts.ts), built from the same book and plan: how to build, test and lint the
 *   repository, what to run before a commit, one per curated category; their arguments complete
 *   (`completion/complete`), and a change of the list sends `notifications/prompts/list_changed`.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { resolve } from 'node:path'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult, type ServerNotification, type ServerRequest, type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { formatsSentence } from '../base/collector-table.js'
import { BUILTIN_COLLECTORS } from '../collectors/index.js'
import type { Config } from '../book/config.js'
import { runCommand, type RunResult } from '../book/execute.js'
import { reasonClause } from '../book/approval.js'
import { ARGS_DESCRIPTION, OP_ARGS_DESCRIPTION, OP_DESCRIPTION, planTools, type PlannedTool } from '../book/exposure.js'
import { renderRun, runPlannedTool, type ToolOutcome } from '../book/run-tool.js'
import { bookCollector, LiveBook } from '../book/live-book.js'
import { decideRecipeRun, paramsOf } from '../curated/confirm.js'
import { liveLibrary } from '../curated/live-library.js'
import { SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { currentPlatform, RecipeRenderError, renderRecipe } from '../curated/render.js'
import { renderRunText, runRendered } from '../curated/run.js'
import { CATEGORIES, PLATFORMS, RISKS, type Platform } from '../curated/schema.js'
import { CURATED_DESCRIPTIONS, searchAnswer, searchText } from '../curated/summary.js'
import { completePromptArgument, getPrompt, listPrompts, promptListSignature, type PromptContext } from './prompts.js'

export const SERVER_NAME = 'command-scout'
export const CURATED_TOOL_NAMES = { search: 'curated_recipe_search', render: 'curated_recipe_render', run: 'curated_recipe_run' } as const
export const RECIPE_URI_PREFIX = 'command-scout://recipes/'
/** Most recipes a search returns. */
const SEARCH_LIMIT = 20
/** How often a long run reports progress when it prints nothing. */
const PROGRESS_INTERVAL_MS = 1_000

export interface McpServerOptions {
  /** Absolute directory whose commands are served. */
  root: string
  config: Config
  version: string
  /** Curated libraries besides the shipped one (absolute paths). */
  recipeDirs?: string[]
  /** Offer curated_recipe_run (off by default: a client that can render can show the commands to a person). */
  allowRecipeRun?: boolean
  /** Follow manifest changes (default true). */
  watch?: boolean
  platform?: Platform
  /** Where diagnostics go (stderr: stdout is the protocol). */
  log?: (line: string) => void
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

const CONFIRM_SCHEMA = (why: string) => ({ type: 'boolean', description: why })
const WORDS_SCHEMA = (description: string) => ({ type: 'array', items: { type: 'string' }, description })

/** The `confirm` parameter of a tool whose plain call is destructive: why, and how a person allows it. */
function confirmDescription(reason: string): string {
  return `Required, because this command needs a person's yes: ${reason}. Ask the user first, and pass true only once they agreed.`
}

const validators = new WeakMap<object, ReturnType<AjvJsonSchemaValidator['getValidator']>>()
let ajv: AjvJsonSchemaValidator | undefined

/**
 * Why a call's arguments don't fit the tool's input schema (naming the argument and the type it
 * takes), or undefined. A missing `confirm` is left to the gate, whose refusal says why it is needed;
 * `args` given as one string is split as words first (callWords), as the command tools accept it.
 */
export function argumentProblem(tool: Tool, args: Record<string, unknown>): string | undefined {
  const schema = tool.inputSchema as { required?: string[] }
  let check = validators.get(tool.inputSchema)
  if (!check) {
    const loose = { ...tool.inputSchema, required: (schema.required ?? []).filter((k) => k !== 'confirm') }
    check = (ajv ??= new AjvJsonSchemaValidator()).getValidator(loose as never)
    validators.set(tool.inputSchema, check)
  }
  const given = typeof args.args === 'string' ? { ...args, args: [args.args] } : args
  const result = check(given)
  if (result.valid) return undefined
  const text = (result.errorMessage ?? 'the arguments do not match the tool\'s input schema')
    .replace(/\bdata\/([\w/]+)/g, (_m, path: string) => `\`${path.replace(/\//g, '.')}\``)
    .replace(/\bdata\b/g, 'the arguments')
  return `Invalid arguments for \`${tool.name}\`: ${text}. Call it again with arguments that match its input schema.`
}

/** A planned command tool as an MCP tool. */
function commandTool(tool: PlannedTool): Tool {
  if (tool.kind === 'recipe') {
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: {
        type: 'object',
        properties: {
          args: WORDS_SCHEMA(ARGS_DESCRIPTION),
          confirm: CONFIRM_SCHEMA(tool.risk
            ? confirmDescription(reasonClause(tool.verdict))
            : 'Pass true, once the user agreed, if a call is refused because its args make it need a person\'s yes.'),
        },
        ...(tool.risk ? { required: ['confirm'] } : {}),
      },
      // Every command may write (a build writes its output), so none is read-only; destructive is the gate's verdict on its body.
      annotations: { destructiveHint: tool.verdict.destructive || tool.verdict.unjudged === true, readOnlyHint: false, openWorldHint: false },
    }
  }
  return {
    name: tool.name,
    description: `${tool.description}\nA task marked [asks for approval] runs only with "confirm": true: ask the user first.`,
    inputSchema: {
      type: 'object',
      properties: {
        op: { type: 'string', description: OP_DESCRIPTION },
        args: WORDS_SCHEMA(OP_ARGS_DESCRIPTION),
        confirm: CONFIRM_SCHEMA('Pass true, once the user agreed, to run a task that asks for approval (it deletes, overwrites, publishes or deploys); such a task is refused without it.'),
      },
      required: ['op'],
    },
    // Any task, with the right words, may be destructive: the dispatcher as a whole is.
    annotations: { destructiveHint: true, readOnlyHint: false, openWorldHint: false },
  }
}

function curatedTools(platform: Platform, allowRun: boolean): Tool[] {
  const params = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: CURATED_DESCRIPTIONS.params }
  const tools: Tool[] = [
    {
      name: CURATED_TOOL_NAMES.search,
      description: CURATED_DESCRIPTIONS.search,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: CURATED_DESCRIPTIONS.query },
          category: { type: 'string', enum: [...CATEGORIES], description: CURATED_DESCRIPTIONS.category },
          tags: { type: 'array', items: { type: 'string' }, description: CURATED_DESCRIPTIONS.tags },
          risk: { type: 'array', items: { type: 'string', enum: [...RISKS] }, description: CURATED_DESCRIPTIONS.risk },
        },
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CURATED_TOOL_NAMES.render,
      description: `${CURATED_DESCRIPTIONS.render(platform)} Pass "platform" for another one (${PLATFORMS.join(', ')}).`,
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: CURATED_DESCRIPTIONS.id }, params, platform: { type: 'string', enum: [...PLATFORMS], description: `Platform to render for (default ${platform}).` } },
        required: ['id'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ]
  if (allowRun) {
    tools.push({
      name: CURATED_TOOL_NAMES.run,
      description: `${CURATED_DESCRIPTIONS.run(platform)} A recipe of risk medium or destructive, or marked for confirmation, runs only with "confirm": true: ask the user first.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: CURATED_DESCRIPTIONS.runId },
          params,
          cwd: { type: 'string', description: CURATED_DESCRIPTIONS.cwd },
          confirm: CONFIRM_SCHEMA('Pass true, once the user agreed, to run a recipe of risk medium or destructive, or marked for confirmation; it is refused without it.'),
        },
        required: ['id'],
      },
      annotations: { destructiveHint: true, openWorldHint: false },
    })
  }
  return tools
}

/**
 * A command call's outcome as an MCP result. A call that asks and came without `confirm: true` gets
 * the decision's refusal: what would run, why it needs a person, and how they allow it.
 */
function commandResult(outcome: ToolOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'ran':
      return textResult(renderRun(outcome.value), !outcome.value.ok, outcome.value as never)
    case 'unresolved':
      // An op that names no task (the message lists them), or args that are not words (it says why).
      return textResult(`Not run: ${outcome.reason}`, true)
    case 'refused':
      // A runner that is not installed can't run it, confirmed or not: it says which and how to install it.
      return textResult(`Not run: ${outcome.reason}.`, true)
    case 'unconfirmed':
      return textResult(outcome.ask.confirmRefusal, true)
  }
}

const textResult = (text: string, isError = false, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
  ...(isError ? { isError: true } : {}),
})

/** Progress for one run: at start, on output (at most every 250 ms) and every second while quiet. */
function progressReporter(extra: Extra): { onOutput: (chunk: Buffer) => void; stop: () => void } {
  const token = extra._meta?.progressToken
  if (token === undefined) return { onOutput: () => {}, stop: () => {} }
  const started = Date.now()
  let count = 0
  let lastLine = ''
  let lastSent = 0
  const send = () => {
    lastSent = Date.now()
    const seconds = Math.round((lastSent - started) / 1000)
    void extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress: ++count, message: `running for ${seconds} s${lastLine ? `: ${lastLine}` : ''}` },
    }).catch(() => {})
  }
  send()
  const timer = setInterval(send, PROGRESS_INTERVAL_MS)
  timer.unref()
  return {
    onOutput: (chunk) => {
      const lines = chunk.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean)
      if (lines.length) lastLine = lines.at(-1)!.slice(0, 200)
      if (Date.now() - lastSent >= 250) send()
    },
    stop: () => clearInterval(timer),
  }
}

export interface CommandScoutMcp {
  server: Server
  live: LiveBook
  /** The command tools right now (tests). */
  toolNames(): string[]
  connect(transport: Transport): Promise<void>
  /** Stops running commands (their trees are killed), the watcher and the server. */
  close(): Promise<void>
}

export async function createMcpServer(options: McpServerOptions): Promise<CommandScoutMcp> {
  const { config, root } = options
  const platform = options.platform ?? currentPlatform()
  const log = options.log ?? (() => {})
  const library = liveLibrary([SHIPPED_RECIPES_DIR, ...(options.recipeDirs ?? [])])
  const running = new Set<AbortController>()
  const inflight = new Set<Promise<unknown>>()
  let plan: PlannedTool[] = []
  let listed = ''
  let promptsListed = ''
  let connected = false

  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: { listChanged: true }, completions: {} },
      instructions: `Tools of this server run the commands the repository declares (${formatsSentence()}) in their own directories, and find, render or run vetted how-to recipes. A call that deletes, overwrites, publishes or deploys runs only with "confirm": true: ask the user before passing it. Arguments are words (a list of strings), never shell code.`,
    },
  )

  const promptContext = (): PromptContext => ({
    root: live.root, book: live.book(), plan, library, allowRecipeRun: options.allowRecipeRun === true, platform, curated: CURATED_TOOL_NAMES,
  })
  const replan = () => {
    plan = planTools(live.book(), config, Object.values(CURATED_TOOL_NAMES), { root: live.root })
    const signature = JSON.stringify(plan.map((t) => [t.name, t.signature]))
    if (signature === listed) return
    listed = signature
    if (connected) void server.sendToolListChanged().catch((error) => log(`tools/list_changed not sent: ${(error as Error).message}`))
    // The prompts' list names what the book holds (their descriptions count its commands).
    const prompts = promptListSignature(promptContext())
    if (prompts === promptsListed) return
    promptsListed = prompts
    if (connected) void server.sendPromptListChanged().catch((error) => log(`prompts/list_changed not sent: ${(error as Error).message}`))
  }
  const live = new LiveBook(root, { watch: options.watch ?? true, onChange: replan })
  for (const collector of BUILTIN_COLLECTORS) {
    const section = config.collectors[collector.source] ?? { enabled: true }
    if (section.enabled) live.addCollector(bookCollector(collector, section as never))
  }
  await live.settled()
  replan()
  for (const d of live.diagnostics()) log(`${d.file}${d.line ? `:${d.line}` : ''} (${d.source}): ${d.message}`)

  async function run(command: string, cwd: string, extra: Extra): Promise<RunResult> {
    const controller = new AbortController()
    const onAbort = () => controller.abort()
    extra.signal.addEventListener('abort', onAbort, { once: true })
    running.add(controller)
    const progress = progressReporter(extra)
    const pending = runCommand(command, {
      cwd, timeoutMs: config.execution.timeoutMs, signal: controller.signal, onStdout: progress.onOutput, onStderr: progress.onOutput,
    })
    inflight.add(pending)
    try {
      return await pending
    } finally {
      inflight.delete(pending)
      progress.stop()
      running.delete(controller)
      extra.signal.removeEventListener('abort', onAbort)
    }
  }

  async function callCommandTool(tool: PlannedTool, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    // The person's yes is `confirm: true` on the call itself (the client asked them first).
    return commandResult(await runPlannedTool(tool, args, { root: live.root, book: live.book() }, {
      confirmed: () => args.confirm === true,
      run: (call) => run(call.command, resolve(live.root, call.recipe.cwd), extra),
    }))
  }

  async function callCurated(name: string, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    const lib = library()
    try {
      if (name === CURATED_TOOL_NAMES.search) {
        const answer = searchAnswer(lib, args as never, SEARCH_LIMIT)
        return textResult(searchText(answer), false, answer as never)
      }
      const id = String(args.id ?? '')
      // A render may be for another platform; a run is always this machine's, and is judged as it will run.
      const target = name === CURATED_TOOL_NAMES.render ? (args.platform as Platform | undefined) ?? platform : platform
      const rendered = renderRecipe(lib, id, { platform: target, params: paramsOf(args) })
      if (name === CURATED_TOOL_NAMES.render) return textResult(JSON.stringify(rendered, null, 2), false, rendered as never)
      const decision = decideRecipeRun(lib, rendered)
      if (decision.kind === 'refuse') return textResult(`Not run: ${decision.reason}.`, true)
      if (decision.kind === 'ask' && args.confirm !== true) return textResult(decision.confirmRefusal, true)
      const cwd = resolve(live.root, typeof args.cwd === 'string' ? args.cwd : '.')
      const value = await runRendered(rendered, { title: lib.byId.get(id)!.title, platform }, (command) => run(command, cwd, extra))
      return textResult(renderRunText(value), !value.ok, value as never)
    } catch (error) {
      if (error instanceof RecipeRenderError || error instanceof Error) return textResult(error.message, true)
      throw error
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...curatedTools(platform, options.allowRecipeRun === true), ...plan.map(commandTool)],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params
    const args = (request.params.arguments ?? {}) as Record<string, unknown>
    const listed = [...curatedTools(platform, options.allowRecipeRun === true), ...plan.map(commandTool)].find((t) => t.name === name)
    const invalid = listed ? argumentProblem(listed, args) : undefined
    if (invalid) return textResult(invalid, true)
    if (Object.values(CURATED_TOOL_NAMES).includes(name as never) && (name !== CURATED_TOOL_NAMES.run || options.allowRecipeRun)) {
      return callCurated(name, args, extra)
    }
    const tool = plan.find((t) => t.name === name)
    if (!tool) {
      const hint = name === CURATED_TOOL_NAMES.run ? ' (recipe runs are off: start the server with --allow-recipe-run)' : '; the tool list may have changed, list the tools again'
      return textResult(`No tool \`${name}\`${hint}`, true)
    }
    return callCommandTool(tool, args, extra)
  })
  // An unknown prompt, argument or value throws a PromptError: the SDK answers with its code
  // (invalid params) and message, which names the known ones.
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts(promptContext()) }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(promptContext(), request.params.name, request.params.arguments ?? {}))
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params
    if (ref.type !== 'ref/prompt') return { completion: { values: [], total: 0, hasMore: false } }
    return { completion: completePromptArgument(promptContext(), ref.name, argument.name, argument.value) }
  })
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: library().recipes.map((r) => ({ uri: `${RECIPE_URI_PREFIX}${r.id}`, name: r.id, title: r.title, description: r.description.trim(), mimeType: 'application/json' })),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri
    const recipe = uri.startsWith(RECIPE_URI_PREFIX) ? library().byId.get(uri.slice(RECIPE_URI_PREFIX.length)) : undefined
    if (!recipe) throw new Error(`no resource ${uri}; recipes are ${RECIPE_URI_PREFIX}<id> (list them with resources/list)`)
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(recipe, null, 2) }] }
  })

  return {
    server,
    live,
    toolNames: () => plan.map((t) => t.name),
    async connect(transport) {
      await server.connect(transport)
      connected = true
    },
    async close() {
      for (const c of running) c.abort()
      await Promise.allSettled([...inflight])
      await live.close()
      await server.close()
    },
  }
}
