/**
 * A package.json, read for what the scripts collector needs: name, scripts (with the line of each
 * key), workspaces and packageManager. Pure: text in, facts and problems out. Values come from
 * JSON.parse, the grammar every package manager reads package.json with; positions come from the
 * keys' offsets, and a syntax error's position from jsonc-parser.
 */
import { isRecord, kind, linesAt, locateInnerKeys, locateKeys, own, parseJsonText, positionLocator, type KeyAt } from '../shared/json-text.js'

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


type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The scripts of a "scripts" object, in file order with the line of each key. Duplicates are found
 * from the key offsets; like JSON.parse, a name takes the first key's place in the order and the last key's value.
 */
function readScripts(text: string, scriptsValue: Record<string, unknown>, scripts: ScriptEntry[], problems: ManifestProblem[]): void {
  const keys = locateInnerKeys(text, 'scripts')
  const lines = linesAt(text, keys.map((k) => k.offset))
  // As many keys as the object JSON.parse made has: no name repeats (nor did an earlier "scripts"
  // object add any), and each key is the object's own, in file order.
  if (keys.length === Object.keys(scriptsValue).length) {
    for (let k = 0; k < keys.length; k++) addScript(keys[k]!.key, scriptsValue[keys[k]!.key], lines[k]!, scripts, problems)
    return
  }
  const occurrences = new Map<string, number[]>()
  for (let k = 0; k < keys.length; k++) {
    const list = occurrences.get(keys[k]!.key)
    if (list) list.push(k)
    else occurrences.set(keys[k]!.key, [k])
  }
  for (const [key, list] of occurrences) {
    const line = lines[list[list.length - 1]!]!
    if (list.length > 1) {
      problems.push({ line, severity: 'warning', message: `script "${key}" is defined ${list.length === 2 ? 'twice' : `${list.length} times`} (lines ${list.map((k) => lines[k]).join(' and ')}); package managers use the last one, so remove the other${list.length > 2 ? 's' : ''}` })
    }
    addScript(key, own(scriptsValue, key), line, scripts, problems)
  }
}

function addScript(name: string, value: unknown, line: number, scripts: ScriptEntry[], problems: ManifestProblem[]): void {
  if (typeof value === 'string') scripts.push({ name, command: value, line })
  else problems.push({ line, severity: 'error', message: `script "${name}" must be a command string, not ${kind(value)}; it is skipped (npm run would fail on it)` })
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
  // The top-level keys' lines are needed only for a problem or the packageManager field: found then.
  let top: KeyAt[] | undefined
  let at: ((offset: number) => { line: number }) | undefined
  const topLine = (name: string) => {
    const key = (top ??= locateKeys(text, 'scripts').top).findLast((k) => k.key === name)
    return key === undefined ? undefined : (at ??= positionLocator(text))(key.offset).line
  }

  const nameValue = own(root, 'name')
  const name = typeof nameValue === 'string' && nameValue !== '' ? nameValue : undefined

  const scripts: ScriptEntry[] = []
  const scriptsValue = own(root, 'scripts')
  if (scriptsValue !== undefined && !isRecord(scriptsValue)) {
    problems.push({ line: topLine('scripts'), severity: 'error', message: `"scripts" must be an object of name → command strings, not ${kind(scriptsValue)}; no scripts are listed from this file` })
  } else if (scriptsValue !== undefined) readScripts(text, scriptsValue, scripts, problems)

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

  // Assigned rather than spread, in the same key order: a workspace scan makes thousands.
  const manifest: Mutable<PackageManifest> = { valid: true } as Mutable<PackageManifest>
  if (name !== undefined) manifest.name = name
  manifest.scripts = scripts
  if (workspaces !== undefined) manifest.workspaces = workspaces
  if (packageManager !== undefined) (manifest.packageManager = packageManager), (manifest.packageManagerLine = packageManagerLine)
  manifest.problems = problems
  return manifest
}
