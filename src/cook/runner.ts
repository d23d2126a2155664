/**
 * The cook runner plugin (row `command-scout-cook-runner`): one kitchen run in one `dsh` process.
 * It resumes the task's session (or creates it on run 1) on the run's model, with the cook
 * contract in the system prompt and `chef_report` as a tool of that agent only, sends the prompt
 * file, steers inbox messages in while a turn is active, and writes every session event the kitchen
 * reads as one run-file line on stdout. When the agent settles it flushes the session, writes
 * `settled`, and asks the launcher to exit (0 when the turn completed, 1 otherwise). A cancelled
 * run (SIGTERM) writes `runner_error` instead of `settled`: it did not settle.
 */
import { readFileSync, writeSync } from 'node:fs'
import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { withHostPeers } from '../dsh/host-peers.js'
import type { ModelRef, RunLine } from '../kitchen/domain.js'
import { answerCookRole } from './role.js'
import { ROLE_EVENT } from '../kitchen/events.js'
import { contractFacts, contractText } from './contract.js'
import { chooseEffort, splitModel, type CookStartup } from './flags.js'
import { INBOX_POLL_MS, claimInbox, steerText } from './inbox.js'
import { reportTool } from './report-tool.js'
import { RunLineTranslator, type SessionEventLike } from './run-lines.js'

export const name = 'command-scout-cook-runner'
export const inject = ['agents', 'sessions', 'sessionPersistence', 'agentDefaultModel', 'llm', 'cookStartup', 'tools', 'systemPrompt', 'timer']

/** The prompt section's name and order (after the persona at 0, before tool guidance at 100). */
export const CONTRACT_SECTION = { name: 'command-scout-cook-contract', order: 50 }

// The harness's own types, narrowed to what the runner calls (dsh-agent is not a dependency of
// this package: it is imported from the running harness, see ./entries).
interface Selection { provider: string; model: string; reasoningEffort?: string }
interface AgentLike {
  readonly session: { readonly id: string; readonly events: readonly SessionEventLike[] }
  whenIdle(): Promise<void>
  followup(message: unknown): void
  steer(message: unknown): void
}
interface Handle { agent: AgentLike }
interface Agents {
  create(options: unknown): Promise<Handle>
  resume(options: unknown): Promise<Handle>
}
type InstallModelSelection = (agentCtx: Context, ref: { current: Selection; assembled: undefined }) => unknown

/** Writes one run-file line on fd 1 (the claimed run file), synchronously so lines never interleave. */
export function writeRunLine(line: RunLine): void {
  try {
    writeSync(1, JSON.stringify(line) + '\n')
  } catch {
    // stdout is gone (the reader closed a pipe): nothing else can be told
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function apply(ctx: Context): void {
  const c = ctx as unknown as Record<string, any>
  const startup = c.cookStartup as CookStartup
  // The kitchen role query (src/chef/events.ts): this process is a cook.
  ctx.on(ROLE_EVENT as never, ((request: unknown) => answerCookRole(request, startup.rulebook)) as never)
  const exit = ctx.get('appExit') as ((code: number) => void) | undefined
  const fail = (message: string) => {
    writeRunLine({ type: 'runner_error', at: Date.now(), message })
    process.stderr.write(`dsh cook runner: ${message}\n`)
    exit?.(1)
  }
  run(ctx, startup, exit ?? (() => {})).catch((error) => fail(errorText(error)))
}

async function run(ctx: Context, startup: CookStartup, exit: (code: number) => void): Promise<void> {
  const c = ctx as unknown as Record<string, any>
  await c.loader?.await?.()
  let prompt: string
  try {
    prompt = readFileSync(startup.promptFile, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the prompt file ${startup.promptFile}: ${errorText(error)}`)
  }
  // Loaded from the harness at run time (a static import would need it at build time), as its
  // other packages are: from the harness's own copy (host-peers.ts).
  const agentModule = '@deepseek-ai/dsh-agent'
  const { installModelSelection } = (await withHostPeers(() => import(agentModule))) as { installModelSelection: InstallModelSelection }

  const fallback = c.agentDefaultModel.currentSelection() as Selection
  const selection: Selection = startup.model ? splitModel(startup.model, fallback.provider) : { ...fallback }
  if (startup.thinking) {
    let offered: string[] | undefined
    try {
      const info = await c.llm.resolveModelInfo(selection.provider, selection.model)
      offered = info?.reasoning?.efforts?.map((e: { id: string }) => String(e.id))
    } catch {
      offered = undefined // an unknown route fails at its first request, which is the candidate's failure
    }
    const chosen = chooseEffort(startup.thinking, offered)
    if (chosen.effort) selection.reasoningEffort = chosen.effort
    if (chosen.note) process.stderr.write(`dsh cook runner: ${chosen.note}\n`)
  }
  const model: ModelRef = { provider: selection.provider, model: selection.model }
  const translator = new RunLineTranslator(model)
  const facts = contractFacts(process.cwd(), startup.taskDir)

  // The steering window: open while a turn runs and no report was made (the seed's poller gate).
  let agent: AgentLike | undefined
  let turnActive = false
  let reported = false
  let closing = false

  let report: ReturnType<typeof reportTool> | undefined
  const steers = new Set<string>()
  ctx.on('session/event' as never, ((session: { id: string }, event: SessionEventLike) => {
    if (session.id !== startup.sessionId) return
    if (event.type === 'turn/start') turnActive = true
    if (event.type === 'turn/end') turnActive = false
    // A steer claimed just before the report enters the step after it: that step may report again.
    if (event.type === 'user/message' && reported && steers.has(String((event.data as { id?: unknown } | undefined)?.id))) report?.reopen()
    for (const line of translator.translate(event)) writeRunLine(line)
  }) as never)
  ctx.on('agent/turn-stopping' as never, ((payload: { agent: AgentLike }) => {
    if (payload.agent === agent) turnActive = false
  }) as never)
  ctx.effect(() => () => {
    closing = true
    turnActive = false
  }, 'cook steering window')

  const pollInbox = () => {
    if (!agent || !turnActive || reported || closing || !startup.taskDir) return
    for (const m of claimInbox(startup.taskDir)) {
      const message = createUserMessage({ content: [{ type: 'text', text: steerText(m.text) }], source: { kind: 'user' } })
      translator.markSteer(message.id)
      steers.add(message.id)
      agent.steer(message)
    }
  }
  c.setInterval(pollInbox, INBOX_POLL_MS)

  const setup = (agentCtx: Context): undefined => {
    const a = agentCtx as unknown as Record<string, any>
    installModelSelection(agentCtx, { current: selection, assembled: undefined })
    report = reportTool(() => {
      reported = true
    })
    a.tools.register(report.tool)
    a.systemPrompt.section({ ...CONTRACT_SECTION, text: contractText(facts) })
    return undefined
  }
  const agentOptions = {
    provider: selection.provider,
    model: selection.model,
    ...(selection.reasoningEffort ? { reasoningEffort: selection.reasoningEffort } : {}),
  }
  const agents = c.agents as Agents
  let handle: Handle
  let resumed = true
  try {
    handle = await agents.resume({ resumeSessionId: SessionId(startup.sessionId), agentOptions, setup })
  } catch (error) {
    // The measured answer for a session that was never created (run 1): create it under that id.
    if (!errorText(error).includes(`session "${startup.sessionId}" not found`)) throw new Error(`cannot resume the session ${startup.sessionId}: ${errorText(error)}`)
    resumed = false
    handle = await agents.create({ sessionId: SessionId(startup.sessionId), meta: { cwd: process.cwd() }, agentOptions, setup })
  }
  agent = handle.agent
  writeRunLine({ type: 'run_start', at: Date.now(), v: 1, sessionId: startup.sessionId, resumed, model })
  const firstEvent = agent.session.events.length
  await agent.whenIdle()
  agent.followup(createUserMessage({ content: [{ type: 'text', text: prompt }], source: { kind: 'user' } }))
  await agent.whenIdle()
  turnActive = false
  await c.sessions.flush(agent.session)
  const end = [...agent.session.events.slice(firstEvent)].reverse().find((e) => e.type === 'turn/end')
  const reason = (end?.data as { reason?: { kind?: string; reason?: { kind?: string } } } | undefined)?.reason
  const kind = reason?.kind ?? 'completed'
  if (closing || kind === 'aborted') {
    // Cancelled (SIGTERM, a stop) before the agent finished: not a settled run. Without `settled`
    // the kitchen derives a stop (when it asked for one) or a crash with this reason.
    const why = reason?.reason?.kind ? ` (${reason.reason.kind})` : ''
    writeRunLine({ type: 'runner_error', at: Date.now(), message: `the run was cancelled${why} before the agent settled` })
    exit(1)
    return
  }
  writeRunLine({ type: 'settled', at: Date.now(), reason: kind })
  exit(kind === 'completed' ? 0 : 1)
}
