/**
 * Loading a library: finds `<dir>/<category>/<slug>.yaml` files, parses them with positions, decodes and
 * checks each one, then applies the rules across files (unique ids, related ids). Never throws on bad
 * files: every problem becomes a ValidationIssue, and a file with an error is not served.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import { decodeRecipe, type Path, type Report } from './decode.js'
import { checkRecipe } from './rules.js'
import type { CuratedRecipe, Library, RuleCode, ValidationIssue } from './schema.js'
import { SHIPPED_RECIPES_DIR } from './shipped.js'

export { SHIPPED_RECIPES_DIR }

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Where each loaded recipe's nodes are, for rules that run after loading. */
export type Locate = (path: Path, at?: 'key' | 'value', offset?: number) => { line: number; column: number }

export interface LoadedFile {
  file: string
  /** The id the path implies, when the path follows the layout. */
  expectedId?: string
  folder?: string
  text?: string
  recipe?: CuratedRecipe
  locate: Locate
  issues: ValidationIssue[]
}

/** Lists the YAML files of one library directory, reporting files that break the layout. */
function listFiles(dir: string, issues: ValidationIssue[]): string[] {
  const files: string[] = []
  const isYaml = (name: string) => /\.ya?ml$/i.test(name)
  let entries: string[]
  try {
    entries = readdirSync(dir).sort()
  } catch (error) {
    issues.push({ code: 'E_DIR_UNREADABLE', severity: 'error', file: dir, message: `library directory \`${dir}\` cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass a directory that holds \`<category>/<slug>.yaml\` files` })
    return files
  }
  const isDir = (path: string) => {
    try {
      return statSync(path).isDirectory()
    } catch {
      return false // a dangling link: as a file, reading it reports the problem
    }
  }
  for (const name of entries) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    if (!isDir(path)) {
      if (isYaml(name)) issues.push(layout(path, `recipe file \`${path}\` is not inside a category folder; move it to \`${join(dir, '<category>', name)}\``))
      continue
    }
    const walk = (sub: string, depth: number) => {
      let inners: string[]
      try {
        inners = readdirSync(sub).sort()
      } catch (error) {
        issues.push({ code: 'E_DIR_UNREADABLE', severity: 'error', file: sub, message: `folder \`${sub}\` cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); fix its permissions or remove it` })
        return
      }
      for (const inner of inners) {
        if (inner.startsWith('.')) continue
        const p = join(sub, inner)
        if (isDir(p)) walk(p, depth + 1)
        else if (isYaml(inner)) {
          if (depth > 0) issues.push(layout(p, `recipe file \`${p}\` is nested too deep; move it to \`${join(dir, name, inner)}\``))
          else files.push(p)
        }
      }
    }
    walk(path, 0)
  }
  return files
}

/** The recipe files of a library directory (problems with the layout are left to the validator). */
export function recipeFiles(dir: string): string[] {
  return listFiles(dir, [])
}

function layout(file: string, message: string): ValidationIssue {
  return { code: 'E_FILE_LAYOUT', severity: 'error', file, message }
}

function locator(doc: Document | undefined, lines: LineCounter): Locate {
  return (path, at = 'value', offset = 0) => {
    let node: unknown = doc?.contents
    let found: Node | undefined = node as Node | undefined
    let keyNode: Node | undefined
    let complete = true
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg)
        if (!pair) { complete = false; break }
        keyNode = pair.key as Node
        node = pair.value
        found = (pair.value as Node | null) ?? keyNode
      } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
        keyNode = undefined
        node = node.items[seg]
        found = node as Node
      } else { complete = false; break }
    }
    const target = at === 'key' && complete && keyNode ? keyNode : found
    let start = target?.range?.[0] ?? 0
    // Inside a plain one-line scalar, source and value agree character for character.
    if (offset && complete && isScalar(target) && target.type === 'PLAIN' && typeof target.value === 'string' && !target.value.includes('\n')) start += offset
    const pos = lines.linePos(start)
    return { line: pos.line, column: pos.col }
  }
}

/** Reads, parses, decodes and checks one file. `dir` is the library directory it belongs to. */
export function loadFile(file: string, dir: string): LoadedFile {
  const issues: ValidationIssue[] = []
  const lines = new LineCounter()
  const rel = relative(dir, file).split(sep)
  const loaded: LoadedFile = { file, issues, locate: locator(undefined, lines) }
  if (rel.length === 2) {
    const [folder, name] = rel as [string, string]
    const slug = name.replace(/\.ya?ml$/i, '')
    loaded.folder = folder
    if (!name.endsWith('.yaml')) issues.push(layout(file, `recipe file \`${file}\` ends in \`${name.slice(slug.length)}\`; rename it to \`${slug}.yaml\``))
    else if (!SLUG.test(slug)) issues.push(layout(file, `file name \`${name}\` is not a lowercase kebab-case slug; rename it, e.g. \`${slug.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.yaml\``))
    else loaded.expectedId = `${folder}.${slug.replace(/-/g, '_')}`
  }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    issues.push({ code: 'E_YAML_SYNTAX', severity: 'error', file, message: `recipe file \`${file}\` cannot be read (${(error as Error).message})` })
    return loaded
  }
  loaded.text = text
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  loaded.locate = locator(doc, lines)
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const pos = lines.linePos(error.pos[0])
      issues.push({ code: 'E_YAML_SYNTAX', severity: 'error', file, line: pos.line, column: pos.col, message: `recipe file is not valid YAML: ${error.message.split('\n')[0]}; fix the syntax at this position` })
    }
    return loaded
  }
  const report: Report = (code, path, message, options) => {
    const pos = loaded.locate(path, options?.at, options?.offset)
    issues.push({ code, severity: options?.severity ?? 'error', file, line: pos.line, column: pos.column, message })
  }
  let raw: unknown
  try {
    raw = doc.toJS({ maxAliasCount: 100 })
  } catch (error) {
    // yaml refuses documents whose aliases expand without bound ("billion laughs").
    issues.push({ code: 'E_YAML_SYNTAX', severity: 'error', file, line: 1, column: 1, message: `recipe file cannot be expanded: ${(error as Error).message}; write the values out instead of through aliases` })
    return loaded
  }
  const recipe = decodeRecipe(raw, file, dir, report)
  if (!recipe) return loaded
  checkRecipe(recipe, report)
  if (loaded.expectedId) {
    if (loaded.folder !== recipe.category) {
      report('E_CATEGORY_MISMATCH', ['category'], `recipe \`${recipe.id}\` has category \`${recipe.category}\` but sits in folder \`${loaded.folder}\`; move the file to \`${recipe.category}/\` or fix the category`)
    } else if (recipe.id !== loaded.expectedId && !issues.some((i) => i.code === 'E_ID_FORMAT')) {
      report('E_ID_PATH_MISMATCH', ['id'], `id \`${recipe.id}\` does not match the file path, which implies \`${loaded.expectedId}\`; set \`id: ${loaded.expectedId}\` or rename the file`)
    }
  }
  loaded.recipe = recipe
  return loaded
}

/**
 * Loads every recipe of the given library directories (default: the shipped library). On an id clash
 * the first directory wins (the shipped library, when it is listed first), and the later file gets an
 * E_DUPLICATE_ID error.
 */
export function loadLibrary(dirs: string[] = [SHIPPED_RECIPES_DIR]): Library {
  const { loaded, issues } = loadFiles(dirs)
  return assemble(loaded, issues)
}

export function loadFiles(dirs: string[]): { loaded: LoadedFile[]; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = []
  const loaded: LoadedFile[] = []
  for (const dir of dirs) {
    for (const file of listFiles(dir, issues)) loaded.push(loadFile(file, dir))
  }
  return { loaded, issues }
}

/** Applies the rules across files and builds the Library. */
export function assemble(loaded: LoadedFile[], listingIssues: ValidationIssue[]): Library {
  const issues = [...listingIssues]
  const owners = new Map<string, LoadedFile>()
  for (const f of loaded) {
    const r = f.recipe
    if (!r) continue
    const first = owners.get(r.id)
    if (first) {
      const pos = f.locate(['id'])
      f.issues.push({ code: 'E_DUPLICATE_ID', severity: 'error', file: f.file, ...pos, message: `id \`${r.id}\` is already used by \`${first.file}\`; the first one is kept — rename this recipe (file and id) or remove one` })
    } else owners.set(r.id, f)
  }
  for (const f of loaded) {
    f.recipe?.related.forEach((rel, i) => {
      if (rel !== '' && rel !== f.recipe!.id && !owners.has(rel)) {
        const pos = f.locate(['related', i])
        f.issues.push({ code: 'E_RELATED_UNKNOWN', severity: 'error', file: f.file, ...pos, message: `related id \`${rel}\` of recipe \`${f.recipe!.id}\` names no recipe in the library; fix the id or remove it` })
      }
    })
  }
  const recipes: CuratedRecipe[] = []
  for (const f of loaded) {
    issues.push(...f.issues)
    if (f.recipe && !f.issues.some((i) => i.severity === 'error')) recipes.push(f.recipe)
  }
  return { recipes, byId: new Map(recipes.map((r) => [r.id, r])), issues }
}

export type { RuleCode }
