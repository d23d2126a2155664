/**
 * The make collector: the targets of the makefile GNU make would pick at the root, with the
 * makefiles it includes. Which targets are listed follows the `.PHONY` policy: without any
 * `.PHONY`, every target; with one, the phony targets plus documented file targets.
 */
import { join } from 'node:path'
import { shellWord } from '../../base/quote.js'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { isDir, isFile, pathExists, readText, relPosix } from '../shared/fs.js'
import { COMPUTED_GOAL, parseMakefile, type ParsedMakefile } from './parse.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

/** The name of the recipe for plain `make` (the default goal); no target can have it. */
export const DEFAULT_GOAL_NAME = '.DEFAULT_GOAL'

/** The names GNU make looks for without `-f`, in its order. */
export const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'] as const

/** The makefile `make` picks in `dir`, or undefined. */
export function defaultMakefile(dir: string): string | undefined {
  for (const name of MAKEFILE_NAMES) {
    const path = join(dir, name)
    // make takes the first name that exists; a FIFO or a device is then refused by readText, with a diagnostic.
    if (pathExists(path) && !isDir(path)) return path
  }
  return undefined
}

/** Names make would pick before `file` but can't read: it takes the first that exists, directory or not. */
function shadowingNames(dir: string, file: string): string[] {
  const out: string[] = []
  for (const name of MAKEFILE_NAMES) {
    const path = join(dir, name)
    if (path === file) break
    if (isDir(path)) out.push(name)
  }
  return out
}


/**
 * The inputs a build system makes the Makefile from (autotools, imake-style `Makefile.in`), when
 * there is no Makefile yet: why make offers nothing, and how to generate it. Never runs them.
 */
const MAKEFILE_SOURCES: ReadonlyArray<[file: string, how: string]> = [
  ['configure', 'run ./configure'],
  ['Makefile.in', 'run the configure script that writes the Makefile from it (./configure)'],
  ['configure.ac', 'run autoreconf -fi, then ./configure'],
  ['Makefile.am', 'run autoreconf -fi, then ./configure'],
]

function generatedMakefile(root: string): Diagnostic[] {
  const found = MAKEFILE_SOURCES.find(([file]) => isFile(join(root, file)))
  if (!found) return []
  const [file, how] = found
  return [createDiagnostic({
    source: 'make',
    file,
    severity: 'warning',
    message: `no Makefile yet, but ${file} is here to generate one: ${how}, then scan again to list make's targets`,
  })]
}

/** The `.PHONY` policy for one target: its description when it is listed, undefined when it is not. */
function listedDescription(parsed: ParsedMakefile, target: ParsedMakefile['targets'][number]): string | undefined {
  if (!parsed.hasPhony || parsed.phony.has(target.name)) return target.doc
  return target.doc ? `${target.doc} (file target)` : undefined
}

/** Applies the `.PHONY` policy and returns the listed targets with their descriptions. */
export function listedTargets(parsed: ParsedMakefile): Array<{ target: ParsedMakefile['targets'][number]; description: string }> {
  const out = []
  for (const target of parsed.targets) {
    const description = listedDescription(parsed, target)
    if (description !== undefined) out.push({ target, description })
  }
  return out
}

/**
 * A target's prerequisites and then its order-only ones, each once, in that order: what
 * `[...new Set([...normal, ...orderOnly])]` gives. Short lists are merged without a set: nearly
 * every rule has a few, and a big makefile has thousands of rules.
 */
export function withOrderOnly(normal: readonly string[], orderOnly: readonly string[]): readonly string[] {
  if (orderOnly.length === 0) return normal
  if (normal.length + orderOnly.length > 16) return [...new Set([...normal, ...orderOnly])]
  const out: string[] = []
  for (let k = 0; k < normal.length; k++) if (!out.includes(normal[k]!)) out.push(normal[k]!)
  for (let k = 0; k < orderOnly.length; k++) if (!out.includes(orderOnly[k]!)) out.push(orderOnly[k]!)
  return out
}

export const makeCollector: Collector = {
  source: 'make',
  manifestNames: MAKEFILE_NAMES,
  collect(ctx: CollectContext): CollectorResult {
    const rootFile = defaultMakefile(ctx.root)
    if (!rootFile) return { recipes: [], diagnostics: generatedMakefile(ctx.root), files: [] }
    const parsed = parseMakefile(rootFile, { cwd: ctx.root, read: readText, exists: pathExists })
    const recipes: Recipe[] = []
    const relFiles = new Map<string, string>()
    const rel = (abs: string): string => {
      let r = relFiles.get(abs)
      if (r === undefined) relFiles.set(abs, (r = relPosix(ctx.root, abs)))
      return r
    }
    const goal = parsed.defaultGoal === undefined ? undefined : parsed.targets.find((t) => t.name === parsed.defaultGoal)
    const shadowed = shadowingNames(ctx.root, rootFile)
    if (parsed.defaultGoal !== undefined && shadowed.length === 0) {
      const forwarded = parsed.hasDefaultRecipe
        && (!goal || (!goal.hasRecipe && goal.prerequisites.length === 0) || goal.prerequisites.some((p) => !parsed.targets.some((t) => t.name === p)))
      recipes.push(createRecipe({
        source: 'make',
        runner: 'make',
        name: DEFAULT_GOAL_NAME,
        command: 'make',
        cwd: '.',
        description: `the default goal: plain \`make\` builds ${parsed.defaultGoal === COMPUTED_GOAL ? 'the first target (its name is computed at run time)' : `\`${parsed.defaultGoal}\``}${goal?.doc ? ` (${goal.doc})` : ''}${forwarded ? '; what has no rule here goes to the .DEFAULT rule\'s recipe' : ''}`,
        file: rel(goal?.file ?? rootFile),
        ...(goal ? { line: goal.line } : {}),
        prerequisites: goal ? goal.prerequisites : [],
        variables: goal ? goal.variables : [],
      }))
    }
    // Indexed, each target's description decided in place: a big makefile has thousands.
    const targets = parsed.targets
    for (let k = 0; k < targets.length; k++) {
      const target = targets[k]!
      const description = listedDescription(parsed, target)
      if (description === undefined) continue
      recipes.push(createRecipe({
        source: 'make',
        runner: 'make',
        name: target.name,
        command: `make ${shellWord(target.name)}`,
        cwd: '.',
        description,
        file: rel(target.file),
        line: target.line,
        prerequisites: withOrderOnly(target.prerequisites, target.orderOnly),
        variables: target.variables,
      }))
    }
    const diagnostics = parsed.problems.map((p) => createDiagnostic({
      source: 'make',
      file: rel(p.file),
      ...(p.line !== undefined ? { line: p.line } : {}),
      message: p.message,
      severity: p.severity,
    }))
    const fatal = parsed.problems.find((p) => p.fatal)
    if (fatal) {
      // make stops while reading the makefile, before it runs anything: no target can run.
      diagnostics.push(createDiagnostic({
        source: 'make',
        file: rel(fatal.file),
        ...(fatal.line !== undefined ? { line: fatal.line } : {}),
        message: `make refuses this makefile (it stops while reading ${rel(fatal.file)}${fatal.line !== undefined ? ` at line ${fatal.line}` : ''}), so none of its ${recipes.length} target${recipes.length === 1 ? '' : 's'} can run and none is listed; fix the error${parsed.problems.filter((p) => p.fatal).length === 1 ? '' : 's'} reported above`,
      }))
      recipes.length = 0
    }
    for (const name of shadowed) {
      diagnostics.unshift(createDiagnostic({
        source: 'make',
        file: name,
        message: `${name} is a directory, and GNU make picks it before ${rel(rootFile)} and stops ("Is a directory"); the targets listed are ${rel(rootFile)}'s, but plain \`make\` can't run them until ${name} is renamed`,
      }))
    }
    return { recipes, diagnostics, files: parsed.files.map(rel) }
  },
}
