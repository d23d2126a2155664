/**
 * The deno collector: tasks of deno.json (or deno.jsonc when there is no deno.json, as deno
 * chooses) and of every workspace member's config, run as `deno task <name>` in the member's
 * directory. String tasks and object tasks (`command`, `description`, `dependencies`) are listed;
 * an object task without a command still runs its dependencies, so it is listed too.
 */
import { join, posix } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { parseDenoConfig, type DenoConfig } from './config.js'
import { isDir, pathExists, preview, readFileText, resolveInsideRoot } from '../shared/fs.js'
import { boundedMatcher } from '../shared/globs.js'
import { MAX_WORKSPACE_PATTERNS } from '../shared/workspaces.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { childDirs, globSafely, rootRelativePattern, simplePattern } from '../shared/workspace-patterns.js'

const SOURCE = 'deno'
export const DENO_CONFIG_NAMES = ['deno.json', 'deno.jsonc'] as const

interface Loaded {
  readonly dir: string
  readonly file: string
  readonly config: DenoConfig
}

export const denoCollector: Collector = {
  source: SOURCE,
  manifestNames: DENO_CONFIG_NAMES,
  collect({ root }: CollectContext): CollectorResult {
    const recipes: Recipe[] = []
    const diagnostics: Diagnostic[] = []
    const files: string[] = []
    const report = (file: string, p: { line?: number; message: string; severity: 'error' | 'warning' }) =>
      diagnostics.push(createDiagnostic({ source: SOURCE, file, ...p }))

    /** The config of a directory: deno.json wins over deno.jsonc. */
    const load = (dir: string): Loaded | undefined => {
      // Anything but a directory counts as there (deno would try it); readFileText refuses a FIFO or a device.
      const present = DENO_CONFIG_NAMES.map((name) => configThere(join(root, dir, name)))
      const index = present.indexOf(true)
      const raw = index === -1 ? undefined : readRaw(join(root, dir, DENO_CONFIG_NAMES[index]!))
      if (raw === undefined) return undefined
      const file = dir === '.' ? DENO_CONFIG_NAMES[index]! : `${dir}/${DENO_CONFIG_NAMES[index]}`
      if (index === 0 && present[1]) {
        report(file, { severity: 'warning', message: `both deno.json and deno.jsonc are in ${dir === '.' ? 'the root' : dir}; deno reads deno.json and ignores deno.jsonc, so merge them into one` })
      }
      let text = raw
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1)
        report(file, { line: 1, severity: 'error', message: `${file} starts with a byte-order mark, and deno refuses the file for it ("Unexpected token on line 1 column 1"); save it as UTF-8 without a BOM. Its tasks are listed as written` })
      }
      const config = parseDenoConfig(text, DENO_CONFIG_NAMES[index]!)
      files.push(file)
      for (const p of config.problems) report(file, p)
      return { dir, file, config }
    }

    const top = load('.')
    if (top === undefined) return { recipes, diagnostics, files }
    const members: Loaded[] = []
    if (top.config.workspace !== undefined) {
      const taken = new Set<string>()
      for (const [found, literal] of memberCandidates(
        root,
        top.config.workspace,
        (message) => report(top.file, { line: top.config.workspaceLine, severity: 'warning', message }),
      )) {
        // Members count by real path, inside the root: a link out of it is refused, and two
        // paths to one directory give one member.
        const inside = resolveInsideRoot(root, found)
        if (!inside.ok) {
          if (inside.why !== 'missing') report(top.file, { line: top.config.workspaceLine, severity: 'warning', message: `workspace member ${inside.message}; deno requires members nested under the workspace` })
          else if (literal) report(top.file, { line: top.config.workspaceLine, severity: 'warning', message: `workspace member ./${preview(found)} has no deno.json or deno.jsonc; deno skips it too. Add one or remove the member` })
          continue
        }
        const dir = inside.rel
        if (dir === '.' || taken.has(dir)) continue
        taken.add(dir)
        const member = load(dir)
        if (member === undefined) {
          if (!literal) continue // a glob match without a config is not a member
          report(top.file, { line: top.config.workspaceLine, severity: 'warning', message: `workspace member ./${dir} has no deno.json or deno.jsonc; deno skips it too. Add one or remove the member` })
          continue
        }
        if (member.config.workspace !== undefined) {
          report(member.file, { line: member.config.workspaceLine, severity: 'warning', message: `"workspace" is only read in the workspace root's config; deno ignores it in member ${dir}, so its members are not listed` })
        }
        members.push(member)
      }
    }

    for (const { dir, file, config } of [top, ...members]) {
      const scope = dir === '.' ? undefined : config.name ?? dir
      for (const task of config.tasks) {
        recipes.push(createRecipe({
          source: SOURCE,
          runner: 'deno',
          name: task.name,
          command: `deno task ${shellWord(task.name)}`,
          cwd: dir,
          description: task.description ?? task.command ?? '',
          file,
          line: task.line,
          prerequisites: task.dependencies,
          ...(scope !== undefined ? { scope } : {}),
        }))
      }
    }
    return { recipes, diagnostics, files }
  },
}

/** The file's text as it is (a byte-order mark kept: deno refuses it); undefined when missing or refused. */
function readRaw(path: string): string | undefined {
  const r = readFileText(path, { keepBom: true })
  return r.kind === 'text' ? r.text : undefined
}

function configThere(path: string): boolean {
  return pathExists(path) && !isDir(path)
}

const GLOB_CHARS = /[*?[\]{}()!]/

/**
 * Member directories (POSIX, relative to the root, sorted), each with whether it was named as a
 * plain path (then a missing config deserves a warning) or matched by a glob (`./packages/*`: then
 * only directories with a config are members). `!pattern` excludes.
 */
export function memberCandidates(root: string, patterns: readonly string[], warn: (message: string) => void): Map<string, boolean> {
  if (patterns.length > MAX_WORKSPACE_PATTERNS) {
    warn(`${patterns.length} workspace members; only the first ${MAX_WORKSPACE_PATTERNS} are read (MAX_WORKSPACE_PATTERNS)`)
    patterns = patterns.slice(0, MAX_WORKSPACE_PATTERNS)
  }
  const found = new Map<string, boolean>()
  const globs: string[] = []
  const negative: string[] = []
  for (const raw of patterns) {
    const neg = raw.startsWith('!')
    const p = rootRelativePattern('.', neg ? raw.slice(1) : raw)
    if (p === undefined) {
      if (!neg) warn(`workspace member ${preview(raw)} is outside the workspace directory; deno requires members nested under it, so it is skipped`)
      continue
    }
    if (neg) {
      negative.push(p)
      continue
    }
    if (p === '.' || p.startsWith('!')) continue
    const simple = simplePattern(p)
    if (simple?.star) for (const dir of childDirs(root, simple.prefix)) found.set(dir, found.get(dir) ?? false)
    else if (simple) found.set(p, true)
    else globs.push(p)
  }
  if (globs.length > 0) {
    const { files, bad, reasons } = globSafely(globs.flatMap((g) => DENO_CONFIG_NAMES.map((n) => `${g}/${n}`)), { cwd: root, ignore: ['**/node_modules/**'] })
    for (const f of files) {
      const dir = posix.dirname(f)
      found.set(dir, found.get(dir) ?? false)
    }
    const reported = new Set<string>()
    for (const b of bad) {
      const g = b.slice(0, b.lastIndexOf('/'))
      if (reported.has(g)) continue
      reported.add(g)
      const why = reasons.get(b)
      warn(`workspace member pattern ${g.length > 120 ? `${g.slice(0, 117)}...` : g} is not a glob command-scout can read${why ? ` (${why})` : ''}, so it is skipped`)
    }
  }
  const exclusion = boundedMatcher(negative)
  for (const p of exclusion.refused) warn(`workspace exclusion !${preview(p)} is too complex to match, so it is ignored`)
  const excluded = negative.length ? exclusion.match : () => false
  const out = new Map<string, boolean>()
  const dirs = [...found.keys()].filter((d) => d !== '.' && !d.split('/').includes('node_modules') && !excluded(d))
  for (const d of dirs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out.set(d, found.get(d)!)
  return out
}

/** The member directories deno would take: plain paths as written, glob matches that hold a config. */
export function memberDirs(root: string, patterns: readonly string[], warn: (message: string) => void): string[] {
  return [...memberCandidates(root, patterns, warn)]
    .filter(([dir, literal]) => literal || DENO_CONFIG_NAMES.some((n) => configThere(join(root, dir, n))))
    .map(([dir]) => dir)
}
