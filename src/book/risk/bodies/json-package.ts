/**
 * What running one package.json script runs, as the package managers run it: its `pre<name>` hook,
 * its body, its `post<name>` hook (npm, bun and yarn 1 run the hooks; pnpm with
 * enable-pre-post-scripts, its default; they are read either way, since a hook that deletes must
 * ask), and inside each body the calls to scripts of the same package (json-script-calls.ts),
 * followed to a depth of MAX_DEPTH with each script read once. The scripts reader uses it, and so do
 * VS Code `npm` tasks, Nx `nx:run-script` targets and deno's package.json fallback.
 */
import { join } from 'node:path'
import { preview } from '../../../collectors/shared/guard.js'
import { boundedMatcher } from '../../../collectors/shared/globs.js'
import type { BodyContext } from '../types.js'
import { BodyBuilder, fileIn, viaStep } from './json-body.js'
import { entries, lineOfNode, nodeKind, prop, readJsonDoc, str, type JsonDoc, type Node } from './json-doc.js'
import { scriptCalls, type ScriptCall } from './json-script-calls.js'
import { simpleCommands } from './json-shell.js'

/** The scripts of one package.json. */
export interface PackageScripts {
  /** Root-relative directory of the package: where its scripts run. */
  readonly dir: string
  readonly file: string
  readonly doc: JsonDoc
  /** Script names in file order. */
  readonly names: readonly string[]
  readonly scripts: ReadonlyMap<string, Node>
}

/** How a chain of scripts is read: where the lines go, and how a `via` step names a script. */
export interface ScriptRun {
  readonly ctx: BodyContext
  readonly body: BodyBuilder
  /** The words a `via` step puts before a script's name: `npm run`, `pnpm run`, `deno task`. */
  readonly call: string
}

/** The package.json of `dir`, or why it can't be read, or undefined when there is none. */
export function readPackage(ctx: BodyContext, dir: string): PackageScripts | { error: string } | undefined {
  const file = fileIn(dir, 'package.json')
  const key = `scripts:${join(ctx.root, file)}#names`
  const memo = ctx.memo.get(key) as PackageScripts | { error: string } | undefined
  if (memo !== undefined) return memo
  const read = readJsonDoc(ctx, 'scripts', file, false)
  if ('missing' in read) return undefined
  let pkg: PackageScripts | { error: string }
  if ('error' in read) {
    pkg = { error: read.error }
  } else {
    const list = entries(prop(read.doc.root, 'scripts'))
    pkg = { dir, file, doc: read.doc, names: list.map((e) => e.key), scripts: new Map(list.map((e) => [e.key, e.value])) }
  }
  ctx.memo.set(key, pkg)
  return pkg
}

/**
 * Runs script `name` with its hooks: `pre<name>`, the script, `post<name>`. `via` is the chain
 * that reached it, this call last. Returns false when the package has no such script. (The call's
 * extra words are the judge's to append: it adds them to every line of the body.)
 */
export function runScript(run: ScriptRun, pkg: PackageScripts, name: string, via: readonly string[]): boolean {
  if (!pkg.scripts.has(name)) return false
  for (const hook of [`pre${name}`, name, `post${name}`]) {
    if (hook !== name && !pkg.scripts.has(hook)) continue
    const hookVia = hook === name ? via : [...via, `${run.call} ${hook}`]
    scriptBody(run, pkg, hook, hookVia)
  }
  return true
}

/** One script's own body, without hooks, then the calls in it. */
export function scriptBody(run: ScriptRun, pkg: PackageScripts, name: string, via: readonly string[]): void {
  const node = pkg.scripts.get(name)
  if (node === undefined || !run.body.enter(`${pkg.file}#${name}`, via, pkg.file)) return
  const line = lineOfNode(pkg.doc, node)
  const value = str(node)
  if (value === undefined) {
    const text = node.type === 'array' || node.type === 'object' ? '' : String(node.value ?? '')
    run.body.part({ text, file: pkg.file, line, why: `script "${preview(name, 60)}" is ${nodeKind(node)}, not a command string`, via })
    return
  }
  run.body.line({ text: value, cwd: pkg.dir, file: pkg.file, line, via })
  followScriptCalls(run, pkg, value, line, via)
}

/** The calls to this package's scripts inside `text` (a body line written at `line`), followed. */
export function followScriptCalls(run: ScriptRun, pkg: PackageScripts, text: string, line: number, via: readonly string[]): void {
  const has = (n: string) => pkg.scripts.has(n)
  for (const command of simpleCommands(text)) {
    if (run.body.full) return
    if (command.moved) continue
    const calls = scriptCalls(command.words, has)
    if (calls === undefined) continue
    const step = [...via, viaStep(command.text)]
    for (const call of calls) followCall(run, pkg, call, { text: command.text, line, via, step })
  }
}

interface CallSite {
  readonly text: string
  readonly line: number
  /** The chain up to the line that makes the call. */
  readonly via: readonly string[]
  /** The same chain with the call itself. */
  readonly step: readonly string[]
}

function followCall(run: ScriptRun, pkg: PackageScripts, call: ScriptCall, site: CallSite): void {
  switch (call.kind) {
    case 'script':
      runScript(run, pkg, call.name, site.step)
      return
    case 'glob':
      for (const name of matchScripts(run, pkg, call, site)) runScript(run, pkg, name, [...site.via, `${run.call} ${name}`])
      return
    case 'lifecycle':
      for (const name of call.names) scriptBody(run, pkg, name, site.step)
      return
    case 'line':
      run.body.line({ text: call.text, cwd: pkg.dir, file: pkg.file, line: site.line, via: site.step })
      if (run.body.deeper(site.step, pkg.file)) followScriptCalls(run, pkg, call.text, site.line, site.step)
      return
    case 'unknown':
      run.body.part({ text: site.text, file: pkg.file, line: site.line, why: call.why, via: site.via })
      return
    case 'elsewhere':
      return // the line stays as written; the judge follows it through the book
  }
}

/**
 * The scripts a glob names, in file order. npm-run-all matches with `:` as the separator (`build:*`
 * is `build:a`, not `build:a:b`); concurrently's `*` matches anything.
 */
function matchScripts(run: ScriptRun, pkg: PackageScripts, call: Extract<ScriptCall, { kind: 'glob' }>, site: CallSite): string[] {
  const swap = (s: string) => s.replace(/[:/]/g, (c) => (c === ':' ? '/' : ':'))
  const flat = (s: string) => s.replace(/[:/]/g, '_')
  const key = call.style === 'run-all' ? swap : flat
  const pattern = key(call.pattern)
  const { match, refused } = boundedMatcher([pattern], { dot: true })
  if (refused.length > 0) {
    const why = `the script pattern ${preview(call.pattern, 60)} is too complex to match`
    run.body.part({ text: site.text, file: pkg.file, line: site.line, why, via: site.via })
    return []
  }
  return pkg.names.filter((n) => match(key(n)))
}
