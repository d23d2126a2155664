/**
 * The nx collector: with an nx.json at the root, the explicit targets of every Nx project as
 * `nx run <project>:<target>`. Projects are the directories holding a project.json (anywhere
 * under the root, never in node_modules) and the workspace packages (package.json `workspaces`
 * or pnpm-workspace.yaml) whose package.json has an `nx` section; a directory with both is one
 * project. Explicit targets are project.json `targets` and package.json `nx.targets`. Targets Nx
 * infers are not read: those of nx.json `plugins` are reported; the package.json scripts Nx also
 * runs as targets are the scripts collector's. A project's name is its project.json `name`, else
 * its package.json `name`, else its directory's name, as Nx names it.
 */
import { basename, join, posix } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../src/recipe.js'
import { readText } from './fs.js'
import { insideRoot } from './inside-root.js'
import { isRecord, kind, parseJsonText } from './json-text.js'
import { parsePnpmWorkspace } from './pnpm-workspace.js'
import { shellWord } from './shell-word.js'
import type { Collector, CollectContext, CollectorResult } from './types.js'
import { globSafely } from './workspace-patterns.js'
import { matchWorkspaceDirs, PNPM_WORKSPACE } from './workspaces.js'

const SOURCE = 'nx'

type Json = Record<string, unknown>

interface Project {
  dir: string
  name: string
  file: string
  targets: Array<{ name: string; def: Json; file: string; text: string }>
}

export function collectNx(root: string): CollectorResult {
  const diagnostics: Diagnostic[] = []
  const files: string[] = []
  const report = (file: string, message: string, line?: number, severity: 'error' | 'warning' = 'warning') =>
    diagnostics.push(createDiagnostic({ source: SOURCE, file, ...(line ? { line } : {}), message, severity }))
  /** Reads a JSON file: its value, or undefined after a diagnostic. */
  const readJson = (rel: string): { value: Json; text: string } | undefined => {
    const text = readText(join(root, rel))
    if (text === undefined) return undefined
    files.push(rel)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      // JSONC (comments, trailing commas): Nx reads nx.json and project.json that way too.
      const loose = parseJsonText(text, true)
      if (!loose.root || loose.missingComma) {
        const at = loose.error ?? { line: loose.missingComma!.line, column: loose.missingComma!.column, message: 'expected a comma' }
        report(rel, `${rel} is not valid JSON (line ${at.line}, column ${at.column}: ${at.message}); Nx refuses it too`, at.line, 'error')
        return undefined
      }
      value = nodeValue(loose.root)
    }
    if (!isRecord(value)) {
      report(rel, `${rel} must hold an object, not ${kind(value)}`, 1, 'error')
      return undefined
    }
    return { value, text }
  }

  const nxJson = readJson('nx.json')
  if (!nxJson) return { recipes: [], diagnostics, files }
  const plugins = Array.isArray(nxJson.value.plugins) ? nxJson.value.plugins : []
  for (const p of plugins) {
    const name = typeof p === 'string' ? p : isRecord(p) && typeof p.plugin === 'string' ? p.plugin : undefined
    if (name) report('nx.json', `plugin ${name} infers targets when Nx runs; those are not read (only targets written in project.json and package.json "nx" are listed)`, lineOfText(nxJson.text, JSON.stringify(name)))
  }
  if (readText(join(root, 'workspace.json')) !== undefined) report('workspace.json', 'workspace.json (Nx before 16) is not read; Nx 16 and later ignore it too: move each project to a project.json')

  const projects = new Map<string, Project>()
  const addTargets = (project: Project, targets: unknown, file: string, text: string, where: string) => {
    if (targets === undefined) return
    if (!isRecord(targets)) {
      report(file, `${where} must be an object of target names, not ${kind(targets)}; Nx refuses it`, lineOfText(text, '"targets"'), 'error')
      return
    }
    for (const [name, def] of Object.entries(targets)) {
      if (!isRecord(def)) {
        report(file, `target "${name}" must be an object (executor, command, options ...), not ${kind(def)}`, lineOfText(text, JSON.stringify(name)))
        continue
      }
      const existing = project.targets.findIndex((t) => t.name === name)
      // project.json wins over package.json "nx" for the same target name, as Nx merges them.
      if (existing !== -1) continue
      project.targets.push({ name, def, file, text })
    }
  }

  // project.json anywhere under the root.
  const { files: projectFiles } = globSafely(['**/project.json'], { cwd: root, ignore: ['**/node_modules/**'] })
  for (const rel of projectFiles.sort()) {
    const dir = posix.dirname(rel)
    if (!insideRoot(root, join(root, dir))) {
      report(rel, `${rel} resolves outside the scanned directory (by its real path); its project is not listed`)
      continue
    }
    const json = readJson(rel)
    if (!json) continue
    const pkg = readText(join(root, dir, 'package.json'))
    let pkgName: string | undefined
    try {
      const parsed = pkg !== undefined ? JSON.parse(pkg) : undefined
      if (isRecord(parsed) && typeof parsed.name === 'string') pkgName = parsed.name
    } catch {}
    const name = typeof json.value.name === 'string' && json.value.name !== '' ? json.value.name : pkgName ?? (dir === '.' ? basename(root) : basename(dir))
    const project: Project = { dir, name, file: rel, targets: [] }
    addTargets(project, json.value.targets, rel, json.text, `"targets" of ${rel}`)
    projects.set(dir, project)
  }

  // Workspace packages with an "nx" section.
  const rootPkg = readText(join(root, 'package.json'))
  let patterns: string[] = []
  const pnpmYaml = readText(join(root, PNPM_WORKSPACE))
  if (pnpmYaml !== undefined) patterns = parsePnpmWorkspace(pnpmYaml).patterns ?? []
  else if (rootPkg !== undefined) {
    try {
      const parsed = JSON.parse(rootPkg)
      const ws = isRecord(parsed) ? parsed.workspaces : undefined
      patterns = Array.isArray(ws) ? ws.filter((x): x is string => typeof x === 'string') : isRecord(ws) && Array.isArray(ws.packages) ? ws.packages.filter((x): x is string => typeof x === 'string') : []
    } catch {}
  }
  const { dirs } = matchWorkspaceDirs(root, '.', patterns, pnpmYaml !== undefined)
  for (const dir of dirs.sort()) {
    const rel = `${dir}/package.json`
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
    files.push(rel)
    const existing = projects.get(dir)
    const name = typeof pkg.nx.name === 'string' ? pkg.nx.name : typeof pkg.name === 'string' ? pkg.name : basename(dir)
    const project = existing ?? { dir, name, file: rel, targets: [] }
    addTargets(project, pkg.nx.targets, rel, text, `"nx.targets" of ${rel}`)
    if (!existing) projects.set(dir, project)
  }

  const byName = new Map<string, Project>()
  const recipes: Recipe[] = []
  for (const project of [...projects.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))) {
    const other = byName.get(project.name)
    if (other) {
      report(project.file, `projects ${other.dir} and ${project.dir} are both named "${project.name}"; Nx refuses duplicate project names: rename one`, undefined, 'error')
      continue
    }
    byName.set(project.name, project)
    for (const t of project.targets) {
      const options = isRecord(t.def.options) ? t.def.options : {}
      const command = typeof t.def.command === 'string' ? t.def.command : typeof options.command === 'string' ? options.command : Array.isArray(options.commands) ? options.commands.map((c) => (typeof c === 'string' ? c : isRecord(c) && typeof c.command === 'string' ? c.command : '')).filter(Boolean).join(' && ') : undefined
      const executor = typeof t.def.executor === 'string' ? t.def.executor : undefined
      const described = isRecord(t.def.metadata) && typeof t.def.metadata.description === 'string' ? t.def.metadata.description : undefined
      const dependsOn = Array.isArray(t.def.dependsOn) ? t.def.dependsOn.filter((d): d is string => typeof d === 'string') : []
      const qualified = `${project.name}:${t.name}`
      recipes.push(createRecipe({
        source: SOURCE,
        runner: 'nx',
        name: qualified,
        command: `nx run ${shellWord(qualified)}`,
        description: described ?? command ?? (executor ? `${executor} executor` : ''),
        file: t.file,
        ...(targetLine(t.text, t.name) ? { line: targetLine(t.text, t.name)! } : {}),
        prerequisites: dependsOn,
        scope: project.name,
      }))
    }
  }
  return { recipes, diagnostics, files }
}

/** A jsonc-parser tree's value (for a JSONC file JSON.parse refused). */
function nodeValue(node: import('./json-text.js').Node): unknown {
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
  configKey: 'nx',
  manifestNames: ['nx.json', 'project.json'],
  collect(ctx: CollectContext): CollectorResult {
    return collectNx(ctx.root)
  },
}
