/**
 * The go collector: the Go module at the root (go.mod), or the modules a go.work at the root
 * uses. For each module the go command itself provides `go build ./...`, `go test ./...` and
 * `go vet ./...` (recipes marked `implied`: no file declares them); each main package gives
 * `go run ./<dir>`, and a module whose sources hold `//go:generate` directives gives
 * `go generate ./...`. Every command runs in its module's directory. Nothing is compiled or run:
 * packages are found by reading directory listings and the headers of .go files (go-packages.ts).
 */
import { join, resolve } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { isFile, readText, relPosix } from '../shared/fs.js'
import { parseGoMod, parseGoWork, type GoProblem } from './mod.js'
import { modulePackages, type GoPackage } from './packages.js'
import { insideRoot } from '../shared/inside-root.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

const SOURCE = 'go'
/** The characters go allows in an import path (golang.org/x/mod/module importPathOK). */
const IMPORT_PATH_ELEMENTS = /^(\.|[A-Za-z0-9._~+\/-]+)$/

interface Module {
  /** POSIX directory relative to the scan root. */
  dir: string
  path: string
  file: string
  line?: number
}

/** Binary names by package: the directory's last element, the whole path where two share one. */
function runNames(packages: readonly GoPackage[], modulePath: string): Map<GoPackage, string> {
  const base = (p: GoPackage) => (p.dir === '.' ? modulePath.split('/').pop()! : p.dir.split('/').pop()!)
  const count = new Map<string, number>()
  for (const p of packages) count.set(base(p), (count.get(base(p)) ?? 0) + 1)
  return new Map(packages.map((p) => [p, count.get(base(p))! > 1 ? (p.dir === '.' ? base(p) : p.dir) : base(p)]))
}

export function collectGo(root: string): CollectorResult {
  const recipes: Recipe[] = []
  const diagnostics: Diagnostic[] = []
  const files: string[] = []
  const report = (file: string, p: GoProblem) => diagnostics.push(createDiagnostic({ source: SOURCE, file, ...p }))

  const readModule = (dir: string, from?: { file: string; line: number }): Module | undefined => {
    const file = dir === '.' ? 'go.mod' : `${dir}/go.mod`
    const text = readText(join(root, file))
    if (text === undefined) {
      if (from) report(from.file, { line: from.line, severity: 'error', message: `go.work uses ${dir}, which has no go.mod; go refuses the workspace ("cannot load module"): add the module or drop the use line` })
      return undefined
    }
    files.push(file)
    const mod = parseGoMod(text)
    for (const p of mod.problems) report(file, p)
    if (mod.module === undefined) return undefined
    return { dir, path: mod.module, file, ...(mod.line ? { line: mod.line } : {}) }
  }

  const modules: Module[] = []
  const workText = isFile(join(root, 'go.work')) ? readText(join(root, 'go.work')) : undefined
  if (workText !== undefined) {
    files.push('go.work')
    const work = parseGoWork(workText)
    for (const p of work.problems) report('go.work', p)
    const seen = new Set<string>()
    // go refuses a go.work it can't parse, so every command in the workspace would fail.
    const uses = work.problems.some((p) => p.severity === 'error') ? [] : work.uses
    for (const use of uses) {
      const abs = resolve(root, use.path)
      if (!insideRoot(root, abs)) {
        report('go.work', { line: use.line, severity: 'warning', message: `go.work uses ${use.path}, which is outside the scanned directory (by its real path); its commands are not listed` })
        continue
      }
      const dir = relPosix(root, abs)
      if (seen.has(dir)) {
        report('go.work', { line: use.line, severity: 'error', message: `go.work uses ${use.path} twice; go refuses the workspace ("path appears multiple times"): keep one` })
        continue
      }
      seen.add(dir)
      const mod = readModule(dir, { file: 'go.work', line: use.line })
      if (mod) modules.push(mod)
    }
    const paths = new Map<string, Module>()
    for (const m of modules) {
      const other = paths.get(m.path)
      if (other) report('go.work', { severity: 'error', message: `modules ${other.dir} and ${m.dir} both declare module ${m.path}; go refuses the workspace: rename one` })
      else paths.set(m.path, m)
    }
  } else {
    const mod = readModule('.')
    if (mod) modules.push(mod)
  }

  const multi = modules.length > 1 || (modules.length === 1 && modules[0]!.dir !== '.')
  for (const mod of modules) {
    const scope = multi ? mod.dir : undefined
    const where = mod.dir === '.' ? 'the root' : mod.dir
    const base = { source: SOURCE, runner: 'go', cwd: mod.dir, file: mod.file, ...(mod.line ? { line: mod.line } : {}), ...(scope ? { scope } : {}) }
    recipes.push(
      createRecipe({ ...base, name: 'build', command: 'go build ./...', implied: true, description: `Build every package of module ${mod.path} (${where})` }),
      createRecipe({ ...base, name: 'test', command: 'go test ./...', implied: true, description: `Test every package of module ${mod.path}` }),
      createRecipe({ ...base, name: 'vet', command: 'go vet ./...', implied: true, description: `Vet every package of module ${mod.path}` }),
    )
    const { packages } = modulePackages(join(root, mod.dir))
    const under = (p: string) => (mod.dir === '.' ? p : `${mod.dir}/${p}`)
    const directives = packages.flatMap((p) => p.generate)
    if (directives.length > 0) {
      const first = directives[0]!
      const inFiles = new Set(directives.map((d) => d.file))
      recipes.push(createRecipe({
        ...base,
        name: 'generate',
        command: 'go generate ./...',
        file: under(first.file),
        line: first.line,
        description: `Run the ${directives.length} //go:generate directive${directives.length === 1 ? '' : 's'} of module ${mod.path} (in ${[...inFiles].slice(0, 3).join(', ')}${inFiles.size > 3 ? ', ...' : ''})`,
      }))
    }
    for (const p of packages) {
      if (!IMPORT_PATH_ELEMENTS.test(p.dir)) {
        report(under(p.file), { line: p.line, severity: 'error', message: `package directory ${under(p.dir)} is not a valid Go import path (only ASCII letters, digits and - . _ ~ + are allowed), so go build ./... and go list fail in this module; rename the directory` })
      }
    }
    const mains = packages.filter((p) => p.name === 'main' && IMPORT_PATH_ELEMENTS.test(p.dir))
    const names = runNames(mains, mod.path)
    for (const p of mains) {
      const importPath = p.dir === '.' ? mod.path : `${mod.path}/${p.dir}`
      recipes.push(createRecipe({
        ...base,
        name: `run/${names.get(p)!}`,
        command: p.dir === '.' ? 'go run .' : `go run ${shellWord(`./${p.dir}`)}`,
        file: under(p.file),
        line: p.line,
        description: `Run the Go program ${importPath}`,
      }))
    }
  }
  return { recipes, diagnostics, files }
}

export const goCollector: Collector = {
  source: SOURCE,
  manifestNames: ['go.mod', 'go.work'],
  collect(ctx: CollectContext): CollectorResult {
    return collectGo(ctx.root)
  },
}
