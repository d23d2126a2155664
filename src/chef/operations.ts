/**
 * The chef tools' operations: each one call of the kitchen core's (`Kitchen`, or the reader of a
 * read-only session) with the answer's text from the kitchen's texts. What is dsh's own stays
 * here: the model check gathered from dsh's providers before a dispatch, a named test command
 * checked against the project's discovered commands, and verify through dsh's shell.
 */
import type { Context } from '@deepseek-ai/cordis'
import {
  Kitchen, KitchenError, RULEBOOKS_EVENT, VERIFY_READ_ONLY_TEXT, boardHeadingText, missingRulebooks, resultHeadline, sendText, serveLineText, stopText,
  type CloseResult, type DispatchResult, type SendResult, type StopResult,
} from '../kitchen/index.js'
import type { RulebooksRequest } from './events.js'
import type { KitchenHost } from './host.js'
import { commandsLine, namedTestProblem, projectCommands } from './project-commands.js'
import type { AddProjectArgs, KitchenOperations, MergeArgs, ResultArgs, ResultText } from './service.js'
import { verifyTask } from './verify.js'

export class ChefOperations implements KitchenOperations {
  constructor(
    private readonly ctx: Context,
    private readonly host: KitchenHost,
    private readonly fire: (name: string, payload: unknown) => void,
  ) {}

  async addProject(args: AddProjectArgs): Promise<string> {
    await this.host.ready()
    const k = this.host.owner()
    const { testCommand, ...input } = args
    const named = testCommand?.trim()
    // A test command is one of the project's own commands, by name: verify never runs shell text.
    if (named) {
      const path = input.path.startsWith('~') ? input.path.replace(/^~/, process.env.HOME ?? '~') : input.path
      const problem = namedTestProblem(path, named)
      if (problem) throw new KitchenError('KITCHEN_BAD_INPUT', problem)
    }
    const r = await k.addProject({ ...input, ...(named ? { testCommand: named } : {}) })
    return `${r.text}\n${commandsLine(projectCommands(r.project.path, r.project.testCommand))}`
  }

  async dispatch(input: unknown): Promise<DispatchResult> {
    await this.host.ready()
    const k = this.host.owner()
    await this.host.facts.refresh(this.candidateModels(input))
    const r = await k.dispatch(input)
    void this.host.tick()
    return r
  }

  /** Every model a dispatch may check: the config's and the input's. */
  private candidateModels(input: unknown): string[] {
    const out: string[] = []
    const m = this.host.row.models
    for (const p of m?.default ?? []) out.push(p.model)
    for (const r of m?.rules ?? []) for (const p of r.use) out.push(p.model)
    const i = (input ?? {}) as { model?: unknown; tasks?: unknown }
    if (typeof i.model === 'string') out.push(i.model.trim())
    if (Array.isArray(i.tasks)) for (const t of i.tasks) if (typeof (t as { model?: unknown })?.model === 'string') out.push((t as { model: string }).model.trim())
    return out
  }

  /** The board: this session's standing read now, the kitchen's board, missing rulebooks, the live board's command. */
  async board(): Promise<string> {
    await this.host.ready()
    // The lease first: a session that lost it says so on this board, not at its next tick.
    const standing = this.host.standing()
    const text = await this.host.reader().board()
    return [boardHeadingText(this.host.dir, standing), text, ...this.missingRulebooks(), serveLineText(this.host.dir)].join('\n')
  }

  /** Each selected rulebook no installed plugin provides: one line each. */
  private missingRulebooks(): string[] {
    const request: RulebooksRequest = { version: 1, rulebooks: [] }
    this.fire(RULEBOOKS_EVENT, request)
    return missingRulebooks(this.host.kitchenConfig(), request.rulebooks.filter((r) => typeof r === 'string'))
  }

  async send(task: string, message: string): Promise<SendResult & { text: string }> {
    await this.host.ready()
    const r = await this.host.owner().send(task, message)
    void this.host.tick()
    return { ...r, text: sendText(task, r) }
  }

  async stop(task: string): Promise<StopResult & { text: string }> {
    await this.host.ready()
    const r = await this.host.owner().stop(task)
    void this.host.tick()
    return { ...r, text: stopText(task, r, this.host.row.killGraceMs) }
  }

  async close(task: string, discard = false): Promise<CloseResult> {
    await this.host.ready()
    const r = await this.host.owner().close(task, { discard })
    void this.host.tick()
    return r
  }

  /** The merge queue (the core's): lands the tasks one at a time, each after the project's test passed on it. */
  async merge(args: MergeArgs): Promise<{ text: string }> {
    await this.host.ready()
    const r = await this.host.owner().merge(args.tasks, args.signal ? { signal: args.signal } : {})
    void this.host.tick()
    return { text: r.text }
  }

  /**
   * The kitchen's facts, verify's (its facts too), then the cook's words, apart and last; what
   * failed leads, so a failed test or a branch with nothing on it is read first.
   */
  async result(args: ResultArgs): Promise<ResultText> {
    await this.host.ready()
    const kitchen = this.host.reader()
    const r = await kitchen.result(args.task)
    const out: ResultText = { text: '' }
    const verifyLines: string[] = []
    if (args.verify) {
      if (!(kitchen instanceof Kitchen)) verifyLines.push(VERIFY_READ_ONLY_TEXT)
      else {
        const project = kitchen.projectOf((await kitchen.view(args.task)).spec.project)
        const v = await verifyTask(this.ctx, kitchen, r, {
          ...(project?.testCommand ? { named: project.testCommand } : {}),
          timeoutMs: this.host.row.verifyTimeoutMs,
          ...(args.signal ? { signal: args.signal } : {}),
        })
        verifyLines.push(...v.lines)
        if (v.verified) out.verified = v.verified
      }
    }
    // The diff is git's words of the cook's commits: after the kitchen's facts, before the cook's own.
    const diffLines = args.diff ? await kitchen.diff(args.task) : []
    const head = resultHeadline(r, out.verified)
    out.text = [...(head ? [head] : []), r.facts, ...verifyLines, ...diffLines, ...(r.said ? [r.said] : [])].join('\n')
    return out
  }
}
