/**
 * The integration contract: a versioned snapshot of the open tasks that the kitchen hands to an
 * injected `emit` after each tick when it changed. A snapshot, not a delta, so a consumer converges
 * from any one it receives. Pure builder; no harness types.
 */
import type { TaskView } from './derive.js'
import { outcomeText } from './texts.js'

export const COOKS_EVENT = 'kitchen/cooks:v1'
export const COOKS_REQUEST_EVENT = 'kitchen/cooks:v1:request'

export interface CookTask {
  id: string
  project: string
  title: string
  state: 'queued' | 'cooking' | 'idle'
  run?: number
  since?: number
  /** cooking: one line */
  activity?: string
  /** idle */
  outcome?: { kind: 'done' | 'needs_decision' | 'blocked' | 'failed' | 'stopped'; text: string }
  model?: string
  worktree: string
  branch: string
  taskDir: string
  /** The run file of `run`. */
  transcript?: string
}

export interface CooksSnapshot {
  version: 1
  sessionId: string
  /** off: the kitchen is closed in this session. */
  role: 'owner' | 'read-only' | 'off'
  /** Open tasks only; a task that leaves the list is closed. */
  tasks: CookTask[]
}

export interface SnapshotPaths {
  taskDir(id: string): string
  runFile(id: string, run: number): string
}

export function cooksSnapshot(sessionId: string, role: CooksSnapshot['role'], views: readonly TaskView[], paths: SnapshotPaths): CooksSnapshot {
  const tasks: CookTask[] = []
  if (role !== 'off') {
    for (const v of views) {
      const s = v.state
      if (s.kind === 'closed') continue
      const t: CookTask = {
        id: v.id,
        project: v.spec.project,
        title: v.spec.title,
        state: s.kind,
        worktree: v.spec.worktree,
        branch: v.spec.branch,
        taskDir: paths.taskDir(v.id),
      }
      if (v.model) t.model = v.model
      if (s.kind === 'cooking') {
        t.run = s.run
        t.since = s.since
        t.activity = s.activity.text
      } else if (s.kind === 'idle') {
        if (s.run !== undefined) t.run = s.run
        t.since = s.since
        t.outcome = { kind: s.outcome.kind, text: outcomeText(s.outcome) }
      }
      if (t.run !== undefined) t.transcript = paths.runFile(v.id, t.run)
      tasks.push(t)
    }
  }
  return { version: 1, sessionId, role, tasks }
}
