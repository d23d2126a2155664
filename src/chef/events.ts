/**
 * The kitchen's integration contract between plugins in one dsh process, as Cordis events. Listeners
 * run synchronously inside `ctx.emit`, so a listener that fills a request object has filled it when
 * `emit` returns. Types only plus the names: another package imports them with `import type`.
 *
 * - `kitchen/cooks:v1`: the versioned cooks snapshot (the core's, plus each task's viewer). Emitted
 *   when it changes, again on `kitchen/cooks:v1:request`, and with `role: "off"` when chef mode
 *   closes in a session.
 * - `kitchen/role:v1`: which kitchen role an agent has. The asker passes the agent and leaves `role`
 *   unset; the kitchen service fills `chef` (and the chef's rulebook) for an agent in chef mode, the
 *   cook runner fills `cook` in a cook process. Ask at each turn: the answer is the state of now.
 * - `kitchen/rulebooks:v1`: which rulebooks are installed. The kitchen sends `rulebooks: []`; each
 *   rulebook plugin pushes its name.
 */
import type { CooksSnapshot, CookTask } from '../kitchen/index.js'

export { COOKS_EVENT, COOKS_REQUEST_EVENT } from '../kitchen/index.js'
export const ROLE_EVENT = 'kitchen/role:v1'
export const RULEBOOKS_EVENT = 'kitchen/rulebooks:v1'

export interface Viewer {
  command: string
  args: string[]
}

export type CookTaskView = CookTask & { viewer: Viewer }
export type CooksSnapshotView = Omit<CooksSnapshot, 'tasks'> & { tasks: CookTaskView[] }

export interface RoleRequest {
  version: 1
  /** The agent whose role is asked (its id); unset asks about the process (a cook). */
  agentId?: string
  role?: 'chef' | 'cook'
  /** Filled with the role: a rulebook name or "none"; unset is no selection. */
  rulebook?: string
}

export interface RulebooksRequest {
  version: 1
  rulebooks: string[]
}

/** Add each task's viewer (`command-scout watch <taskDir>`) to a core snapshot. */
export function withViewers(snapshot: CooksSnapshot, viewer: (taskDir: string) => Viewer): CooksSnapshotView {
  return { ...snapshot, tasks: snapshot.tasks.map((t) => ({ ...t, viewer: viewer(t.taskDir) })) }
}

/** Whether `value` is a role request this contract can answer (it comes from another package). */
export function isRoleRequest(value: unknown): value is RoleRequest {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return r.version === 1 && (r.agentId === undefined || typeof r.agentId === 'string')
}

export function isRulebooksRequest(value: unknown): value is RulebooksRequest {
  if (typeof value !== 'object' || value === null) return false
  const r = value as Record<string, unknown>
  return r.version === 1 && Array.isArray(r.rulebooks)
}
