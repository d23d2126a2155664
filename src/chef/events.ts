/**
 * The kitchen's integration contract as Cordis events in the harness. Listeners run synchronously
 * inside `ctx.emit`, so a listener that fills a request object has filled it when `emit` returns.
 *
 * - `kitchen/cooks:v1`: the versioned cooks snapshot (the core's, plus each task's viewer). Emitted
 *   when it changes, again on `kitchen/cooks:v1:request`, and with `role: "off"` when chef mode
 *   closes in a session.
 * - `kitchen/role:v1` and `kitchen/rulebooks:v1`: the role contract (src/kitchen/events.ts), which the
 *   chef and the cook runner both answer.
 *
 * No value import from the kitchen core: the kitchen row listens to these names from its start and
 * loads its core only when it needs it.
 */
import type { CooksSnapshot, CookTask } from '../kitchen/index.js'

export { COOKS_EVENT, COOKS_REQUEST_EVENT, ROLE_EVENT, RULEBOOKS_EVENT, isRoleRequest, isRulebooksRequest, type RoleRequest, type RulebooksRequest } from '../kitchen/events.js'

export interface Viewer {
  command: string
  args: string[]
}

export type CookTaskView = CookTask & { viewer: Viewer }
export type CooksSnapshotView = Omit<CooksSnapshot, 'tasks'> & { tasks: CookTaskView[] }

/** Add each task's viewer (`command-scout watch <taskDir>`) to a core snapshot. */
export function withViewers(snapshot: CooksSnapshot, viewer: (taskDir: string) => Viewer): CooksSnapshotView {
  return { ...snapshot, tasks: snapshot.tasks.map((t) => ({ ...t, viewer: viewer(t.taskDir) })) }
}
