/**
 * What a just recipe runs, as `just <recipe> <words>` would run it from the scan root: the
 * backticks and `shell()` calls of every module's assignments (just evaluates them all before it
 * runs anything, unless `set lazy`), then each recipe called on the command line (the words a
 * recipe's parameters don't take name further recipes, as just reads them) with its prior
 * dependencies first (each recipe with the same arguments once), its body with `{{ … }}` done
 * statically, and its subsequent (`&&`) dependencies after. Lines run in the module's directory,
 * moved by `set working-directory` and `[working-directory]`, or stay at the root with `[no-cd]`.
 * A shebang or `[script]` recipe is one script (text-script.ts says how each interpreter is shown).
 */
import { dirname, resolve } from 'node:path'
import type { Token } from '../../../collectors/just/lex.js'
import type { Recipe } from '../../recipe.js'
import type { BodyContext, BodyReader, RecipeBody } from '../types.js'
import { BodyBuilder, concat, hole, holes, known, MAX_DEPTH, reason, relPath, render, shellJoin, unreadable, type LineAt, type Value } from './text-body.js'
import { evaluate, interpolate, parseExpr, unindent, type JustEnv } from './text-just-expr.js'
import { allModules, moduleAt, recipeIn, rootModule, settingWords, type JustAssignment, type JustModule, type JustRecipeDef } from './text-just-module.js'
import { addScript, shebangWords } from './text-script.js'

interface Param {
  name: string
  variadic?: '+' | '*'
  /** Token range of the default value. */
  from?: number
  to?: number
}
interface Dep {
  name: string
  args: Array<[number, number]>
  subsequent: boolean
}

/** The end of one value (a parameter default or dependency argument) starting at `k`. */
function valueEnd(toks: readonly Token[], k: number): number {
  const t = toks[k]
  if (!t) return k
  if (t.t === 'name' && toks[k + 1]?.v === '(') return parensEnd(toks, k + 1)
  if (t.t === 'op' && t.v === '(') return parensEnd(toks, k)
  return k + 1
}

function parensEnd(toks: readonly Token[], k: number): number {
  let depth = 0
  do {
    const t = toks[k]
    if (!t) return k
    if (t.t === 'op' && t.v === '(') depth++
    else if (t.t === 'op' && t.v === ')') depth--
    k++
  } while (depth > 0)
  return k
}

function qualified(toks: readonly Token[], k: number): [string, number] {
  let name = toks[k]?.v ?? ''
  k++
  while (toks[k]?.v === '::' && toks[k + 1]?.t === 'name') {
    name += `::${toks[k + 1]!.v}`
    k += 2
  }
  return [name, k]
}

/** A recipe header's parameters (with their defaults' tokens) and dependencies (with their arguments'). */
function parseHeader(toks: readonly Token[]): { params: Param[]; deps: Dep[] } {
  let k = toks[0]?.v === '@' ? 2 : 1
  const params: Param[] = []
  while (k < toks.length && !(toks[k]!.t === 'op' && toks[k]!.v === ':')) {
    const p: Param = { name: '' }
    if (toks[k]!.v === '+' || toks[k]!.v === '*') p.variadic = toks[k++]!.v as '+' | '*'
    if (toks[k]?.v === '$') k++
    p.name = toks[k++]?.v ?? ''
    if (toks[k]?.v === '=') {
      p.from = k + 1
      p.to = k = valueEnd(toks, k + 1)
    }
    params.push(p)
  }
  k++
  const deps: Dep[] = []
  let subsequent = false
  while (k < toks.length) {
    const t = toks[k]!
    if (t.t === 'op' && t.v === '&&') {
      subsequent = true
      k++
    } else if (t.t === 'op' && t.v === '(') {
      const [name, after] = qualified(toks, k + 1)
      k = after
      const args: Array<[number, number]> = []
      while (k < toks.length && toks[k]!.v !== ')') {
        const end = valueEnd(toks, k)
        args.push([k, end])
        k = end
      }
      k++
      deps.push({ name, args, subsequent })
    } else if (t.t === 'name') {
      const [name, after] = qualified(toks, k)
      k = after
      deps.push({ name, args: [], subsequent })
    } else k++
  }
  return { params, deps }
}

/** just's names for this system. */
const JUST_OS = process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : process.platform
const JUST_ARCH = process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : process.arch === 'ia32' ? 'x86' : process.arch

/** One `just …` invocation being read. */
class JustRun {
  readonly out = new BodyBuilder()
  /** Evaluated assignments per module, and the ones being evaluated (a cycle reads as a hole). */
  readonly #values = new Map<JustModule, Map<string, Value>>()
  readonly #evaluating = new Set<string>()

  constructor(readonly ctx: BodyContext, readonly root: JustModule) {}

  /** The directory a module's lines and backticks run in (`set working-directory` applied). */
  moduleDir(mod: JustModule): string {
    const base = dirname(mod.source.abs)
    const wd = mod.settings.get('working-directory')?.value
    return wd ? resolve(base, wd) : base
  }

  env(mod: JustModule, sourceFile: string, at: LineAt, params?: ReadonlyMap<string, Value>): JustEnv {
    return {
      variable: (name) => params?.get(name) ?? this.variable(mod, name, at.via),
      justfile: this.root.source.abs,
      sourceFile,
      invocationDir: this.ctx.root,
      os: JUST_OS,
      arch: JUST_ARCH,
      ran: (command, what) => this.out.addValue(command, `${what}: ${render(command)}`, at),
    }
  }

  /** A module variable's value, evaluated once; undefined when the module assigns no such name. */
  variable(mod: JustModule, name: string, via: readonly string[]): Value | undefined {
    let values = this.#values.get(mod)
    if (!values) this.#values.set(mod, (values = new Map()))
    const done = values.get(name)
    if (done) return done
    const a = mod.assignments.get(name)
    if (!a) return undefined
    const key = `${mod.path.join('::')}::${name}`
    if (this.#evaluating.has(key)) return hole(name, `\`${name}\` is defined in terms of itself`)
    this.#evaluating.add(key)
    try {
      const at: LineAt = { cwd: relPath(this.ctx.root, this.moduleDir(mod)), file: a.file.rel, line: a.raw.line, via }
      const value = named(evaluate(parseExpr(a.raw.toks, a.raw.text, a.from), this.env(mod, a.file.abs, at), 0), a)
      values.set(name, value)
      return value
    } finally {
      this.#evaluating.delete(key)
    }
  }

  /** just evaluates every assignment of every module before it runs a recipe (not under `set lazy`). */
  eagerAssignments(via: readonly string[]): void {
    for (const mod of allModules(this.root)) {
      if (mod.settings.has('lazy') && mod.settings.get('lazy')!.value !== 'false') continue
      for (const name of mod.assignments.keys()) this.variable(mod, name, via)
    }
  }
}

/** A variable's holes carry its name and its definition, for the refusal text. */
function named(value: Value, a: JustAssignment): Value {
  const own = a.raw.text.trim().slice(0, 4_000)
  return value.map((p) => {
    if (typeof p === 'string') return p
    const source = p.source && !own.includes(p.source) ? `${own}\n${p.source}`.slice(0, 8_000) : own
    return { hole: p.hole === 'UNKNOWN' ? a.name : p.hole, why: p.why, source }
  })
}

/** The module and recipe a qualified name (`a::b::r`) names, from `mod`. */
function resolveName(mod: JustModule, name: string): { mod: JustModule; def: JustRecipeDef } | undefined {
  const parts = name.split('::')
  const target = moduleAt(mod, parts.slice(0, -1))
  const def = target && recipeIn(target, parts[parts.length - 1]!)
  if (target && def) return { mod: target, def }
  // An alias of a submodule's recipe (`alias b := sub::build`).
  const alias = target?.aliases.get(parts[parts.length - 1]!)
  return alias && alias.includes('::') && parts.length < MAX_DEPTH ? resolveName(target!, alias) : undefined
}

function fullName(mod: JustModule, def: JustRecipeDef): string {
  return [...mod.path, def.item.name].join('::')
}

function callText(name: string, args: readonly Value[]): string {
  return args.length ? `just ${name} ${shellJoin(args.map(render))}` : `just ${name}`
}

/** Binds a recipe's parameters to the call's values, defaults evaluated in order. */
function bindParams(run: JustRun, mod: JustModule, def: JustRecipeDef, params: Param[], args: readonly Value[], at: LineAt): Map<string, Value> {
  const scope = new Map<string, Value>()
  params.forEach((p, i) => {
    const byDefault = () => evaluate(parseExpr(def.raw.toks, def.raw.text, p.from, p.to), run.env(mod, def.file.abs, at, scope))
    let value: Value
    if (p.variadic) {
      const rest = args.slice(i)
      // A variadic parameter is its words joined by spaces, or its default when the call has none.
      const none = p.variadic === '+' ? hole(p.name, `the call gives no value for the parameter \`${p.name}\``) : known('')
      value = rest.length ? concat(...rest.flatMap((v, j) => (j ? [known(' '), v] : [v]))) : p.from !== undefined ? byDefault() : none
    } else if (i < args.length) value = args[i]!
    else if (p.from !== undefined) value = byDefault()
    else value = hole(p.name, `the call gives no value for the parameter \`${p.name}\``)
    scope.set(p.name, value)
  })
  return scope
}

/** The directory a recipe's lines run in. */
function recipeDir(run: JustRun, mod: JustModule, def: JustRecipeDef): string {
  if (def.item.attributes.some((a) => a.name === 'no-cd')) return run.ctx.root
  const wd = def.item.attributes.find((a) => a.name === 'working-directory')?.value
  return wd ? resolve(run.moduleDir(mod), wd) : run.moduleDir(mod)
}

/** Runs one recipe: prior dependencies, body, subsequent dependencies (just's `run_recipe`). */
function runRecipe(
  run: JustRun,
  mod: JustModule,
  def: JustRecipeDef,
  args: readonly Value[],
  via: readonly string[],
  ran: Set<string>,
  stack: readonly string[],
): void {
  const name = fullName(mod, def)
  const key = [name, ...args.map(render)].join('\0')
  if (ran.has(key) || run.out.full) return
  const at: LineAt = { cwd: relPath(run.ctx.root, recipeDir(run, mod, def)), file: def.file.rel, line: def.item.line, via }
  if (!run.out.step(at)) return
  if (stack.includes(name)) return run.out.addUnknown(via[via.length - 1] ?? name, `recipe \`${name}\` depends on itself (a cycle); just refuses it`, at)
  if (stack.length >= MAX_DEPTH) return run.out.addUnknown(via[via.length - 1] ?? name, `dependencies nest more than ${MAX_DEPTH} deep; not followed`, at)
  const { params, deps } = parseHeader(def.raw.toks)
  const scope = bindParams(run, mod, def, params, args, at)
  const env = run.env(mod, def.file.abs, at, scope)
  const callDep = (dep: Dep, into: Set<string>) => {
    const target = resolveName(mod, dep.name)
    const depArgs = dep.args.map(([from, to]) => evaluate(parseExpr(def.raw.toks, def.raw.text, from, to), env))
    if (!target) return run.out.addUnknown(`${def.raw.text.split('\n')[0]}`, `dependency \`${dep.name}\` is not a recipe this justfile defines`, at)
    runRecipe(run, target.mod, target.def, depArgs, [...via, callText(fullName(target.mod, target.def), depArgs)], into, [...stack, name])
  }
  for (const dep of deps) if (!dep.subsequent) callDep(dep, ran)
  recipeBody(run, mod, def, scope, at)
  const after = new Set<string>()
  for (const dep of deps) if (dep.subsequent) callDep(dep, after)
  ran.add(key)
}

/** The interpreter of a `[script]` recipe: its attribute's words, else `set script-interpreter`, else `sh -eu`. */
function scriptInterpreter(mod: JustModule, def: JustRecipeDef): string[] | undefined {
  const attr = def.item.attributes.find((a) => a.name === 'script')
  if (!attr) return undefined
  if (attr.value !== undefined) return [attr.value]
  return settingWords(mod, 'script-interpreter') ?? ['sh', '-eu']
}

function recipeBody(run: JustRun, mod: JustModule, def: JustRecipeDef, scope: ReadonlyMap<string, Value>, at: LineAt): void {
  const body = def.raw.body ?? []
  const first = def.raw.bodyLine ?? def.item.line + 1
  const script = scriptInterpreter(mod, def)
  if (script || def.item.shebang) {
    const text = unindent(body.join('\n')).replace(/\s+$/, '')
    const value = interpolate(text, run.env(mod, def.file.abs, { ...at, line: first }, scope))
    const rendered = render(value)
    const lineAt = { ...at, line: first }
    addScript(run.out, rendered, script ?? shebangWords(rendered), lineAt, `recipe \`${fullName(mod, def)}\``)
    if (holes(value).length) run.out.addUnknown(text, [...new Set(holes(value).map((h) => h.why))].join('; '), lineAt)
    return
  }
  const ignoreComments = mod.settings.has('ignore-comments') && mod.settings.get('ignore-comments')!.value !== 'false'
  for (let i = 0; i < body.length; i++) {
    let text = body[i]!.trim()
    const lineNo = first + i
    if (text === '') continue
    // A line ending in a backslash goes on in the next one, whose indentation just drops.
    while (text.endsWith('\\') && i + 1 < body.length) text = text.slice(0, -1) + body[++i]!.trim()
    if (ignoreComments && text.startsWith('#')) continue
    const stripped = text.replace(/^(@-?|-@?)/, '')
    const lineAt = { ...at, line: lineNo }
    const value = interpolate(stripped, run.env(mod, def.file.abs, lineAt, scope))
    run.out.addValue(value, stripped, lineAt)
  }
}

/**
 * The recipes a command line names, with the arguments each takes: just gives a recipe as many
 * of the following words as its parameters take (all of them for a variadic one).
 */
function commandLine(run: JustRun, first: string, words: readonly string[]): void {
  const queue = [first, ...words]
  const ran = new Set<string>()
  let i = 0
  while (i < queue.length && !run.out.full) {
    const name = queue[i++]!
    const target = resolveName(run.root, name)
    if (!target) {
      const why = `just takes \`${name}\` as a recipe to run, and the justfile defines none of that name`
      run.out.addUnknown(`just ${name}`, why, { file: run.root.source.rel, via: [`just ${name}`] })
      continue
    }
    const { params } = parseHeader(target.def.raw.toks)
    const max = params.some((p) => p.variadic) ? Infinity : params.length
    const args: Value[] = []
    while (i < queue.length && args.length < max) args.push(known(queue[i++]!))
    runRecipe(run, target.mod, target.def, args, [callText(fullName(target.mod, target.def), args)], ran, [])
  }
}

function readJust(recipe: Recipe, ctx: BodyContext, args: readonly string[]): RecipeBody {
  const via = [`just ${recipe.name}`]
  const root = rootModule(ctx)
  if (!root) return unreadable(recipe.command, 'the justfile could not be read', recipe.file, via, recipe.line)
  const run = new JustRun(ctx, root)
  run.eagerAssignments(via)
  commandLine(run, recipe.name, args)
  return run.out.result()
}

export const readJustBody: BodyReader = (recipe, ctx, args) => {
  try {
    return readJust(recipe, ctx, args)
  } catch (error) {
    // A reader never throws: whatever went wrong, the recipe's command is what is known.
    return unreadable(recipe.command, `the justfile could not be read (${reason(error)})`, recipe.file, [`just ${recipe.name}`], recipe.line)
  }
}
