/**
 * `dsh-command-scout/chef`: the kitchen service's provider in the harness (`ctx.kitchen`). The
 * work is in `Chef` (chef.ts); this class is the Cordis face: the row's config schema, the service
 * methods, and the plugin's lifetime.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { CloseResult, DispatchResult, SendResult, StopResult } from '../kitchen/index.js'
import { Chef, PLUGIN_NAME } from './chef.js'
import type { CooksSnapshotView } from './events.js'
import { KitchenRowConfig } from './schema.js'
import { KitchenService, type AddProjectArgs, type KitchenRole, type ResultArgs, type ResultText } from './service.js'

export const name = PLUGIN_NAME

export default class KitchenProvider extends KitchenService {
  static inject = ['agents', 'commands', 'tools', 'timer']
  static Config = KitchenRowConfig

  readonly core: Chef

  constructor(ctx: Context, config: KitchenRowConfig) {
    super(ctx)
    this.core = new Chef(ctx, config)
    this.core.start()
  }

  get dir(): string { return this.core.dir }
  get config(): KitchenRowConfig { return this.core.row }
  get role(): KitchenRole { return this.core.role }
  isChef(agentId: string): boolean { return this.core.isChef(agentId) }
  addProject(args: AddProjectArgs): Promise<string> { return this.core.addProject(args) }
  dispatch(input: unknown): Promise<DispatchResult> { return this.core.dispatch(input) }
  board(): Promise<string> { return this.core.board() }
  send(task: string, message: string): Promise<SendResult & { text: string }> { return this.core.send(task, message) }
  stop(task: string): Promise<StopResult & { text: string }> { return this.core.stop(task) }
  result(args: ResultArgs): Promise<ResultText> { return this.core.result(args) }
  close(task: string, discard?: boolean): Promise<CloseResult> { return this.core.close(task, discard) }
  tick(): Promise<void> { return this.core.tick() }
  snapshot(): CooksSnapshotView | undefined { return this.core.snapshot() }
}

export { KitchenProvider }
