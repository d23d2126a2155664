/**
 * The nx collector: with an nx.json at the root, the explicit targets of every Nx project as
 * `nx run <project>:<target>`. Projects are the directories holding a project.json (anywhere
 * under the root, never in node_modules) and the workspace packages (package.json `workspaces`
 * or pnpm-workspace.yaml) whose package.json has an `nx` section; a directory with both is one
 * project. Explicit targets are project.json `targets` and package.json `nx.targets`. Targets Nx
 * infers are not read: those of nx.json `plugins` are reported; the package.json scripts Nx also
 * runs as targets are the scripts collector's. A project's name is its project.json `name`, else
 * its package.json `name`, else its directory's name, as Nx names it. A project file that Nx's
 * workspace walk leaves out is no project: `.nxignore` and `.gitignore` files in the root and
 * below are applied as Nx's walker (the Rust `ignore` crate) applies them.
 */
import { basename, join, posix } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { readText } from '../shared/fs.js'
import { insideRoot } from '../shared/inside-root.js'
import { isRecord, kind, parseJsonText } from '../shared/json-text.js'
import { parsePnpmWorkspace } from '../shared/pnpm-workspace.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'
import { globSafely } from '../shared/workspace-patterns.js'
import { matchWorkspaceDirs, PNPM_WORKSPACE } from '../shared/workspaces.js'

const SOURCE = 'nx'

type Json = Record<string, unknown>

interface Project {
  dir: string
  name: string
  file: string
  targets: Array<{ name: string; def: Json; file: string; text: string }>
}

export function collectNx(root: string): CollectorResult {
  const nx = new NxWorkspace(root)
  const { diagnostics, files } = nx
  const nxJson = nx.readJson('nx.json')
  if (!nxJson) return { recipes: [], diagnostics, files }
  nx.notePlugins(nxJson)
  if (readText(join(root, 'workspace.json')) !== undefined) {
    nx.report('workspace.json', 'workspace.json (Nx before 16) is not read; Nx 16 and later ignore it too: move each project to a project.json')
  }
  const ignores = nx.projectJsonProjects()
  nx.packageProjects(ignores)
  return { recipes: nx.recipes(), diagnostics, files }
}

/**
 * The projects of one workspace, gathered from project.json files and workspace packages (in that
 * order: project.json wins), then listed as recipes; files read and diagnostics gather along the way.
 */
class NxWorkspace {
  readonly diagnostics: Diagnostic[] = []
  readonly files: string[] = []
  private readonly root: string
  private readonly projects = new Map<string, Project>()

  constructor(root: string) {
    this.root = root
  }

  report(file: string, message: string, line?: number, severity: 'error' | 'warning' = 'warning'): void {
    this.diagnostics.push(createDiagnostic({ source: SOURCE, file, ...(line ? { line } : {}), message, severity }))
  }

  /** Reads a JSON file: its value, or undefined after a diagnostic. */
  readJson(rel: string): { value: Json; text: string } | undefined {
    const text = readText(join(this.root, rel))
    if (text === undefined) return undefined
    this.files.push(rel)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      // JSONC (comments, trailing commas): Nx reads nx.json and project.json that way too.
      const loose = parseJsonText(text, true)
      if (!loose.root || loose.missingComma) {
        const at = loose.error ?? { line: loose.missingComma!.line, column: loose.missingComma!.column, message: 'expected a comma' }
        this.report(rel, `${rel} is not valid JSON (line ${at.line}, column ${at.column}: ${at.message}); Nx refuses it too`, at.line, 'error')
        return undefined
      }
      value = nodeValue(loose.root)
    }
    if (!isRecord(value)) {
      this.report(rel, `${rel} must hold an object, not ${kind(value)}`, 1, 'error')
      return undefined
    }
    return { value, text }
  }

  /** nx.json `plugins` infer targets when Nx runs: each is noted. */
  notePlugins(nxJson: { value: Json; text: string }): void {
    const plugins = Array.isArray(nxJson.value.plugins) ? nxJson.value.plugins : []
    for (const p of plugins) {
      const name = typeof p === 'string' ? p : isRecord(p) && typeof p.plugin === 'string' ? p.plugin : undefined
      if (!name) continue
      const message = `plugin ${name} infers targets when Nx runs; those are not read (only targets written in project.json and package.json "nx" are listed)`
      this.report('nx.json', message, lineOfText(nxJson.text, JSON.stringify(name)))
    }
  }

  private addTargets(project: Project, targets: unknown, file: string, text: string, where: string): void {
    if (targets === undefined) return
    if (!isRecord(targets)) {
      this.report(file, `${where} must be an object of target names, not ${kind(targets)}; Nx refuses it`, lineOfText(text, '"targets"'), 'error')
      return
    }
    for (const [name, def] of Object.entries(targets)) {
      if (!isRecord(def)) {
        this.report(file, `target "${name}" must be an object (executor, command, options ...), not ${kind(def)}`, lineOfText(text, JSON.stringify(name)))
        continue
      }
      const existing = project.targets.findIndex((t) => t.name === name)
      // project.json wins over package.json "nx" for the same target name, as Nx merges them.
      if (existing !== -1) continue
      project.targets.push({ name, def, file, text })
    }
  }

  /** Every project.json Nx's walk takes; returns the ignore files' rules, for the workspace packages too. */
  projectJsonProjects(): NxIgnores {
    const { root, files } = this
    // project.json anywhere under the root, and the ignore files beside them (found by the same
    // crawl, so that no directory is asked for an ignore file it doesn't have).
    const { files: found } = globSafely(['**/project.json', '**/.nxignore', '**/.gitignore'], { cwd: root, ignore: ['**/node_modules/**'] })
    const ignoreFiles = new Set(found.filter((f) => f.endsWith('/.nxignore') || f.endsWith('/.gitignore') || f === '.nxignore' || f === '.gitignore'))
    const projectFiles = found.filter((f) => !ignoreFiles.has(f))
    const readIgnoreFile = (rel: string): string | undefined => {
      if (!ignoreFiles.has(rel)) return undefined
      const text = readText(join(root, rel))
      if (text !== undefined) files.push(rel)
      return text
    }
    const kinds = (['nx', 'git'] as const).filter((kind) => [...ignoreFiles].some((f) => f.endsWith(kind === 'nx' ? '.nxignore' : '.gitignore')))
    const ignores = new NxIgnores(readIgnoreFile, kinds, new Set([...ignoreFiles].map((f) => (f.includes('/') ? posix.dirname(f) : ''))))
    for (const rel of projectFiles.sort()) {
      if (ignores.ignored(rel)) continue
      this.projectJson(rel)
    }
    return ignores
  }

  /** One project.json: the project in its directory, named as Nx names it. */
  private projectJson(rel: string): void {
    const root = this.root
    const dir = posix.dirname(rel)
    if (!insideRoot(root, join(root, dir))) {
      this.report(rel, `${rel} resolves outside the scanned directory (by its real path); its project is not listed`)
      return
    }
    const json = this.readJson(rel)
    if (!json) return
    const pkg = readText(join(root, dir, 'package.json'))
    let pkgName: string | undefined
    try {
      const parsed = pkg !== undefined ? JSON.parse(pkg) : undefined
      if (isRecord(parsed) && typeof parsed.name === 'string') pkgName = parsed.name
    } catch {}
    const name = typeof json.value.name === 'string' && json.value.name !== '' ? json.value.name : pkgName ?? (dir === '.' ? basename(root) : basename(dir))
    const project: Project = { dir, name, file: rel, targets: [] }
    this.addTargets(project, json.value.targets, rel, json.text, `"targets" of ${rel}`)
    this.projects.set(dir, project)
  }

  /** Workspace packages with an "nx" section. */
  packageProjects(ignores: NxIgnores): void {
    const root = this.root
    const { dirs } = matchWorkspaceDirs(root, '.', ...workspacePatterns(root))
    for (const dir of dirs.sort()) {
      const rel = `${dir}/package.json`
      if (ignores.ignored(rel)) continue
      const text = readText(join(root, rel))
      if (text === undefined) continue
      let pkg: unknown
      try {
        pkg = JSON.parse(text)
      } catch {
        continue // the scripts collector reports a broken package.json
      }
      if (!isRecord(pkg) || !isRecord(pkg.nx)) continue
      if (!insideRoot(root, join(root, dir))) continue
      this.files.push(rel)
      const existing = this.projects.get(dir)
      const name = typeof pkg.nx.name === 'string' ? pkg.nx.name : typeof pkg.name === 'string' ? pkg.name : basename(dir)
      const project = existing ?? { dir, name, file: rel, targets: [] }
      this.addTargets(project, pkg.nx.targets, rel, text, `"nx.targets" of ${rel}`)
      if (!existing) this.projects.set(dir, project)
    }
  }

  /** A recipe per target, projects in directory order; a second project of the same name is refused. */
  recipes(): Recipe[] {
    const byName = new Map<string, Project>()
    const recipes: Recipe[] = []
    for (const project of [...this.projects.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))) {
      const other = byName.get(project.name)
      if (other) {
        const message = `projects ${other.dir} and ${project.dir} are both named "${project.name}"; Nx refuses duplicate project names: rename one`
        this.report(project.file, message, undefined, 'error')
        continue
      }
      byName.set(project.name, project)
      for (const t of project.targets) recipes.push(targetRecipe(project, t))
    }
    return recipes
  }
}

/** The workspace patterns (pnpm-workspace.yaml, else package.json `workspaces`) and whether they are pnpm's. */
function workspacePatterns(root: string): [string[], boolean] {
  const rootPkg = readText(join(root, 'package.json'))
  let patterns: string[] = []
  const pnpmYaml = readText(join(root, PNPM_WORKSPACE))
  if (pnpmYaml !== undefined) patterns = parsePnpmWorkspace(pnpmYaml).patterns ?? []
  else if (rootPkg !== undefined) {
    try {
      const parsed = JSON.parse(rootPkg)
      const ws = isRecord(parsed) ? parsed.workspaces : undefined
      const strings = (list: unknown[]) => list.filter((x): x is string => typeof x === 'string')
      patterns = Array.isArray(ws) ? strings(ws) : isRecord(ws) && Array.isArray(ws.packages) ? strings(ws.packages) : []
    } catch {}
  }
  return [patterns, pnpmYaml !== undefined]
}

/** One target as `nx run <project>:<target>`, described by its metadata, else its command, else its executor. */
function targetRecipe(project: Project, t: Project['targets'][number]): Recipe {
  const options = isRecord(t.def.options) ? t.def.options : {}
  const commandOf = (c: unknown) => (typeof c === 'string' ? c : isRecord(c) && typeof c.command === 'string' ? c.command : '')
  const command = typeof t.def.command === 'string' ? t.def.command
    : typeof options.command === 'string' ? options.command
      : Array.isArray(options.commands) ? options.commands.map(commandOf).filter(Boolean).join(' && ') : undefined
  const executor = typeof t.def.executor === 'string' ? t.def.executor : undefined
  const described = isRecord(t.def.metadata) && typeof t.def.metadata.description === 'string' ? t.def.metadata.description : undefined
  const dependsOn = Array.isArray(t.def.dependsOn) ? t.def.dependsOn.filter((d): d is string => typeof d === 'string') : []
  const qualified = `${project.name}:${t.name}`
  return createRecipe({
    source: SOURCE,
    runner: 'nx',
    name: qualified,
    command: `nx run ${shellWord(qualified)}`,
    description: described ?? command ?? (executor ? `${executor} executor` : ''),
    file: t.file,
    ...(targetLine(t.text, t.name) ? { line: targetLine(t.text, t.name)! } : {}),
    prerequisites: dependsOn,
    scope: project.name,
  })
}

/** One rule of an ignore file: a path pattern, `!` to unignore, a trailing `/` for directories only. */
interface IgnoreRule {
  /** How to match: a name at any depth, a name ending (`*.log`), one exact path, or the tokens (against the last name only when `base`). */
  kind: 'name' | 'suffix' | 'prefix' | 'exact' | 'glob'
  text: string
  tokens: Token[]
  base: boolean
  negative: boolean
  dirOnly: boolean
}

/**
 * A compiled glob: a character, `?` (one character but `/`), `*` (any run without `/`), a bracket
 * expression, `**` as a whole segment before a `/` (any number of directories, none too), or a
 * trailing `**` (anything).
 */
type Token =
  | { t: 'char'; c: string }
  | { t: 'one' }
  | { t: 'star' }
  | { t: 'class'; negated: boolean; ranges: Array<[number, number]> }
  | { t: 'dirs' }
  | { t: 'rest' }

/** Longer rules are dropped: no real ignore file has one, and a match costs a pattern's length times a path's. */
const MAX_RULE_LENGTH = 1024

/**
 * The rules of a .gitignore-format text, as git's wildmatch reads them (and the Rust `ignore`
 * crate Nx walks with): `#` comments and blank lines skipped, trailing spaces dropped unless
 * escaped, `\` escapes, `!` negates, a trailing `/` means directories only, a pattern with a `/`
 * before its end is anchored to the file's directory (a leading `/` dropped) and any other matches
 * a name at any depth; `*` and `?` never match `/`, `[...]` is a bracket expression (`!` or `^`
 * negates, ranges, `[:alpha:]` classes), `**` alone in a segment spans directories, and `/**` at
 * the end matches everything inside (not the directory itself).
 * By hand rather than with the `ignore` package: Nx's walker asks about each entry itself (its
 * parents were asked when the walk reached them), where that package also decides by a path's
 * parents, so a `!rule` of a higher-ranked file could not bring a directory back. Matching is a
 * memoized walk over the tokens, so no crafted rule can make it backtrack without bound.
 */
export function ignoreRules(text: string): RuleSet {
  const rules: IgnoreRule[] = []
  for (let line of text.split('\n')) {
    if (line.endsWith('\r')) line = line.slice(0, -1)
    while (line.endsWith(' ') && !line.endsWith('\\ ')) line = line.slice(0, -1)
    if (line === '' || line.startsWith('#') || line.length > MAX_RULE_LENGTH) continue
    let negative = false
    if (line.startsWith('!')) (negative = true), (line = line.slice(1))
    let dirOnly = false
    if (line.endsWith('/') && !line.endsWith('\\/')) (dirOnly = true), (line = line.slice(0, -1))
    if (line === '') continue
    const anchored = line.includes('/')
    if (line.startsWith('/')) line = line.slice(1)
    // Most rules are a plain name (`node_modules`, `dist`) or `*.ext`: told by a string comparison.
    // A rule without a `/` is matched against the last name of a path, as git does.
    const tokens = globTokens(line)
    if (!tokens) continue
    const literal = tokens.every((t) => t.t === 'char') ? tokens.map((t) => (t as { c: string }).c).join('') : undefined
    const chars = (ts: Token[]) => (ts.every((t) => t.t === 'char') ? ts.map((t) => (t as { c: string }).c).join('') : undefined)
    const suffix = !anchored && tokens[0]?.t === 'star' ? chars(tokens.slice(1)) : undefined
    const prefix = !anchored && tokens[tokens.length - 1]?.t === 'star' ? chars(tokens.slice(0, -1)) : undefined
    const kind = literal !== undefined ? (anchored ? 'exact' : 'name') : suffix !== undefined ? 'suffix' : prefix !== undefined ? 'prefix' : 'glob'
    rules.push({ kind, text: literal ?? suffix ?? prefix ?? '', tokens, base: !anchored, negative, dirOnly })
  }
  // Plain-name rules by name, with the index of the last one (any entry, and directories only), so
  // that a path is compared with the other rules only above the last name rule that matches it.
  const names = new Map<string, { any: number; dir: number }>()
  const paths = new Map<string, { any: number; dir: number }>()
  const others: number[] = []
  rules.forEach((r, i) => {
    const index = r.kind === 'name' ? names : r.kind === 'exact' ? paths : undefined
    if (!index) return void others.push(i)
    const at = index.get(r.text) ?? { any: -1, dir: -1 }
    if (r.dirOnly) at.dir = i
    else at.any = i
    index.set(r.text, at)
  })
  return { rules, names, paths, others }
}

/** One ignore file's rules, indexed for matching (see ignoreRules). */
export interface RuleSet {
  rules: IgnoreRule[]
  /** The plain-name rules and the exact-path rules by their text: the last one's index (of any kind of entry, and of directories only). */
  names: Map<string, { any: number; dir: number }>
  paths: Map<string, { any: number; dir: number }>
  /** Indexes of the other rules, in order. */
  others: number[]
}

/** A glob's tokens; undefined for one no path can match (a bracket range given backwards, which the crate refuses too). */
function globTokens(glob: string): Token[] | undefined {
  const out: Token[] = []
  const segments = glob.split('/')
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!
    const last = k === segments.length - 1
    if (seg === '**') {
      if (last) out.push({ t: 'rest' })
      else if (out[out.length - 1]?.t !== 'dirs') out.push({ t: 'dirs' }) // `**/**/` is `**/`
      continue
    }
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i]!
      if (c === '\\') {
        if (++i < seg.length) out.push({ t: 'char', c: seg[i]! })
      } else if (c === '*') {
        while (seg[i + 1] === '*') i++
        out.push({ t: 'star' })
      } else if (c === '?') out.push({ t: 'one' })
      else if (c === '[' && bracketEnd(seg, i) !== -1) {
        const end = bracketEnd(seg, i)
        const cls = bracketClass(seg.slice(i + 1, end))
        if (!cls) return undefined
        out.push(cls)
        i = end
      } else out.push({ t: 'char', c })
    }
    if (!last) out.push({ t: 'char', c: '/' })
  }
  return out
}

const POSIX_CLASSES: Record<string, Array<[number, number]>> = {
  alnum: [[48, 57], [65, 90], [97, 122]], alpha: [[65, 90], [97, 122]], blank: [[32, 32], [9, 9]], cntrl: [[0, 31], [127, 127]], digit: [[48, 57]],
  graph: [[33, 126]], lower: [[97, 122]], print: [[32, 126]], punct: [[33, 47], [58, 64], [91, 96], [123, 126]], space: [[9, 13], [32, 32]],
  upper: [[65, 90]], xdigit: [[48, 57], [65, 70], [97, 102]],
}

/** Where a bracket expression opened at `open` closes (a `]` first in it is literal), or -1. */
function bracketEnd(seg: string, open: number): number {
  let i = open + 1
  if (seg[i] === '!' || seg[i] === '^') i++
  if (seg[i] === ']') i++
  for (; i < seg.length; i++) {
    if (seg[i] === '\\') i++
    else if (seg[i] === '[' && seg[i + 1] === ':') {
      const close = seg.indexOf(':]', i + 2)
      if (close !== -1) i = close + 1
    } else if (seg[i] === ']') return i
  }
  return -1
}

/** A bracket expression's inside (`!`/`^` first negates; escapes, `a-z` ranges, `[:class:]` names) as code-point ranges. */
function bracketClass(inner: string): Token | undefined {
  const negated = inner.startsWith('!') || inner.startsWith('^')
  if (negated) inner = inner.slice(1)
  const chars = [...inner]
  const ranges: Array<[number, number]> = []
  for (let j = 0; j < chars.length; j++) {
    let c = chars[j]!
    if (c === '[' && chars[j + 1] === ':') {
      const rest = chars.slice(j + 2).join('')
      const close = rest.indexOf(':]')
      const cls = close === -1 ? undefined : POSIX_CLASSES[rest.slice(0, close)]
      if (cls) {
        ranges.push(...cls)
        j += 2 + [...rest.slice(0, close)].length + 1
        continue
      }
    }
    if (c === '\\' && j + 1 < chars.length) c = chars[++j]!
    const from = c.codePointAt(0)!
    if (chars[j + 1] === '-' && j + 2 < chars.length) {
      let to = chars[j + 2]!
      j += 2
      if (to === '\\' && j + 1 < chars.length) to = chars[++j]!
      const end = to.codePointAt(0)!
      if (end < from) return undefined
      ranges.push([from, end])
    } else ranges.push([from, from])
  }
  return { t: 'class', negated, ranges }
}

/** Whether `tokens` match all of `path`: a walk over (token, position) pairs, each decided once. */
function globMatch(tokens: Token[], path: string): boolean {
  // A first or last character that can't match settles it before any walk.
  const first = tokens[0]
  const last = tokens[tokens.length - 1]
  if (first?.t === 'char' && path[0] !== first.c) return false
  if (last?.t === 'char' && path[path.length - 1] !== last.c) return false
  const width = path.length + 1
  const memo = new Uint8Array((tokens.length + 1) * width) // 0 unknown, 1 no, 2 yes
  const at = (ti: number, pi: number): boolean => {
    const key = ti * width + pi
    const known = memo[key]!
    if (known) return known === 2
    let ok: boolean
    const tok = tokens[ti]
    if (!tok) ok = pi === path.length
    else if (tok.t === 'rest') ok = true
    else if (tok.t === 'star') ok = at(ti + 1, pi) || (pi < path.length && path[pi] !== '/' && at(ti, pi + 1))
    else if (tok.t === 'dirs') {
      const slash = path.indexOf('/', pi)
      ok = at(ti + 1, pi) || (slash !== -1 && at(ti, slash + 1))
    } else if (pi >= path.length) ok = false
    else if (tok.t === 'char') ok = path[pi] === tok.c && at(ti + 1, pi + 1)
    else if (path[pi] === '/') ok = false
    else if (tok.t === 'one') ok = at(ti + 1, pi + 1)
    else {
      const code = path.charCodeAt(pi)
      ok = tok.ranges.some(([a, b]) => code >= a && code <= b) !== tok.negated && at(ti + 1, pi + 1)
    }
    memo[key] = ok ? 2 : 1
    return ok
  }
  return at(0, 0)
}

/** The last rule of a file that matches `path` (a directory when `dir`) decides: ignored, unignored, or undefined for none. */
function matchRules(set: RuleSet, path: string, dir: boolean): boolean | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const last = (at: { any: number; dir: number } | undefined) => (at ? Math.max(at.any, dir ? at.dir : -1) : -1)
  const indexed = Math.max(last(set.names.get(name)), last(set.paths.get(path)))
  for (let k = set.others.length - 1; k >= 0 && set.others[k]! > indexed; k--) {
    const r = set.rules[set.others[k]!]!
    if (r.dirOnly && !dir) continue
    const hit = r.kind === 'suffix' ? name.endsWith(r.text) : r.kind === 'prefix' ? name.startsWith(r.text) : globMatch(r.tokens, r.base ? name : path)
    if (hit) return !r.negative
  }
  return indexed === -1 ? undefined : !set.rules[indexed]!.negative
}

/**
 * Which files Nx's workspace walk leaves out. Nx walks with the Rust `ignore` crate, `.nxignore`
 * as a custom ignore file and `.gitignore` honoured without a git repository: for each entry the
 * walk reaches, a `.nxignore` rule outranks a `.gitignore` one, and for each kind the deepest
 * directory whose file has a matching rule decides (its last matching rule: `!rule` unignores); an
 * ignored directory is not entered, so nothing under it is seen. Ignore files above the root,
 * `.git/info/exclude` and git's global excludes file are not read (see the README).
 */
class NxIgnores {
  private readonly byDir = new Map<string, { nx?: RuleSet; git?: RuleSet } | null>()

  /** No ignore file anywhere: nothing to ask. */
  private readonly none: boolean

  /** `read` gives an ignore file's text (undefined when there is none); `kinds` are the kinds that exist somewhere. */
  constructor(
    private readonly read: (rel: string) => string | undefined,
    private readonly kinds: ReadonlyArray<'nx' | 'git'>,
    private readonly dirsWithFiles: ReadonlySet<string>,
  ) {
    this.none = kinds.length === 0
  }

  private at(dir: string): { nx?: RuleSet; git?: RuleSet } | null {
    let m = this.byDir.get(dir)
    if (m !== undefined) return m
    const file = (name: string) => this.read(dir === '' ? name : `${dir}/${name}`)
    const nx = file('.nxignore')
    const git = file('.gitignore')
    m = nx === undefined && git === undefined
      ? null
      : { ...(nx !== undefined ? { nx: ignoreRules(nx) } : {}), ...(git !== undefined ? { git: ignoreRules(git) } : {}) }
    this.byDir.set(dir, m)
    return m
  }

  /** The walker's verdict on one entry (a directory when `dir`), its parents already let through. */
  private verdict(parts: string[], dir: boolean): boolean {
    // The directories above the entry that hold an ignore file, deepest first, with the entry's path below each.
    const levels: Array<{ at: string; rel: string }> = []
    let prefix = ''
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) prefix = i === 1 ? parts[0]! : `${prefix}/${parts[i - 1]}`
      if (this.dirsWithFiles.has(prefix)) levels.unshift({ at: prefix, rel: i === 0 ? parts.join('/') : parts.slice(i).join('/') })
    }
    for (const kind of this.kinds) {
      for (const { at, rel } of levels) {
        const rules = this.at(at)?.[kind]
        if (!rules) continue
        const decided = matchRules(rules, rel, dir)
        if (decided !== undefined) return decided
      }
    }
    return false
  }

  /** Directories already judged (with all above them): projects share their parents. */
  private readonly dirs = new Map<string, boolean>()

  /** Whether the root-relative POSIX file `rel` is out of Nx's workspace: it, or a directory above it, is ignored. */
  ignored(rel: string): boolean {
    if (this.none) return false
    const parts = rel.split('/')
    return this.dirIgnored(parts.slice(0, -1)) || this.verdict(parts, false)
  }

  /** Whether the walk leaves out the directory `parts` ('' is the root, never left out), or one above it. */
  private dirIgnored(parts: string[]): boolean {
    if (parts.length === 0) return false
    const key = parts.join('/')
    let out = this.dirs.get(key)
    if (out === undefined) this.dirs.set(key, (out = this.dirIgnored(parts.slice(0, -1)) || this.verdict(parts, true)))
    return out
  }
}

/** A jsonc-parser tree's value (for a JSONC file JSON.parse refused). */
function nodeValue(node: import('../shared/json-text.js').Node): unknown {
  switch (node.type) {
    case 'object': return Object.fromEntries((node.children ?? []).map((p) => [p.children?.[0]?.value, p.children?.[1] ? nodeValue(p.children[1]) : null]))
    case 'array': return (node.children ?? []).map(nodeValue)
    default: return node.value
  }
}

/** The line of a target's key: the first `"name"` after `"targets"`. */
function targetLine(text: string, name: string): number | undefined {
  const from = text.indexOf('"targets"')
  return lineOfText(text, JSON.stringify(name), from === -1 ? 0 : from)
}

function lineOfText(text: string, needle: string, from = 0): number | undefined {
  const i = text.indexOf(needle, from)
  if (i === -1) return undefined
  let line = 1
  for (let k = text.indexOf('\n'); k !== -1 && k < i; k = text.indexOf('\n', k + 1)) line++
  return line
}

export const nxCollector: Collector = {
  source: SOURCE,
  manifestNames: ['nx.json', 'project.json', '.nxignore', '.gitignore'],
  collect(ctx: CollectContext): CollectorResult {
    return collectNx(ctx.root)
  },
}
