/**
 * The scripts collector: package.json scripts of the root package and of every workspace package,
 * run by the project's package manager (`pnpm run build`) in the package's directory. Lifecycle
 * scripts (`preinstall`, `postinstall`, `prepare`, ...) and `pre`/`post` hooks of other scripts are
 * kept, marked with what they run around: running one by name is legitimate, but they are noise
 * in an agent's tool list, so the table shows them with `--all` and the harness leaves them out.
 */
import { join } from 'node:path'
import type { ScriptRunner, ScriptsConfig } from '../../book/config.js'
import { createDiagnostic, recipeMaker, type Diagnostic, type OwnRecipeFields, type Recipe, type RecipeInput } from '../../book/recipe.js'
import { joinPath, readText } from '../shared/fs.js'
import { MAX_RECIPES } from '../shared/guard.js'
import { parsePackageJson, type PackageManifest } from './manifest.js'
import { LOCKFILE_RUNNERS, resolveRunner } from './runner.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { findWorkspacePackages, PNPM_WORKSPACE } from '../shared/workspaces.js'

const SOURCE = 'scripts'

/** Scripts the package manager runs itself around its own commands (npm docs, "Life Cycle Scripts"). */
const LIFECYCLE: Record<string, string> = {
  preinstall: 'before the package is installed', install: 'when the package is installed', postinstall: 'after the package is installed',
  preuninstall: 'before the package is removed', uninstall: 'when the package is removed', postuninstall: 'after the package is removed',
  preprepare: 'before prepare', prepare: 'on a local install and before pack or publish', postprepare: 'after prepare',
  prepublish: 'before publish (and on install, in old npm)', prepublishOnly: 'before publish', publish: 'on publish', postpublish: 'after publish',
  prepack: 'before a tarball is packed', postpack: 'after a tarball is packed',
  preversion: 'before the version is bumped', version: 'after the version is bumped, before the commit', postversion: 'after the version is committed',
  dependencies: 'after the dependencies change',
}

/** Whether `name` can be a hook at all: most names start with neither `pre` nor `post`, nor are lifecycle names, and one character tells. */
function mayBeHook(name: string): boolean {
  const c = name.charCodeAt(0)
  return c === 112 /* p */ || c === 105 /* i */ || c === 117 /* u */ || c === 118 /* v */ || c === 100 /* d */
}

/** What a script runs around, when it is a hook: a lifecycle script, or `pre<x>`/`post<x>` beside a script `<x>`. */
export function hookOf(name: string, scripts: ReadonlySet<string>): string | undefined {
  if (!mayBeHook(name)) return undefined
  const lifecycle = Object.hasOwn(LIFECYCLE, name) ? LIFECYCLE[name] : undefined
  if (lifecycle) return `lifecycle script: the package manager runs it ${lifecycle}`
  const prefix = name.startsWith('pre') ? 'pre' : name.startsWith('post') ? 'post' : undefined
  const base = prefix ? name.slice(prefix.length) : ''
  if (base !== '' && scripts.has(base)) return `hook: runs ${prefix === 'pre' ? 'before' : 'after'} \`${base}\` whenever that script runs`
  return undefined
}

function manifestFile(dir: string): string {
  return dir === '.' ? 'package.json' : `${dir}/package.json`
}

export const scriptsCollector: Collector<ScriptsConfig> = {
  source: SOURCE,
  manifestNames: ['package.json', PNPM_WORKSPACE, ...Object.keys(LOCKFILE_RUNNERS)],
  collect({ root, options }: CollectContext<ScriptsConfig>): CollectorResult {
    const recipes: Recipe[] = []
    const diagnostics: Diagnostic[] = []
    const files: string[] = []
    const rootText = readText(join(root, 'package.json'))
    if (rootText === undefined) return { recipes, diagnostics, files }

    // Every manifest is read and parsed once; its own problems are reported as it is read.
    const load = (dir: string): PackageManifest | undefined => {
      const file = manifestFile(dir)
      const text = dir === '.' ? rootText : readText(joinPath(root, file))
      if (text === undefined) return undefined
      const manifest = parsePackageJson(text)
      for (const p of manifest.problems) diagnostics.push(createDiagnostic({ source: SOURCE, file, ...p }))
      return manifest
    }
    const rootManifest = load('.')!
    if (!rootManifest.valid) return { recipes, diagnostics, files: ['package.json'] }

    const choice = resolveRunner(root, options, rootManifest.packageManager, rootManifest.packageManagerLine)
    for (const p of choice.problems) diagnostics.push(createDiagnostic({ source: SOURCE, file: 'package.json', ...p }))
    const runner = choice.runner

    const scan = findWorkspacePackages(root, runner, rootManifest, load)
    // The manifests read: the root's, the lockfile that chose the runner, workspace files, packages.
    files.push('package.json')
    if (choice.reason in LOCKFILE_RUNNERS) files.push(choice.reason)
    files.push(...scan.files, ...scan.packages.map((p) => manifestFile(p.dir)))
    for (const p of scan.problems) diagnostics.push(createDiagnostic({ source: SOURCE, ...p }))

    const packages = [{ dir: '.', manifest: rootManifest }, ...scan.packages]
    const found = addRecipes(packages, runner, recipes)
    return found > recipes.length ? { recipes, diagnostics, files, found } : { recipes, diagnostics, files }
  },
}

/**
 * The recipes of every package's scripts, into `recipes`, up to one more than the run-collector
 * keeps (MAX_RECIPES; its diagnostic says how many were found, the count returned): a workspace of
 * thousands of packages has tens of thousands of scripts, and the ones past the limit were made only to be dropped.
 */
function addRecipes(packages: ReadonlyArray<{ dir: string; manifest: PackageManifest }>, runner: ScriptRunner, recipes: Recipe[]): number {
  // A workspace's packages share their script names (build, test, ...): each command line is made once.
  const commands = new Map<string, string>()
  let found = 0
  for (const { dir, manifest } of packages) {
    const scripts = manifest.scripts
    found += scripts.length
    if (scripts.length === 0) continue
    const shared: Omit<RecipeInput, keyof OwnRecipeFields> = { source: SOURCE, runner, cwd: dir, file: manifestFile(dir) }
    if (dir !== '.') shared.scope = manifest.name ?? dir
    if (runner === 'npm') shared.argsSeparator = '--'
    const make = recipeMaker(shared)
    // Only a `pre`/`post` name asks for its package's other names (hookOf).
    let names: Set<string> | undefined
    for (let k = 0; k < scripts.length; k++) {
      const script = scripts[k]!
      const name = script.name
      // Past the limit, a recipe is not made, but one that can't be made fails the scan as before.
      if (recipes.length > MAX_RECIPES) {
        if (name.trim() === '') make({ name, command: runner, description: script.command, line: script.line })
        continue
      }
      let command = commands.get(name)
      if (command === undefined) commands.set(name, (command = `${runner} run ${shellWord(name)}`))
      const hook = mayBeHook(name) ? hookOf(name, (names ??= new Set(scripts.map((sc) => sc.name)))) : undefined
      recipes.push(make({ name, command, description: script.command, line: script.line, hook }))
    }
  }
  return found
}
