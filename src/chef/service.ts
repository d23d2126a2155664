/**
 * Service Definition of the kitchen in the harness: `ctx.kitchen`. It says WHAT the kitchen service
 * does; `provider.ts` is the provider, and the chef tools call its `operations`.
 *
 * Semantics every implementation owes:
 * - **One kitchen per process, opened lazily.** The kitchen directory is opened when the first
 *   session turns chef mode on (or a resumed chef session comes back), as the owner when the lease
 *   is free or stale, else read-only; it is closed (the lease given up, cooks left running) when
 *   the last chef session leaves chef mode or the plugin stops. The kitchen's code loads lazily
 *   too: the provider loads its core at the first `/chef` line, session coming back in chef mode or
 *   operations call, so a process with no chef session never loads it (nor ticks it).
 * - **Ticks.** Every second and after every mutating call, on the plugin's own timers, so they end
 *   with the plugin. A read-only session's tick takes the lease once it is free.
 * - **Hot config.** The row's config applies at the next tick when a patch layer changes it; no
 *   task, cook, lease or pending wake is lost.
 * - **Chef mode per session.** Only a session in chef mode sees the chef tools; wakes go to the
 *   chef session that turned chef mode on last.
 * - **Refusals are errors with a reason** (`KitchenError` text), never a crash of the host.
 */
import { Service, type Context } from '@deepseek-ai/cordis'
import type { AddProjectInput, CloseResult, DispatchResult, SendResult, StopResult, VerifyVerdict } from '../kitchen/index.js'
import type { CooksSnapshotView, RoleRequest, RulebooksRequest } from './events.js'
import type { KitchenRowConfig } from './schema.js'

declare module '@deepseek-ai/cordis' {
  interface Context {
    kitchen: KitchenService
  }
  interface Events {
    'kitchen/cooks:v1'(snapshot: CooksSnapshotView): void
    'kitchen/cooks:v1:request'(): void
    'kitchen/role:v1'(request: RoleRequest): void
    'kitchen/rulebooks:v1'(request: RulebooksRequest): void
  }
}

export type KitchenRole = 'owner' | 'read-only' | 'closed'

/** What `chef_add_project` takes: the kitchen's own input. */
export type AddProjectArgs = AddProjectInput

export interface ResultArgs {
  task: string
  /** Also run the base branch's test command on the committed work, confined to the task's clone. */
  verify?: boolean
  /** Also show the diff of the branch against its base, bounded. */
  diff?: boolean
  signal?: AbortSignal
}

/** What `chef_close {merge: true}` takes: the tasks to land, in order. */
export interface MergeArgs {
  tasks: string[]
  signal?: AbortSignal
}

export interface ResultText {
  text: string
  verified?: VerifyVerdict
}

/** The chef tools' operations: what `chef_add_project` ... `chef_close` call, each answering with text. */
export interface KitchenOperations {
  addProject(args: AddProjectArgs): Promise<string>
  dispatch(input: unknown): Promise<DispatchResult>
  board(): Promise<string>
  send(task: string, message: string): Promise<SendResult & { text: string }>
  stop(task: string): Promise<StopResult & { text: string }>
  result(args: ResultArgs): Promise<ResultText>
  close(task: string, discard?: boolean): Promise<CloseResult>
  /** Land the tasks one at a time (the merge queue), each tested first, then close them; stops at a conflict or failure. */
  merge(args: MergeArgs): Promise<{ text: string }>
}

export abstract class KitchenService extends Service {
  constructor(ctx: Context) {
    super(ctx, 'kitchen')
  }
  /** The kitchen directory of the current config. */
  abstract readonly dir: string
  /** The row config in force (after the last hot reload). */
  abstract readonly config: KitchenRowConfig
  /** owner, read-only, or closed (no chef session in this process). */
  abstract readonly role: KitchenRole
  /** Whether this agent is in chef mode. */
  abstract isChef(agentId: string): boolean
  /** The operations the chef tools call. */
  abstract readonly operations: KitchenOperations
  /** Run one tick now (after a mutation, and in tests). */
  abstract tick(): Promise<void>
  /** The last cooks snapshot, emitted again. */
  abstract snapshot(): CooksSnapshotView | undefined
}
