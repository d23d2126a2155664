/**
 * A project's own commands, found by this package's `discover` (static: it never runs repository
 * code): the test and build commands the chef reviews with. Which command is the test command is
 * the kitchen's one policy (`findTest` in src/kitchen/derive/commands.ts), the same the cook's
 * contract names; a test command a person names is a name of one of these commands, never shell
 * text of its own, so what verify runs is always a command the project declares.
 */
import { discover } from '../book/discover.js'
import type { Recipe } from '../book/recipe.js'
import { commandLine, commandsText, declaredAt, findBuild, findNamed, findTest, namedTestProblemText, type CommandsFound } from '../kitchen/index.js'

export { commandLine, findNamed, findTest }

export interface ProjectCommands extends CommandsFound {
  /** Every discovered root command, `command (description)` (capped). */
  all: string[]
  more: number
}

const LIST_CAP = 15

/** The recipes discovered at `root`, statically; none when it can't be scanned. */
export function recipesAt(root: string): readonly Recipe[] {
  try {
    return discover(root, {}, { cache: false, checkRunners: false }).book.entries()
  } catch {
    return [] // a root that cannot be scanned has no commands to name; never a crash
  }
}

/** Discover the commands at `root`; `named` (when given) names the test command among them. */
export function projectCommands(root: string, named?: string): ProjectCommands {
  const recipes = recipesAt(root)
  const root_ = recipes.filter((r) => r.cwd === '.')
  const all = root_.slice(0, LIST_CAP).map((r) => `${r.command}${r.description ? ` (${r.description.split('\n')[0]})` : ''}`)
  const out: ProjectCommands = { all, more: Math.max(0, recipes.length - all.length), count: recipes.length }
  const test = findTest(recipes, named)
  const build = findBuild(recipes)
  if (test) {
    out.test = commandLine(test)
    out.testFrom = named?.trim() ? `${declaredAt(test)}, named` : declaredAt(test)
  }
  if (build) {
    out.build = commandLine(build)
    out.buildFrom = declaredAt(build)
  }
  return out
}

/** The project's test command line (the named one, else the discovered one), or undefined. */
export function testCommandOf(root: string, named?: string): string | undefined {
  const test = findTest(recipesAt(root), named)
  return test ? commandLine(test) : undefined
}

/** Why `named` names no command of the project at `root` (with the ones it could name), or undefined. */
export function namedTestProblem(root: string, named: string): string | undefined {
  const recipes = recipesAt(root)
  if (findNamed(recipes, named)) return undefined
  return namedTestProblemText(named, recipes.filter((r) => r.cwd === '.').slice(0, LIST_CAP).map((r) => `${r.runner}:${r.name}`))
}

/** One line for the chef: `Commands: test: npm test (package.json), build: npm run build (package.json).` */
export function commandsLine(c: ProjectCommands): string {
  return commandsText(c)
}
