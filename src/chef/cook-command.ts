/**
 * The default cook command: this same dsh install (the Node and launcher running the chef), never a
 * `dsh` resolved from PATH, with the core's template after the program.
 */
import { DEFAULT_COOK_COMMAND } from '../kitchen/index.js'

export function defaultCookCommand(): string[] {
  const launcher = process.argv[1]
  const program = launcher ? [process.execPath, launcher] : ['dsh']
  return [...program, ...DEFAULT_COOK_COMMAND.slice(1)]
}
