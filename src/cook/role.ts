/**
 * The role answer of a cook process: `cook`, with the rulebook the kitchen chose for its project
 * when it launched this run (`--rulebook`, from the chef's row config). The cook runner calls it on
 * each role query. Nothing is read from the kitchen directory: a file there is not where a cook's
 * rules come from.
 */
import { isRoleRequest } from '../kitchen/events.js'

export function answerCookRole(request: unknown, rulebook: string | undefined): void {
  if (!isRoleRequest(request) || request.role !== undefined) return
  request.role = 'cook'
  if (rulebook !== undefined) request.rulebook = rulebook
}
