/**
 * A project's own commands, found by this package's `discover` (static: it never runs repository
 * code): the test and build commands the chef reviews with and each cook's contract names. A test
 * command a person names is a name of one of these commands (`test`, `make:check`, a tool name, or
 * the command line itself), never shell text of its own: what verify runs is always a command the
 * project declares, read and judged like any other.
 */
import { discover } from '../book/discover.js'
import type { Recipe } from '../book/recipe.js'

export interface ProjectCommands {
  /** The test command line: the one named, else the discovered one. */
  test?: string
  /** Where the test command came from: the manifest (`Makefile:12`), and `named` when a person chose it. */
  testFrom?: string
  build?: string
  buildFrom?: string
  /** Every discovered root command, `name: command` (capped). */
  all: string[]
  more: number
}

const TEST = ['test', 'tests', 'check', 'test:unit', 'unit']
const BUILD = ['build', 'compile']
const LIST_CAP = 15

function rank(names: readonly string[], r: Recipe): number {
  const i = names.indexOf(r.name.toLowerCase())
  return i < 0 ? Infinity : i
}

function pick(recipes: readonly Recipe[], names: readonly string[]): Recipe | undefined {
  let best: Recipe | undefined
  let bestRank = Infinity
  for (const r of recipes) {
    const k = rank(names, r) + (r.cwd === '.' ? 0 : 100)
    if (k < bestRank) {
      best = r
      bestRank = k
    }
  }
  return bestRank === Infinity ? undefined : best
}

const where = (r: Recipe) => (r.line ? `${r.file}:${r.line}` : r.file)

/** The command line of a recipe as run from the root. */
export function commandLine(r: Recipe): string {
  return r.cwd === '.' ? r.command : `cd ${r.cwd} && ${r.command}`
}

/**
 * The recipe `named` names: its id, `runner:name` or `source:name`, its plain name (when only one
 * has it), or its command line; undefined when none (or several) match.
 */
export function findNamed(recipes: readonly Recipe[], named: string): Recipe | undefined {
  const want = named.trim()
  const one = (rs: readonly Recipe[]) => (rs.length === 1 ? rs[0] : undefined)
  const byId = recipes.find((r) => r.id === want)
  if (byId) return byId
  const colon = want.indexOf(':')
  if (colon > 0) {
    const [prefix, name] = [want.slice(0, colon), want.slice(colon + 1)]
    const hit = one(recipes.filter((r) => (r.runner === prefix || r.source === prefix) && (r.name === name || r.aliases.includes(name))))
    if (hit) return hit
  }
  return one(recipes.filter((r) => r.name === want || r.aliases.includes(want))) ?? one(recipes.filter((r) => r.command === want || commandLine(r) === want))
}

/** The test recipe: the one named, else the best-named test of the root. */
export function findTest(recipes: readonly Recipe[], named?: string): Recipe | undefined {
  return named?.trim() ? findNamed(recipes, named) : pick(recipes, TEST)
}

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
  const out: ProjectCommands = { all: [], more: 0 }
  const test = findTest(recipes, named)
  const build = pick(recipes, BUILD)
  if (test) {
    out.test = commandLine(test)
    out.testFrom = named?.trim() ? `${where(test)}, named` : where(test)
  }
  if (build) {
    out.build = commandLine(build)
    out.buildFrom = where(build)
  }
  const root_ = recipes.filter((r) => r.cwd === '.')
  out.all = root_.slice(0, LIST_CAP).map((r) => `${r.command}${r.description ? ` (${r.description.split('\n')[0]})` : ''}`)
  out.more = Math.max(0, recipes.length - out.all.length)
  return out
}

/** Why `named` names no command of the project at `root` (with the ones it could name), or undefined. */
export function namedTestProblem(root: string, named: string): string | undefined {
  const recipes = recipesAt(root)
  if (findNamed(recipes, named)) return undefined
  const names = recipes.filter((r) => r.cwd === '.').slice(0, LIST_CAP).map((r) => `${r.runner}:${r.name}`)
  return `testCommand "${named.trim()}" names none of the project's commands; name one of them${names.length ? ` (${names.join(', ')})` : ' (the project declares none: no Makefile, package.json scripts, justfile, ...)'}, by name or as its command line`
}

/** One line for the chef: `test: npm test (package.json), build: npm run build (package.json)`. */
export function commandsLine(c: ProjectCommands): string {
  const parts: string[] = []
  if (c.test) parts.push(`test: ${c.test} (${c.testFrom})`)
  if (c.build) parts.push(`build: ${c.build} (${c.buildFrom})`)
  if (parts.length === 0) return c.all.length > 0 ? `No test or build command found; ${c.all.length + c.more} other commands.` : 'No test or build command found (no Makefile, package.json scripts, justfile, deno tasks, Cargo or Taskfile).'
  return `Commands: ${parts.join(', ')}.`
}
