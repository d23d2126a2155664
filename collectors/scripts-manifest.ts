/**
 * A package.json, read for what the scripts collector needs: name, scripts (with the line of each
 * key), workspaces and packageManager. Pure: text in, facts and problems out.
 */
import { kindOf, parseJsonText, properties, property } from './json-text.js'

export interface ScriptEntry {
  readonly name: string
  readonly command: string
  /** 1-based line of the script's key. */
  readonly line: number
}

/** A problem in the file; the caller adds the file's path. */
export interface ManifestProblem {
  readonly line?: number
  readonly message: string
  readonly severity: 'error' | 'warning'
}

export interface PackageManifest {
  /** False when the file is not valid JSON (then nothing else is filled). */
  readonly valid: boolean
  readonly name?: string
  readonly scripts: readonly ScriptEntry[]
  /** Workspace patterns (array form or `{ "packages": [...] }`); undefined when the field is absent. */
  readonly workspaces?: readonly string[]
  readonly packageManager?: string
  /** Line of the packageManager key. */
  readonly packageManagerLine?: number
  readonly problems: readonly ManifestProblem[]
}

export function parsePackageJson(text: string): PackageManifest {
  const json = parseJsonText(text, false)
  const problems: ManifestProblem[] = []
  if (json.root === undefined) {
    const e = json.error!
    problems.push({
      line: e.line,
      severity: 'error',
      message: `package.json is not valid JSON at line ${e.line}, column ${e.column}: ${e.message}; its scripts are skipped until the JSON is fixed (package managers can't read it either)`,
    })
    return { valid: false, scripts: [], problems }
  }
  const root = json.root
  if (root.type !== 'object') {
    problems.push({ line: 1, severity: 'error', message: `package.json must hold an object, not ${kindOf(root)}; its scripts are skipped` })
    return { valid: false, scripts: [], problems }
  }

  const nameNode = property(root, 'name')
  const name = nameNode?.type === 'string' && nameNode.value !== '' ? (nameNode.value as string) : undefined

  const scripts = new Map<string, ScriptEntry>()
  const scriptsNode = property(root, 'scripts')
  if (scriptsNode !== undefined && scriptsNode.type !== 'object') {
    problems.push({ line: json.lineAt(scriptsNode.offset), severity: 'error', message: `"scripts" must be an object of name → command strings, not ${kindOf(scriptsNode)}; no scripts are listed from this file` })
  } else if (scriptsNode !== undefined) {
    for (const [key, value, keyOffset] of properties(scriptsNode)) {
      const line = json.lineAt(keyOffset)
      if (value.type !== 'string') {
        problems.push({ line, severity: 'error', message: `script "${key}" must be a command string, not ${kindOf(value)}; it is skipped (npm run would fail on it)` })
        continue
      }
      const earlier = scripts.get(key)
      if (earlier !== undefined) {
        problems.push({ line, severity: 'warning', message: `script "${key}" is defined twice (lines ${earlier.line} and ${line}); package managers use the last one, so remove the other` })
      }
      // Like JSON.parse: the first key's place in the order, the last key's value.
      scripts.set(key, { name: key, command: value.value as string, line })
    }
  }

  let workspaces: string[] | undefined
  const wsNode = property(root, 'workspaces')
  if (wsNode !== undefined) {
    // Yarn's `{ "packages": [...], "nohoist": [...] }` form carries the same patterns.
    const list = wsNode.type === 'object' ? property(wsNode, 'packages') : wsNode
    if (list?.type === 'array') {
      workspaces = []
      for (const item of list.children ?? []) {
        if (item.type === 'string') workspaces.push(item.value as string)
        else problems.push({ line: json.lineAt(item.offset), severity: 'error', message: `workspace pattern must be a string, not ${kindOf(item)}; it is ignored` })
      }
    } else if (!(wsNode.type === 'object' && list === undefined)) {
      problems.push({ line: json.lineAt(wsNode.offset), severity: 'error', message: `"workspaces" must be an array of glob patterns or { "packages": [...] }, not ${kindOf(list ?? wsNode)}; workspace packages are not listed` })
    }
  }

  let packageManager: string | undefined
  const pmNode = property(root, 'packageManager')
  const packageManagerLine = pmNode !== undefined ? json.lineAt(pmNode.parent?.offset ?? pmNode.offset) : undefined
  if (pmNode !== undefined) {
    if (pmNode.type === 'string') packageManager = pmNode.value as string
    else problems.push({ line: json.lineAt(pmNode.offset), severity: 'warning', message: `"packageManager" must be a string like "pnpm@9.1.0", not ${kindOf(pmNode)}; it is ignored` })
  }

  return {
    valid: true,
    ...(name !== undefined ? { name } : {}),
    scripts: [...scripts.values()],
    ...(workspaces !== undefined ? { workspaces } : {}),
    ...(packageManager !== undefined ? { packageManager, packageManagerLine } : {}),
    problems,
  }
}
