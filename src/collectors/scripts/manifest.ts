/**
 * A package.json, read for what the scripts collector needs: name, scripts (with the line of each
 * key), workspaces and packageManager. Pure: text in, facts and problems out. Values come from
 * JSON.parse, the grammar every package manager reads package.json with; positions come from the
 * keys' offsets, and a syntax error's position from jsonc-parser.
 */
import { isRecord, kind, locateKeys, own, parseJsonText, positionLocator, type KeyAt } from '../shared/json-text.js'

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


function syntaxProblem(text: string): ManifestProblem {
  const e = parseJsonText(text, false).error ?? { line: 1, column: 1, message: 'syntax error' }
  return {
    line: e.line,
    severity: 'error',
    message: `package.json is not valid JSON at line ${e.line}, column ${e.column}: ${e.message}; its scripts are skipped until the JSON is fixed (package managers can't read it either)`,
  }
}

export function parsePackageJson(text: string): PackageManifest {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch {
    return { valid: false, scripts: [], problems: [syntaxProblem(text)] }
  }
  if (!isRecord(root)) {
    return { valid: false, scripts: [], problems: [{ line: 1, severity: 'error', message: `package.json must hold an object, not ${kind(root)}; its scripts are skipped` }] }
  }
  const problems: ManifestProblem[] = []
  const keys = locateKeys(text, 'scripts')
  const at = positionLocator(text)
  const lineOf = (key: KeyAt | undefined) => (key === undefined ? undefined : at(key.offset).line)
  const topLine = (name: string) => lineOf(keys.top.findLast((k) => k.key === name))

  const nameValue = own(root, 'name')
  const name = typeof nameValue === 'string' && nameValue !== '' ? nameValue : undefined

  const scripts: ScriptEntry[] = []
  const scriptsValue = own(root, 'scripts')
  if (scriptsValue !== undefined && !isRecord(scriptsValue)) {
    problems.push({ line: topLine('scripts'), severity: 'error', message: `"scripts" must be an object of name → command strings, not ${kind(scriptsValue)}; no scripts are listed from this file` })
  } else if (scriptsValue !== undefined) {
    // File order and duplicates from the key offsets; like JSON.parse, the first key's place in the
    // order and the last key's value.
    const occurrences = new Map<string, KeyAt[]>()
    for (const k of keys.inner) {
      const list = occurrences.get(k.key)
      if (list) list.push(k)
      else occurrences.set(k.key, [k])
    }
    for (const [key, list] of occurrences) {
      const line = lineOf(list[list.length - 1])!
      const value = own(scriptsValue, key)
      if (list.length > 1) {
        problems.push({ line, severity: 'warning', message: `script "${key}" is defined ${list.length === 2 ? 'twice' : `${list.length} times`} (lines ${list.map((k) => lineOf(k)).join(' and ')}); package managers use the last one, so remove the other${list.length > 2 ? 's' : ''}` })
      }
      if (typeof value !== 'string') {
        problems.push({ line, severity: 'error', message: `script "${key}" must be a command string, not ${kind(value)}; it is skipped (npm run would fail on it)` })
        continue
      }
      scripts.push({ name: key, command: value, line })
    }
  }

  let workspaces: string[] | undefined
  const wsValue = own(root, 'workspaces')
  if (wsValue !== undefined) {
    // Yarn's `{ "packages": [...], "nohoist": [...] }` form carries the same patterns.
    const list = isRecord(wsValue) ? own(wsValue, 'packages') : wsValue
    if (Array.isArray(list)) {
      workspaces = []
      for (const item of list) {
        if (typeof item === 'string') workspaces.push(item)
        else problems.push({ line: topLine('workspaces'), severity: 'error', message: `workspace pattern must be a string, not ${kind(item)}; it is ignored` })
      }
    } else if (!(isRecord(wsValue) && list === undefined)) {
      problems.push({ line: topLine('workspaces'), severity: 'error', message: `"workspaces" must be an array of glob patterns or { "packages": [...] }, not ${kind(list ?? wsValue)}; workspace packages are not listed` })
    }
  }

  let packageManager: string | undefined
  const pmValue = own(root, 'packageManager')
  const packageManagerLine = pmValue !== undefined ? topLine('packageManager') : undefined
  if (pmValue !== undefined) {
    if (typeof pmValue === 'string') packageManager = pmValue
    else problems.push({ line: packageManagerLine, severity: 'warning', message: `"packageManager" must be a string like "pnpm@9.1.0", not ${kind(pmValue)}; it is ignored` })
  }

  return {
    valid: true,
    ...(name !== undefined ? { name } : {}),
    scripts,
    ...(workspaces !== undefined ? { workspaces } : {}),
    ...(packageManager !== undefined ? { packageManager, packageManagerLine } : {}),
    problems,
  }
}
