/**
 * A deno.json / deno.jsonc, read for what the deno collector needs: `name`, `tasks` and
 * `workspace`; nothing else (imports, compilerOptions, ...) is looked at. Deno reads both names
 * as JSONC (comments, trailing commas, and even a missing comma). Pure: text in, facts and problems out.
 */
import { jsoncParser } from '../../base/lazy.js'
import { isRecord, kind, locateKeys, own, parseJsonText, positionLocator, type KeyAt } from '../shared/json-text.js'
import type { ManifestProblem } from '../scripts/manifest.js'

export interface DenoTask {
  readonly name: string
  /** Absent for an object task that only runs its dependencies. */
  readonly command?: string
  readonly description?: string
  readonly dependencies: readonly string[]
  /** 1-based line of the task's key. */
  readonly line: number
}

export interface DenoConfig {
  /** False when the file is not valid JSONC (then nothing else is filled). */
  readonly valid: boolean
  readonly name?: string
  readonly tasks: readonly DenoTask[]
  /** Member patterns (array form or `{ "members": [...] }`); undefined when absent. */
  readonly workspace?: readonly string[]
  readonly workspaceLine?: number
  readonly problems: readonly ManifestProblem[]
}


/** The value, and the offsets of the top-level keys and of the keys of "tasks". */
interface Read {
  value: unknown
  top: KeyAt[]
  tasks: KeyAt[]
}

/**
 * Most configs are plain JSON once comments and trailing commas are blanked (offsets kept):
 * JSON.parse reads those many times faster than a syntax tree is built. The rest (a missing
 * comma, a syntax error) take the tree, which also locates the error.
 */
function readFast(text: string): Read | undefined {
  const json = text.includes('//') || text.includes('/*') || /,\s*[}\]]/.test(text) ? blankJsonc(text) : text
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return undefined
  }
  const keys = locateKeys(json, 'tasks')
  return { value, top: keys.top, tasks: keys.inner }
}

/**
 * `text` as strict JSON with the same offsets and lines: every comment's characters (line breaks
 * kept) and every trailing comma turned to spaces. The scan is jsonc-parser's scanner.
 * (jsonc-parser's own stripComments shifts offsets when it replaces, and keeps trailing commas.)
 */
export function blankJsonc(text: string): string {
  const scanner = jsoncParser().createScanner(text, false)
  const blanks: [number, number][] = []
  let comma = -1
  for (let kind = scanner.scan(); kind !== 17 /* EOF */; kind = scanner.scan()) {
    if (kind === 12 /* LineCommentTrivia */ || kind === 13 /* BlockCommentTrivia */) {
      blanks.push([scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()])
    } else if (kind === 14 /* LineBreakTrivia */ || kind === 15 /* Trivia */) {
      continue
    } else {
      if ((kind === 2 /* CloseBraceToken */ || kind === 4 /* CloseBracketToken */) && comma !== -1) blanks.push([comma, comma + 1])
      comma = kind === 5 /* CommaToken */ ? scanner.getTokenOffset() : -1
    }
  }
  if (blanks.length === 0) return text
  blanks.sort((x, y) => x[0] - y[0])
  let out = ''
  let from = 0
  for (const [start, end] of blanks) {
    out += text.slice(from, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ')
    from = end
  }
  return out + text.slice(from)
}

export function parseDenoConfig(text: string, file: string): DenoConfig {
  const problems: ManifestProblem[] = []
  let read = readFast(text)
  if (read === undefined) {
    const json = parseJsonText(text, true)
    if (json.root === undefined || json.root.type !== 'object') {
      const e = json.error ?? { line: 1, column: 1, message: `it must hold an object, not ${kind(json.root ? jsoncParser().getNodeValue(json.root) : undefined)}` }
      problems.push({ line: e.line, severity: 'error', message: `${file} can't be read at line ${e.line}, column ${e.column}: ${e.message}; its tasks are skipped until it is fixed` })
      return { valid: false, tasks: [], problems }
    }
    if (json.missingComma !== undefined) {
      const { line, column } = json.missingComma
      problems.push({ line, severity: 'warning', message: `${file} misses a comma at line ${line}, column ${column}; deno accepts that, editors and other JSONC readers don't, so add it` })
    }
    const keyAt = (prop: { children?: { value?: unknown; offset: number }[] }) => ({
      key: prop.children![0]!.value as string,
      offset: prop.children![0]!.offset,
    })
    const props = json.root.children ?? []
    const tasksProp = props.filter((p) => p.children?.[0]?.value === 'tasks').at(-1)
    const tasksNode = tasksProp?.children?.[1]
    read = {
      value: jsoncParser().getNodeValue(json.root),
      top: props.filter((p) => p.children?.length === 2).map(keyAt),
      tasks: tasksNode?.type === 'object' ? (tasksNode.children ?? []).filter((p) => p.children?.length === 2).map(keyAt) : [],
    }
  }
  const root = read.value
  if (!isRecord(root)) {
    problems.push({ line: 1, severity: 'error', message: `${file} can't be read at line 1, column 1: it must hold an object, not ${kind(root)}; its tasks are skipped until it is fixed` })
    return { valid: false, tasks: [], problems }
  }
  const at = positionLocator(text)
  const lineOf = (k: KeyAt | undefined) => (k === undefined ? undefined : at(k.offset).line)
  const topLine = (name: string) => lineOf(read!.top.findLast((k) => k.key === name))

  const nameValue = own(root, 'name')
  const name = typeof nameValue === 'string' && nameValue !== '' ? nameValue : undefined

  const tasks: DenoTask[] = []
  const tasksValue = own(root, 'tasks')
  if (tasksValue !== undefined && !isRecord(tasksValue)) {
    problems.push({ line: topLine('tasks'), severity: 'error', message: `"tasks" must be an object of task name → command or { command, description, dependencies }, not ${kind(tasksValue)}; no tasks are listed from ${file}` })
  } else if (tasksValue !== undefined) {
    // File order from the key offsets; like deno, the last of duplicate keys wins.
    const occurrences = new Map<string, KeyAt[]>()
    for (const k of read.tasks) {
      const list = occurrences.get(k.key)
      if (list) list.push(k)
      else occurrences.set(k.key, [k])
    }
    for (const [key, list] of occurrences) {
      const line = lineOf(list[list.length - 1])!
      if (list.length > 1) problems.push({ line, severity: 'warning', message: `task "${key}" is defined ${list.length === 2 ? 'twice' : `${list.length} times`} (lines ${list.map((k) => lineOf(k)).join(' and ')}); deno uses the last one, so remove the other${list.length > 2 ? 's' : ''}` })
      const task = readTask(key, own(tasksValue, key), line, problems)
      if (task !== undefined) tasks.push(task)
    }
  }

  let workspace: string[] | undefined
  const wsValue = own(root, 'workspace')
  const workspaceLine = wsValue !== undefined ? topLine('workspace') : undefined
  if (wsValue !== undefined) {
    const list = isRecord(wsValue) ? own(wsValue, 'members') : wsValue
    if (Array.isArray(list)) {
      workspace = []
      for (const item of list) {
        if (typeof item === 'string') workspace.push(item)
        else problems.push({ line: workspaceLine, severity: 'error', message: `workspace member must be a path string, not ${kind(item)}; it is ignored` })
      }
    } else {
      problems.push({ line: workspaceLine, severity: 'error', message: `"workspace" must be an array of member directories or { "members": [...] }, not ${kind(list ?? wsValue)}; members are not listed` })
    }
  }

  return {
    valid: true,
    ...(name !== undefined ? { name } : {}),
    tasks,
    ...(workspace !== undefined ? { workspace, workspaceLine } : {}),
    problems,
  }
}

function readTask(name: string, value: unknown, line: number, problems: ManifestProblem[]): DenoTask | undefined {
  if (typeof value === 'string') return { name, command: value, dependencies: [], line }
  if (!isRecord(value)) {
    problems.push({ line, severity: 'error', message: `task "${name}" must be a command string or { command, description, dependencies }, not ${kind(value)}; it is skipped (deno refuses the whole file)` })
    return undefined
  }
  const field = (key: string): string | undefined => {
    const v = own(value, key)
    if (v === undefined || v === null) return undefined
    if (typeof v === 'string') return v
    problems.push({ line, severity: 'error', message: `task "${name}": "${key}" must be a string, not ${kind(v)}; it is ignored (deno refuses the whole file)` })
    return undefined
  }
  const command = field('command')
  const description = field('description')
  const dependencies: string[] = []
  const deps = own(value, 'dependencies')
  if (Array.isArray(deps)) {
    for (const dep of deps) {
      if (typeof dep === 'string') dependencies.push(dep)
      else problems.push({ line, severity: 'error', message: `task "${name}": dependencies must be task names, not ${kind(dep)}; it is ignored` })
    }
  } else if (deps !== undefined && deps !== null) {
    problems.push({ line, severity: 'error', message: `task "${name}": "dependencies" must be an array of task names, not ${kind(deps)}; it is ignored` })
  }
  return { name, ...(command !== undefined ? { command } : {}), ...(description !== undefined ? { description } : {}), dependencies, line }
}
