/**
 * `dsh-command-scout/curated/plugin`: the curated recipe library as harness tools.
 *
 * - `curated_recipe_search` finds recipes by words, category, tags and risk.
 * - `curated_recipe_render` renders one for this machine's platform (the Specification's JSON).
 * - `curated_recipe_run` renders it and runs the steps, then the verification, through the harness
 *   shell (`ctx.shell`, as the `bash` tool does). A recipe of risk medium or above, or marked
 *   `requires_confirmation` (curated/confirm.ts `decideRecipeRun`), asks through `tools/pre-execute`
 *   with its title, risk and commands, and the run refuses to start unless a person allowed this
 *   very call. The call is rendered and decided once, there, and run with that rendering.
 *
 * The library is read on every call, so edits to a configured directory apply at once. The tools are
 * defined from static text (names, descriptions, parameter schemas), and the library's modules
 * (YAML parsing, render, run, confirm, and the approval rules' risk classifiers behind them) load on
 * the first call of a tool: a session that never calls one never pays for them at start.
 */
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import z from '@deepseek-ai/schemastery'
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import type {} from '@deepseek-ai/dsh-shell'
import type { Decision } from '../book/approval.js'
import { askBeforeRunning, PreparedCalls } from './approval.js'
import { runInHarnessShell } from './shell-run.js'
import type { RenderedRecipe } from '../curated/render.js'
import type { RunCommandLine } from '../curated/run.js'
import { CATEGORIES, RISKS, type Library, type Platform } from '../curated/schema.js'
import type { SearchAnswer } from '../curated/summary.js'
import { CURATED_DESCRIPTIONS } from '../curated/descriptions.js'

export const name = 'command-scout-curated'
export const inject = ['tools']

export const TOOL_NAMES = { search: 'curated_recipe_search', render: 'curated_recipe_render', run: 'curated_recipe_run' } as const

export interface Config {
  /** Extra library directories, relative to the working directory (default none). The shipped library is loaded first and wins an id clash. */
  dirs: string[]
  /** Hard budget per command in ms; the harness shell's own cap still applies (default 120000). */
  timeoutMs: number
  /** Most recipes a search returns (default 20). */
  searchLimit: number
}

export const Config: z<Config> = z.object({
  dirs: z.array(String).default([]).description('Extra library directories (<dir>/<category>/<slug>.yaml), relative to the working directory.'),
  timeoutMs: z.natural().min(1).default(120_000).description('Hard budget per command (ms).'),
  searchLimit: z.natural().min(1).default(20).description('Most recipes a search returns.'),
}) as never

/** How a tool call runs one command line; the plugin binds it to the harness shell. */
export type CommandRunner = (command: string, options: { cwd: string; exec: ToolExecution }) => ReturnType<RunCommandLine>

export interface CuratedToolsOptions {
  config: Config
  /** Working directory that relative dirs and `cwd` arguments resolve against (default: process.cwd()). */
  cwd?: string
  platform?: Platform
  runCommand: CommandRunner
  /** Runs rendered and decided in `tools/pre-execute`, and whether a person allowed each. */
  prepared: PreparedCalls<PreparedRun>
  /** Load the shipped library first (default true; tests of other libraries turn it off). */
  shipped?: boolean
}


/** The curated library's modules, as the tools use them; loaded on a tool's first call (`runtime`). */
interface Runtime {
  liveLibrary: typeof import('../curated/live-library.js').liveLibrary
  SHIPPED_RECIPES_DIR: string
  renderRecipe: typeof import('../curated/render.js').renderRecipe
  renderRunText: typeof import('../curated/run.js').renderRunText
  runRendered: typeof import('../curated/run.js').runRendered
  decideRecipeRun: typeof import('../curated/confirm.js').decideRecipeRun
  paramsOf: typeof import('../curated/confirm.js').paramsOf
  searchAnswer: typeof import('../curated/summary.js').searchAnswer
  searchText: typeof import('../curated/summary.js').searchText
}

type Modules = [
  typeof import('../curated/live-library.js'), typeof import('../curated/load.js'), typeof import('../curated/render.js'),
  typeof import('../curated/run.js'), typeof import('../curated/confirm.js'), typeof import('../curated/summary.js'),
]
/** In the order of `Modules`, relative to this file. */
const MODULES = [
  '../curated/live-library.js', '../curated/load.js', '../curated/render.js', '../curated/run.js', '../curated/confirm.js', '../curated/summary.js',
]
/** The same, imported: a literal import() each, which a bundler follows as it is (scripts/bundle-rows.mjs). */
const IMPORTS = [
  () => import('../curated/live-library.js'), () => import('../curated/load.js'), () => import('../curated/render.js'),
  () => import('../curated/run.js'), () => import('../curated/confirm.js'), () => import('../curated/summary.js'),
]

function runtimeOf([live, load, render, run, confirm, summary]: Modules): Runtime {
  return {
    liveLibrary: live.liveLibrary, SHIPPED_RECIPES_DIR: load.SHIPPED_RECIPES_DIR, renderRecipe: render.renderRecipe,
    renderRunText: run.renderRunText, runRendered: run.runRendered, decideRecipeRun: confirm.decideRecipeRun, paramsOf: confirm.paramsOf,
    searchAnswer: summary.searchAnswer, searchText: summary.searchText,
  }
}

let loaded: Runtime | undefined
let loading: Promise<Runtime> | undefined

/** The library's modules, imported once (a failed import is tried again by the next call). */
function runtime(): Promise<Runtime> {
  loading ??= Promise.all(IMPORTS.map((load) => load())).then((modules) => (loaded ??= runtimeOf(modules as Modules)), (error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

const requireHere = createRequire(import.meta.url)

/**
 * The modules where an answer must come synchronously: the confirmation rule and the output
 * renderers. A run call's own `tools/pre-execute` listener has awaited `runtime()` before the rule,
 * and a result is rendered after its execute did; loading them here (require of these ES modules,
 * none of which awaits at top level) is for a result a dispatch wrapper made up without either.
 */
function runtimeNow(): Runtime {
  return loaded ??= runtimeOf(MODULES.map((m) => requireHere(m)) as Modules)
}

/** Where the tools run (curated/render.ts `currentPlatform`, which loads with the library). */
function hostPlatform(): Platform {
  return process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : 'linux'
}

/** The tools' descriptions, shared with every agent surface; their module loads nothing of the library. */
const DESCRIPTIONS = CURATED_DESCRIPTIONS

const readers = new WeakMap<CuratedToolsOptions, () => Library>()

/** The library for a call; it follows edits to its files (live-library.ts). */
function libraryFor(o: CuratedToolsOptions, rt: Runtime): Library {
  let read = readers.get(o)
  if (!read) {
    const base = o.cwd ?? process.cwd()
    read = rt.liveLibrary([...(o.shipped === false ? [] : [rt.SHIPPED_RECIPES_DIR]), ...o.config.dirs.map((d) => resolve(base, d))])
    readers.set(o, read)
  }
  return read()
}

/** A run call rendered for this platform and decided, or what rendering threw (execute throws it). */
export type PreparedRun =
  | { kind: 'rendered'; rendered: RenderedRecipe; title: string; decision: Decision }
  | { kind: 'failed'; error: unknown }

function prepareRun(rt: Runtime, library: Library, args: { id: string; params?: unknown }, platform: Platform): PreparedRun {
  try {
    const rendered = rt.renderRecipe(library, args.id, { platform, params: rt.paramsOf(args) })
    return { kind: 'rendered', rendered, title: library.byId.get(args.id)?.title ?? args.id, decision: rt.decideRecipeRun(library, rendered) }
  } catch (error) {
    return { kind: 'failed', error }
  }
}

const text = (t: string) => [{ type: 'text' as const, text: t }]
const JSON_OUT = { type: 'json' } as const

export function curatedTools(o: CuratedToolsOptions): ToolDefinition[] {
  const platform = o.platform ?? hostPlatform()
  const search = defineTool({
    name: TOOL_NAMES.search,
    description: DESCRIPTIONS.search,
    parameters: {
      query: { type: 'string', description: DESCRIPTIONS.query },
      category: { type: 'string', enum: [...CATEGORIES], description: DESCRIPTIONS.category },
      tags: { type: 'array', items: { type: 'string' }, description: DESCRIPTIONS.tags },
      risk: { type: 'array', items: { type: 'string', enum: [...RISKS] }, description: DESCRIPTIONS.risk },
    },
    output: { schema: JSON_OUT, render: (_args, value) => text(runtimeNow().searchText(value as unknown as SearchAnswer)) },
    isConcurrencySafe: () => true,
    async execute(args) {
      const rt = await runtime()
      return rt.searchAnswer(libraryFor(o, rt), args, o.config.searchLimit) as never
    },
  })

  const render = defineTool({
    name: TOOL_NAMES.render,
    description: DESCRIPTIONS.render(platform),
    parameters: {
      id: { type: 'string', required: true, description: DESCRIPTIONS.id },
      params: { type: 'object', additionalProperties: true, description: DESCRIPTIONS.params },
    },
    output: { schema: JSON_OUT, render: (_args, value) => text(JSON.stringify(value, null, 2)) },
    isConcurrencySafe: () => true,
    async execute(args) {
      const rt = await runtime()
      return rt.renderRecipe(libraryFor(o, rt), args.id, { platform, params: rt.paramsOf(args) }) as never
    },
  })

  const run = defineTool({
    name: TOOL_NAMES.run,
    description: DESCRIPTIONS.run(platform),
    parameters: {
      id: { type: 'string', required: true, description: DESCRIPTIONS.runId },
      params: { type: 'object', additionalProperties: true, description: DESCRIPTIONS.params },
      cwd: { type: 'string', description: DESCRIPTIONS.cwd },
    },
    output: { schema: JSON_OUT, render: (_args, value) => text(runtimeNow().renderRunText(value as never)) },
    async execute(args, exec) {
      const rt = await runtime()
      const kept = o.prepared.take(exec, args)
      const prepared = kept?.prepared ?? prepareRun(rt, libraryFor(o, rt), args, platform)
      if (prepared.kind === 'failed') throw prepared.error
      const { decision } = prepared
      if (decision.kind === 'refuse') throw new Error(decision.reason)
      if (decision.kind === 'ask' && kept?.allowed !== true) {
        throw new Error(`recipe \`${args.id}\` requires confirmation, and no confirmation was asked for this call; it was not run`)
      }
      const cwd = resolve(o.cwd ?? process.cwd(), args.cwd ?? '.')
      const value = await rt.runRendered(prepared.rendered, { title: prepared.title, platform }, (command) => o.runCommand(command, { cwd, exec }))
      return value as never
    },
  })
  return [search, render, run] as unknown as ToolDefinition[]
}

/**
 * Registers the tools and the confirmation gate on `ctx`; everything is disposed with the plugin.
 * The gate's rule answers synchronously, so a listener ahead of it (cordis runs them in the order
 * they were registered) loads the library for a run call first.
 */
export function mountCuratedTools(ctx: Context, options: Omit<CuratedToolsOptions, 'prepared'>): void {
  const platform = options.platform ?? hostPlatform()
  const o: CuratedToolsOptions = { ...options, prepared: new PreparedCalls<PreparedRun>(), platform }
  for (const tool of curatedTools(o)) ctx.effect(() => ctx.tools.register(tool), `tool ${tool.name}`)
  ctx.effect(() => ctx.on('tools/pre-execute', async (exec, next) => {
    if (exec.name === TOOL_NAMES.run) await runtime()
    return next()
  }), 'curated library load')
  ctx.effect(() => askBeforeRunning(ctx, (exec) => {
    if (exec.name !== TOOL_NAMES.run) return undefined
    const args = exec.arguments as { id?: unknown; params?: unknown } | undefined
    if (typeof args?.id !== 'string') return undefined // not a call execute takes: the tool's parameters refuse it
    const rt = runtimeNow()
    const prepared = prepareRun(rt, libraryFor(o, rt), { id: args.id, params: args.params }, platform)
    o.prepared.keep(exec, prepared)
    // A call that does not render asks nothing: execute throws why it does not.
    return prepared.kind === 'rendered' && prepared.decision.kind === 'ask' ? prepared.decision.need : undefined
  }, (exec) => o.prepared.allow(exec)), 'curated recipe confirmation')
}

export function apply(ctx: Context, config: Config): void {
  const c: Config = { dirs: config?.dirs ?? [], timeoutMs: config?.timeoutMs ?? 120_000, searchLimit: config?.searchLimit ?? 20 }
  mountCuratedTools(ctx, {
    config: c,
    runCommand: (command, { cwd, exec }) => runInHarnessShell(ctx, { command, cwd, timeoutMs: c.timeoutMs, signal: exec.signal, exec }),
  })
}

export default { name, inject, Config, apply }
