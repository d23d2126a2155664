/**
 * A project's test and build commands among the commands discovery found: the one policy that the
 * chef (add project, verify, the wake's test fact) and the cook's contract both use, so the command
 * the chef verifies with is the command the cook is told to run. Pure: the discovered recipes come
 * in, the choice goes out; discovering them (statically, nothing of the repository runs) is the
 * caller's.
 *
 * A test command a person names is a name of one of these commands (its id, `runner:name`,
 * `source:name`, its plain name when only one has it, or its command line), never shell text of
 * its own.
 */
import type { Recipe } from '../../book/recipe.js'

/** Names a test command goes by, best first. */
export const TEST_NAMES: readonly string[] = ['test', 'tests', 'check', 'test:unit', 'unit']
/** Names a build command goes by, best first. */
export const BUILD_NAMES: readonly string[] = ['build', 'compile']
/** Other names a cook verifies its work with; listed after the test and build commands. */
const VERIFY_NAMES: readonly string[] = ['lint', 'typecheck', 'verify', 'ci']

/** A command of a subdirectory ranks after every command of the root. */
const SUBDIR_PENALTY = 100

function rank(names: readonly string[], r: Recipe): number {
  const i = names.indexOf(r.name.toLowerCase())
  return i < 0 ? Infinity : i + (r.cwd === '.' ? 0 : SUBDIR_PENALTY)
}

/** The best-named recipe for `names`, the root's first; undefined when none has one of them. */
function pick(recipes: readonly Recipe[], names: readonly string[]): Recipe | undefined {
  let best: Recipe | undefined
  let bestRank = Infinity
  for (const r of recipes) {
    const k = rank(names, r)
    if (k < bestRank) {
      best = r
      bestRank = k
    }
  }
  return best
}

/** The command line of a recipe as run from the project's root. */
export function commandLine(r: Recipe): string {
  return r.cwd === '.' ? r.command : `cd ${r.cwd} && ${r.command}`
}

/** Where a recipe is declared: `Makefile:12`, or the file alone. */
export function declaredAt(r: Recipe): string {
  return r.line ? `${r.file}:${r.line}` : r.file
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

/** The test command: the one `named` names when a person named one, else the best-named test of the root. */
export function findTest(recipes: readonly Recipe[], named?: string): Recipe | undefined {
  return named?.trim() ? findNamed(recipes, named) : pick(recipes, TEST_NAMES)
}

/** The build command: the best-named build of the root. */
export function findBuild(recipes: readonly Recipe[]): Recipe | undefined {
  return pick(recipes, BUILD_NAMES)
}

/**
 * The recipes in the order a cook reads them: the test command first, then the build command, then
 * the other verification commands (other tests, lint, typecheck, ...), then everything else, each
 * group in discovery order.
 */
export function verificationOrder(recipes: readonly Recipe[], named?: string): Recipe[] {
  const test = findTest(recipes, named)
  const build = findBuild(recipes)
  const first = [test, build].filter((r): r is Recipe => r !== undefined)
  const verifying = new Set([...TEST_NAMES, ...BUILD_NAMES, ...VERIFY_NAMES])
  const rest = recipes.filter((r) => !first.includes(r))
  return [...first, ...rest.filter((r) => verifying.has(r.name.toLowerCase())), ...rest.filter((r) => !verifying.has(r.name.toLowerCase()))]
}
