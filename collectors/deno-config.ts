/**
 * A deno.json / deno.jsonc, read for what the deno collector needs: `name`, `tasks` and
 * `workspace`; nothing else (imports, compilerOptions, ...) is looked at. Deno reads both names
 * as JSONC (comments, trailing commas). Pure: text in, facts and problems out.
 */
import { kindOf, parseJsonText, properties, property, type Node } from './json-text.js'
import type { ManifestProblem } from './scripts-manifest.js'

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

export function parseDenoConfig(text: string, file: string): DenoConfig {
  const json = parseJsonText(text, true)
  const problems: ManifestProblem[] = []
  if (json.root === undefined || json.root.type !== 'object') {
    const e = json.error ?? { line: 1, column: 1, message: `it must hold an object, not ${kindOf(json.root!)}` }
    problems.push({ line: e.line, severity: 'error', message: `${file} can't be read at line ${e.line}, column ${e.column}: ${e.message}; its tasks are skipped until it is fixed` })
    return { valid: false, tasks: [], problems }
  }
  if (json.missingComma !== undefined) {
    const { line, column } = json.missingComma
    problems.push({ line, severity: 'warning', message: `${file} misses a comma at line ${line}, column ${column}; deno accepts that, editors and other JSONC readers don't, so add it` })
  }
  const root = json.root
  const nameNode = property(root, 'name')
  const name = nameNode?.type === 'string' && nameNode.value !== '' ? (nameNode.value as string) : undefined

  const tasks = new Map<string, DenoTask>()
  const tasksNode = property(root, 'tasks')
  if (tasksNode !== undefined && tasksNode.type !== 'object') {
    problems.push({ line: json.lineAt(tasksNode.offset), severity: 'error', message: `"tasks" must be an object of task name → command or { command, description, dependencies }, not ${kindOf(tasksNode)}; no tasks are listed from ${file}` })
  } else if (tasksNode !== undefined) {
    for (const [key, value, keyOffset] of properties(tasksNode)) {
      const line = json.lineAt(keyOffset)
      const task = readTask(key, value, line, problems)
      if (task === undefined) continue
      if (tasks.has(key)) problems.push({ line, severity: 'warning', message: `task "${key}" is defined twice (lines ${tasks.get(key)!.line} and ${line}); deno uses the last one, so remove the other` })
      tasks.set(key, task)
    }
  }

  let workspace: string[] | undefined
  const wsNode = property(root, 'workspace')
  const workspaceLine = wsNode !== undefined ? json.lineAt(wsNode.parent?.offset ?? wsNode.offset) : undefined
  if (wsNode !== undefined) {
    const list = wsNode.type === 'object' ? property(wsNode, 'members') : wsNode
    if (list?.type === 'array') {
      workspace = []
      for (const item of list.children ?? []) {
        if (item.type === 'string') workspace.push(item.value as string)
        else problems.push({ line: json.lineAt(item.offset), severity: 'error', message: `workspace member must be a path string, not ${kindOf(item)}; it is ignored` })
      }
    } else {
      problems.push({ line: workspaceLine, severity: 'error', message: `"workspace" must be an array of member directories or { "members": [...] }, not ${kindOf(list ?? wsNode)}; members are not listed` })
    }
  }

  return {
    valid: true,
    ...(name !== undefined ? { name } : {}),
    tasks: [...tasks.values()],
    ...(workspace !== undefined ? { workspace, workspaceLine } : {}),
    problems,
  }
}

function readTask(name: string, value: Node, line: number, problems: ManifestProblem[]): DenoTask | undefined {
  if (value.type === 'string') return { name, command: value.value as string, dependencies: [], line }
  if (value.type !== 'object') {
    problems.push({ line, severity: 'error', message: `task "${name}" must be a command string or { command, description, dependencies }, not ${kindOf(value)}; it is skipped (deno refuses the whole file)` })
    return undefined
  }
  const field = (key: string): string | undefined => {
    const node = property(value, key)
    if (node === undefined || node.type === 'null') return undefined
    if (node.type === 'string') return node.value as string
    problems.push({ line, severity: 'error', message: `task "${name}": "${key}" must be a string, not ${kindOf(node)}; it is ignored (deno refuses the whole file)` })
    return undefined
  }
  const command = field('command')
  const description = field('description')
  const dependencies: string[] = []
  const depsNode = property(value, 'dependencies')
  if (depsNode?.type === 'array') {
    for (const dep of depsNode.children ?? []) {
      if (dep.type === 'string') dependencies.push(dep.value as string)
      else problems.push({ line, severity: 'error', message: `task "${name}": dependencies must be task names, not ${kindOf(dep)}; it is ignored` })
    }
  } else if (depsNode !== undefined && depsNode.type !== 'null') {
    problems.push({ line, severity: 'error', message: `task "${name}": "dependencies" must be an array of task names, not ${kindOf(depsNode)}; it is ignored` })
  }
  return { name, ...(command !== undefined ? { command } : {}), ...(description !== undefined ? { description } : {}), dependencies, line }
}
