/**
 * What a deno recipe runs (`deno task <name>` in the directory of its deno.json or deno.jsonc, see
 * src/collectors/deno/collect.ts): a task string, or `{ command, dependencies }` with the dependencies first
 * (deno runs them before the command, in parallel, each once), and `deno task other` inside a body
 * followed like `npm run`. A name is looked up as deno does: the member's config, the member's
 * package.json scripts (with their hooks, json-package.ts), then the workspace root's config and
 * package.json; a task runs in the directory of the file that defines it. `deno task 'build-*'`
 * runs every matching task.
 */
import { preview } from '../../../collectors/shared/guard.js'
import type { BodyContext, BodyReader } from '../types.js'
import { BodyBuilder, dirOf, viaStep } from './json-body.js'
import { entries, items, lineOfNode, nodeKind, prop, readJsonDoc, str, type JsonDoc, type Node } from './json-doc.js'
import { readPackage, runScript, type PackageScripts, type ScriptRun } from './json-package.js'
import { simpleCommands } from './json-shell.js'

const SOURCE = 'deno'
const CONFIG_NAMES = ['deno.json', 'deno.jsonc']

interface ConfigLevel {
  readonly kind: 'deno'
  readonly dir: string
  readonly doc: JsonDoc
  readonly tasks: ReadonlyMap<string, Node>
  readonly names: readonly string[]
}
type Level = ConfigLevel | { readonly kind: 'package'; readonly pkg: PackageScripts }

interface DenoRun extends ScriptRun {
  readonly levels: readonly Level[]
}

export const readDenoBody: BodyReader = (recipe, ctx) => {
  const body = new BodyBuilder()
  const first = configLevel(ctx, recipe.file)
  if (!('kind' in first)) {
    body.part({ text: recipe.description, file: recipe.file, why: `${first.error}; deno refuses it too`, via: [recipe.command] })
    return body.result()
  }
  const run: DenoRun = { ctx, body, call: 'deno task', levels: lookupLevels(ctx, first) }
  if (!runTask(run, 0, recipe.name, [recipe.command])) {
    body.part({ text: recipe.description, file: recipe.file, why: `${recipe.file} no longer has the task "${recipe.name}"`, via: [recipe.command] })
  }
  return body.result()
}

/** A deno config as a lookup level, or why it can't be read. */
function configLevel(ctx: BodyContext, file: string): ConfigLevel | { error: string } {
  const read = readJsonDoc(ctx, SOURCE, file, true)
  if ('missing' in read) return { error: `${file} is gone` }
  if ('error' in read) return { error: read.error }
  const list = entries(prop(read.doc.root, 'tasks'))
  return { kind: 'deno', dir: dirOf(file), doc: read.doc, tasks: new Map(list.map((e) => [e.key, e.value])), names: list.map((e) => e.key) }
}

/** Where deno looks a task name up from the recipe's config: it, its package.json, then the root's. */
function lookupLevels(ctx: BodyContext, first: ConfigLevel): Level[] {
  const levels: Level[] = [first]
  const pkg = readPackage(ctx, first.dir)
  if (pkg !== undefined && !('error' in pkg)) levels.push({ kind: 'package', pkg })
  if (first.dir === '.') return levels
  for (const name of CONFIG_NAMES) {
    const root = configLevel(ctx, name)
    if ('kind' in root) {
      levels.push(root)
      break
    }
  }
  const rootPkg = readPackage(ctx, '.')
  if (rootPkg !== undefined && !('error' in rootPkg)) levels.push({ kind: 'package', pkg: rootPkg })
  return levels
}

function has(level: Level, name: string): boolean {
  return level.kind === 'deno' ? level.tasks.has(name) : level.pkg.scripts.has(name)
}

/** Runs task `name`, looked up from level `from` on; false when no level has it. */
function runTask(run: DenoRun, from: number, name: string, via: readonly string[]): boolean {
  for (let i = from; i < run.levels.length; i++) {
    const level = run.levels[i]!
    if (!has(level, name)) continue
    if (level.kind === 'package') return runScript(run, level.pkg, name, via)
    denoTask(run, i, level, name, via)
    return true
  }
  return false
}

/** The tasks a wildcard name matches, in the first level that has any, file order. */
function runMatching(run: DenoRun, from: number, pattern: string, via: readonly string[]): void {
  const re = wildcard(pattern)
  for (let i = from; i < run.levels.length; i++) {
    const level = run.levels[i]!
    const names = (level.kind === 'deno' ? level.names : level.pkg.names).filter((n) => re.test(n))
    if (names.length === 0) continue
    for (const name of names) runTask(run, i, name, [...via.slice(0, -1), `deno task ${name}`])
    return
  }
}

/** `*` matches any characters; everything else stands for itself (no backtracking beyond `.*`). */
function wildcard(pattern: string): RegExp {
  const parts = pattern.slice(0, 512).split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('.*')}$`, 's')
}

function denoTask(run: DenoRun, index: number, level: ConfigLevel, name: string, via: readonly string[]): void {
  const file = level.doc.file
  if (!run.body.enter(`${file}#${name}`, via, file)) return
  const node = level.tasks.get(name)!
  const line = lineOfNode(level.doc, node)
  const command = node.type === 'object' ? prop(node, 'command') : node
  if (node.type === 'object') {
    for (const dep of items(prop(node, 'dependencies'))) {
      const depName = str(dep)
      if (depName === undefined) continue // deno refuses the file for it; the collector reports it
      const step = [...via, `deno task ${depName}`]
      if (depName.includes('*')) runMatching(run, index, depName, step)
      else runTask(run, index, depName, step)
    }
  }
  if (command === undefined || command.type === 'null') return // a task that only runs its dependencies
  const text = str(command)
  if (text === undefined) {
    run.body.part({ text: '', file, line, why: `task "${preview(name, 60)}" has ${nodeKind(command)} for its command, not a string`, via })
    return
  }
  run.body.line({ text, cwd: level.dir, file, line, via })
  followTaskCalls(run, index, text, file, line, via)
}

/** `deno task other` inside a task's command, followed from the level that defines the task. */
function followTaskCalls(run: DenoRun, index: number, text: string, file: string, line: number, via: readonly string[]): void {
  for (const command of simpleCommands(text)) {
    if (run.body.full) return
    if (command.moved || command.words[0] !== 'deno' || command.words[1] !== 'task') continue
    const call = taskCall(command.words.slice(2))
    const step = [...via, viaStep(command.text)]
    if (call.kind === 'task') {
      if (call.name.includes('*')) runMatching(run, index, call.name, step)
      else runTask(run, index, call.name, step)
    } else if (call.kind === 'eval') {
      run.body.line({ text: call.text, cwd: dirOf(file), file, line, via: step })
    } else if (call.kind === 'unknown') {
      run.body.part({ text: command.text, file, line, why: call.why, via })
    }
  }
}

type TaskCall = { kind: 'task'; name: string } | { kind: 'eval'; text: string } | { kind: 'elsewhere' } | { kind: 'none' } | { kind: 'unknown'; why: string }

const ELSEWHERE = new Set(['--cwd', '-c', '--config', '--filter', '-f', '-r', '--recursive'])
const FLAGS = new Set(['-q', '--quiet', '--frozen', '--no-lock', '--lock', '--node-modules-dir', '--no-config'])

/** The words after `deno task`: which task it runs, or a command line (`--eval`), or elsewhere. */
function taskCall(words: readonly (string | undefined)[]): TaskCall {
  let evaluate = false
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (w === undefined) return { kind: 'unknown', why: 'the task name is computed when the line runs' }
    if (!w.startsWith('-')) {
      if (!evaluate) return { kind: 'task', name: w }
      const rest = words.slice(i)
      if (rest.every((x) => x !== undefined)) return { kind: 'eval', text: rest.join(' ') }
      return { kind: 'unknown', why: 'the command given to deno task --eval is computed when the line runs' }
    }
    const name = w.includes('=') ? w.slice(0, w.indexOf('=')) : w
    if (name === '--eval') evaluate = true
    else if (ELSEWHERE.has(name)) return { kind: 'elsewhere' }
    else if (!FLAGS.has(name) && !w.includes('=')) {
      return { kind: 'unknown', why: `the option ${w} comes before the task name, and whether it takes the next word decides which task runs` }
    }
  }
  return { kind: 'none' } // a bare `deno task` lists the tasks
}
