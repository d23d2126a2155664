/**
 * The kitchen's role contract between plugins of one process: which kitchen role an agent has, and
 * which rulebooks are installed, and the names of the cooks snapshot's events. Names and request
 * shapes only (no harness types), so the chef and the cook runner, which never import each other,
 * answer the same contract, another package imports it with `import type`, and the chef's row
 * listens to these names from its start without loading the kitchen core.
 *
 * - `kitchen/role:v1`: the asker passes the agent (or none, for the process: a cook) and leaves
 *   `role` unset; the chef fills `chef` (and the chef's rulebook) for an agent in chef mode, the cook
 *   runner fills `cook`. Ask at each turn: the answer is the state of now.
 * - `kitchen/rulebooks:v1`: the kitchen sends `rulebooks: []`; each rulebook plugin pushes its name.
 */

export const ROLE_EVENT = 'kitchen/role:v1'
export const RULEBOOKS_EVENT = 'kitchen/rulebooks:v1'
/** The versioned cooks snapshot (derive/texts.ts `cooksSnapshot`), and the request to emit it again. */
export const COOKS_EVENT = 'kitchen/cooks:v1'
export const COOKS_REQUEST_EVENT = 'kitchen/cooks:v1:request'

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
