/**
 * The role answer of a cook process: `cook`, with the rulebook its project gets from the kitchen's
 * config.json (the owner writes it from the row). The cook runner calls it on each role query; the
 * kitchen is two levels above the task directory, and the task's project is in its task.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Store, normalizeKitchenConfig, rulebookFor } from '../kitchen/index.js'
import { isRoleRequest } from './events.js'

export function answerCookRole(request: unknown, taskDir: string | undefined): void {
  if (!isRoleRequest(request) || request.role !== undefined) return
  request.role = 'cook'
  if (!taskDir) return
  try {
    const project = JSON.parse(readFileSync(join(taskDir, 'task.json'), 'utf8')).project
    const raw = JSON.parse(readFileSync(join(Store.kitchenOfTaskDir(taskDir), 'config.json'), 'utf8'))
    const { config, errors } = normalizeKitchenConfig(raw)
    if (errors.length > 0 || typeof project !== 'string') return
    const rb = rulebookFor(config, { kind: 'cook', project: project as never })
    if (rb !== undefined) request.rulebook = rb
  } catch {
    // no task.json or config.json: a role with no selection
  }
}
