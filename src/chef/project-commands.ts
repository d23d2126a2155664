/**
 * A project's own commands, found by this package's `discover` (static: it never runs repository
 * code): the test and build commands the chef reviews with and each cook's contract names.
 */
import { discover } from '../discover.js'
import type { Recipe } from '../recipe.js'

export interface ProjectCommands {
  /** The test command line: the project's explicit one, else the discovered one. */
  test?: string
  /** Where the test command came from: `given`, or the manifest (`Makefile:12`). */
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

/** Discover the commands at `root`; `explicitTest` (when given) is the test command. */
export function projectCommands(root: string, explicitTest?: string): ProjectCommands {
  let recipes: readonly Recipe[] = []
  try {
    recipes = discover(root).book.entries()
  } catch {
    recipes = [] // a root that cannot be scanned has no commands to name; never a crash
  }
  const out: ProjectCommands = { all: [], more: 0 }
  const test = pick(recipes, TEST)
  const build = pick(recipes, BUILD)
  if (explicitTest?.trim()) {
    out.test = explicitTest.trim()
    out.testFrom = 'given'
  } else if (test) {
    out.test = test.cwd === '.' ? test.command : `cd ${test.cwd} && ${test.command}`
    out.testFrom = where(test)
  }
  if (build) {
    out.build = build.cwd === '.' ? build.command : `cd ${build.cwd} && ${build.command}`
    out.buildFrom = where(build)
  }
  const root_ = recipes.filter((r) => r.cwd === '.')
  out.all = root_.slice(0, LIST_CAP).map((r) => `${r.command}${r.description ? ` (${r.description.split('\n')[0]})` : ''}`)
  out.more = Math.max(0, recipes.length - out.all.length)
  return out
}

/** One line for the chef: `test: npm test (package.json), build: npm run build (package.json)`. */
export function commandsLine(c: ProjectCommands): string {
  const parts: string[] = []
  if (c.test) parts.push(`test: ${c.test} (${c.testFrom})`)
  if (c.build) parts.push(`build: ${c.build} (${c.buildFrom})`)
  if (parts.length === 0) return c.all.length > 0 ? `No test or build command found; ${c.all.length + c.more} other commands.` : 'No test or build command found (no Makefile, package.json scripts, justfile, deno tasks, Cargo or Taskfile).'
  return `Commands: ${parts.join(', ')}.`
}
