/**
 * The book's tools in dsh. `harnessTool` makes each planned tool (book/exposure.ts: one per recipe,
 * or one dispatcher) a dsh tool definition; `RecipeTools` keeps the registry in step with the book
 * and carries a call through its two steps:
 *
 *   approval  `tools/pre-execute` (`approvalReason`): book/run-tool.ts `prepareCall` resolves and
 *             decides the call once; a call that asks goes to dsh's approval (./approval.ts). The
 *             built-in `bash` is judged there too (`decideShellCommand`, which follows a recipe the
 *             line invokes by its runner command, `make clean`).
 *   execute   the tool's body (`call`): book/run-tool.ts `runPlannedTool` with that preparation, run
 *             through the harness shell (./shell-run.ts); its outcome becomes the value, or a
 *             refusal thrown with its text. A call that reaches execute unprepared (a listener
 *             short-circuited the gate, or its arguments changed on the way) is prepared there, and
 *             refused if it asks.
 *
 * A call's `args` are words (a list of strings), each quoted onto the command line; the dispatcher's
 * `op` is split into words the same way.
 */
import { isAbsolute, resolve } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolDefinition, type ToolExecution } from '@deepseek-ai/dsh-tools'
import { decideShellCommand, type ApprovalNeed, type GateWhere } from '../book/approval.js'
import type { Config } from '../book/config.js'
import { ARGS_DESCRIPTION, OP_ARGS_DESCRIPTION, OP_DESCRIPTION, planTools, type PlannedTool } from '../book/exposure.js'
import type { LiveBook } from '../book/live-book.js'
import { prepareCall, renderRun, runPlannedTool, type PlannedCall, type PreparedCall, type RecipeToolValue, type ToolOutcome } from '../book/run-tool.js'
import { PreparedCalls, refusalText } from './approval.js'
import { runInHarnessShell } from './shell-run.js'

export { recipeToolDescription } from '../book/exposure.js'
export { renderRun, RENDER_STREAM_CHARS, type RecipeToolValue } from '../book/run-tool.js'

/** Runs one call of a planned tool (`RecipeTools` binds it to the book, the harness shell and dsh's approval). */
export type CallTool = (tool: PlannedTool, args: unknown, exec: ToolExecution) => Promise<ToolOutcome>

/** The result value's schema (the seed's `{ command, ok, exitCode, stdout, stderr, killed, durationMs }` plus where and what). */
const OUTPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    task: { type: 'string', required: true },
    command: { type: 'string', required: true },
    cwd: { type: 'string', required: true },
    ok: { type: 'boolean', required: true },
    exitCode: { required: true, oneOf: [{ type: 'integer' }, { type: 'null' }] },
    stdout: { type: 'string', required: true },
    stderr: { type: 'string', required: true },
    killed: { type: 'boolean', required: true },
    timedOut: { type: 'boolean', required: true },
    durationMs: { type: 'integer', required: true },
  },
} as const

const output = {
  schema: OUTPUT_SCHEMA,
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: renderRun(value as RecipeToolValue) }],
}

const WORDS = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const

/**
 * A call's outcome as dsh takes it: the value, or thrown with what to do instead. Arguments that are
 * not words and an op that names no task throw what resolving threw (ArgsError, DispatchError).
 */
export function harnessValue(outcome: ToolOutcome): RecipeToolValue {
  switch (outcome.kind) {
    case 'ran':
      return outcome.value
    case 'unresolved':
      throw outcome.error
    case 'refused':
      throw new Error(outcome.reason)
    case 'unconfirmed':
      // Reached only when no `tools/pre-execute` ask was made for this call (a listener short-circuited the gate).
      throw new Error(refusalText(outcome.ask.need, 'no person was asked to approve this call'))
  }
}

/** A planned tool as a harness tool; `call` decides and runs each call. */
export function harnessTool(tool: PlannedTool, call: CallTool): ToolDefinition {
  const execute = async (args: unknown, exec: ToolExecution) => harnessValue(await call(tool, args, exec)) as never
  if (tool.kind === 'recipe') {
    return defineTool({
      name: tool.name,
      description: tool.description,
      parameters: { args: WORDS(ARGS_DESCRIPTION) },
      output: output as never,
      execute: execute as never,
    }) as unknown as ToolDefinition
  }
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters: { op: { type: 'string', required: true, description: OP_DESCRIPTION }, args: WORDS(OP_ARGS_DESCRIPTION) },
    output: output as never,
    execute: execute as never,
  }) as unknown as ToolDefinition
}

interface Registered {
  signature: string
  dispose: () => void
  tool: PlannedTool
}

/** What `tools/pre-execute` made of a call of one of our tools: for that tool, and how it was prepared. */
interface Prepared {
  tool: PlannedTool
  call: PreparedCall
}

/**
 * The tool side, as a plain object: Cordis hands services to other plugins through proxies, so
 * state that must not follow the caller's context lives here, bound to the adapter's own.
 */
export class RecipeTools {
  readonly registered = new Map<string, Registered>()
  readonly prepared = new PreparedCalls<Prepared>()

  /** `logName` the plugin's name in the harness log. */
  constructor(readonly ctx: Context, readonly config: Config, readonly live: LiveBook, readonly logName: string) {}

  /** Where calls are judged: the book as it is now. */
  where(): GateWhere {
    return { root: this.live.root, book: this.live.book() }
  }

  /** Registers, replaces and removes tools so that the registry matches the book. */
  sync(): void {
    // Never take a built-in's name nor another plugin's tool; our own current names are free to keep.
    const others = this.toolNamesNow().filter((n) => !this.registered.has(n))
    const wanted = new Map(planTools(this.live.book(), this.config, others, { root: this.live.root }).map((t) => [t.name, t]))
    for (const [toolName, reg] of this.registered) {
      if (wanted.get(toolName)?.signature === reg.signature) continue
      reg.dispose()
      this.registered.delete(toolName)
    }
    for (const [toolName, tool] of wanted) {
      if (this.registered.has(toolName)) continue
      try {
        const dispose = this.ctx.tools.register(harnessTool(tool, (t, args, exec) => this.call(t, args, exec)) as Parameters<Context['tools']['register']>[0])
        this.registered.set(toolName, { signature: tool.signature, dispose, tool })
      } catch (error) {
        // Another plugin took the name since the names were assigned, or the adapter is unloading:
        // the next change retries; the harness keeps running either way.
        this.ctx.logger?.(this.logName).warn('tool %s not registered: %s', toolName, (error as Error)?.message ?? error)
      }
    }
  }

  /**
   * The names of the tools the registry shows now: from its view when it has one (the names alone),
   * else from its schemas (each a deep copy of a tool's parameters, a few milliseconds for all).
   */
  private toolNamesNow(): string[] {
    const tools = this.ctx.tools as unknown as { view?: () => { visible?: Map<string, unknown> } }
    const visible = typeof tools.view === 'function' ? tools.view().visible : undefined
    return visible instanceof Map ? [...visible.keys()] : this.ctx.tools.schemas().map((s) => s.name)
  }

  /**
   * Why a call needs approval, if it does: one of our tools (prepared here, and kept for its
   * execute), or `bash` running a destructive command.
   */
  approvalReason(exec: Readonly<ToolExecution>): ApprovalNeed | undefined {
    if (exec.name === 'bash' && !this.registered.has('bash')) return this.bashApproval(exec.arguments, exec)
    const reg = this.registered.get(exec.name)
    if (!reg) return undefined
    const call = prepareCall(reg.tool, exec.arguments, this.where())
    this.prepared.keep(exec, { tool: reg.tool, call })
    // Args that are not words, an op that names no task, a missing runner: execute refuses them unasked, and nothing runs.
    return call.kind === 'resolved' && call.decision.kind === 'ask' ? call.decision.need : undefined
  }

  /**
   * One call of a tool, run through the harness shell: with what `tools/pre-execute` prepared when
   * it prepared this call for this tool, and confirmed when a person allowed that very command line.
   */
  call(tool: PlannedTool, args: unknown, exec: ToolExecution): Promise<ToolOutcome> {
    const kept = this.prepared.take(exec, args)
    const asked = kept?.prepared.call
    const allowed = (call: PlannedCall) =>
      kept?.allowed === true && asked?.kind === 'resolved' && asked.call.command === call.command && asked.call.recipe.cwd === call.recipe.cwd
    return runPlannedTool(tool, args, this.where(), {
      ...(kept?.prepared.tool === tool && asked ? { prepared: asked } : {}),
      confirmed: allowed,
      run: (call) => runInHarnessShell(this.ctx, {
        command: call.command,
        cwd: resolve(this.live.root, call.recipe.cwd),
        timeoutMs: this.config.execution.timeoutMs,
        signal: exec.signal,
        exec,
      }),
    })
  }

  /**
   * The same gate for the built-in `bash`: the judge reads the command line itself, and follows a
   * discovered recipe it invokes by its runner command (`make clean`, `cd web && npm run wipe`).
   */
  bashApproval(args: unknown, exec?: Readonly<ToolExecution>): ApprovalNeed | undefined {
    const command = (args as { command?: unknown })?.command
    if (typeof command !== 'string') return undefined
    const decision = decideShellCommand(command, { ...this.where(), cwd: bashCwd(args, exec) })
    return decision.kind === 'ask' ? decision.need : undefined
  }

  disposeAll(): void {
    for (const reg of this.registered.values()) reg.dispose()
    this.registered.clear()
  }
}

/**
 * Where `bash` runs a call, as dsh's bash tool decides it: `workdir` (relative to the session's
 * directory), else the session's directory, else the process's.
 */
function bashCwd(args: unknown, exec: Readonly<ToolExecution> | undefined): string {
  const session = (exec as { agent?: { session?: { header?: { cwd?: unknown } } } } | undefined)?.agent?.session?.header?.cwd
  const base = typeof session === 'string' && session !== '' ? session : process.cwd()
  const workdir = (args as { workdir?: unknown })?.workdir
  if (typeof workdir !== 'string' || workdir === '') return resolve(base)
  return isAbsolute(workdir) ? workdir : resolve(base, workdir)
}
