/**
 * The items of a justfile, one logical line each: attributes, recipe headers (parameters,
 * dependencies), aliases, imports and modules. Each parser takes the item's tokens and throws an
 * ItemError naming what it expected.
 */
import type { RecipeParameter } from '../../book/recipe.js'
import { interpolations, namesIn, referencedNames, type Token } from './lex.js'

export interface JustAttribute {
  readonly name: string
  /** The first argument, when there is one (`[group('ci')]` → `ci`). */
  readonly value?: string
}

export interface JustRecipeItem {
  readonly name: string
  readonly line: number
  /** `[doc('…')]` if present, else the comment line directly above (or above its attributes). */
  readonly doc: string
  readonly parameters: RecipeParameter[]
  /** Parameter names written with `$` (exported to the environment). */
  readonly exported: string[]
  /** Dependencies before and after `&&`, as written (`mod::name` stays qualified). */
  readonly dependencies: string[]
  readonly private: boolean
  readonly groups: string[]
  readonly attributes: JustAttribute[]
  /** Names read in `{{…}}` interpolations and parameter defaults (may include parameters). */
  readonly references: string[]
  readonly shebang: boolean
}

export interface JustAliasItem {
  readonly name: string
  readonly target: string
  readonly line: number
  readonly private: boolean
}

export interface JustImportItem {
  readonly path: string
  readonly optional: boolean
  readonly line: number
}

export interface JustModuleItem {
  readonly name: string
  readonly path?: string
  readonly optional: boolean
  readonly line: number
  readonly private: boolean
  readonly doc: string
}

/** A problem in one item: the parser reports it at the item's line and goes on. */
export class ItemError {
  constructor(readonly message: string) {}
}

function expect(toks: readonly Token[], k: number, what: string, test: (t: Token) => boolean): Token {
  const tok = toks[k]
  if (!tok || !test(tok)) throw new ItemError(`expected ${what}, found ${tok ? JSON.stringify(tok.v) : 'end of line'}`)
  return tok
}

const isOp = (v: string) => (t: Token) => t.t === 'op' && t.v === v
const isName = (t: Token) => t.t === 'name'

/** `[a, b('x'), c: 'y']` on one logical line, possibly several bracket groups. */
export function parseAttributes(toks: readonly Token[]): JustAttribute[] {
  const out: JustAttribute[] = []
  let k = 0
  while (k < toks.length) {
    expect(toks, k++, '[', isOp('['))
    for (;;) {
      const name = expect(toks, k++, 'an attribute name', isName).v
      let value: string | undefined
      if (toks[k]?.v === '(') {
        k++
        let depth = 1
        while (k < toks.length && depth > 0) {
          const t = toks[k]!
          if (t.t === 'op' && t.v === '(') depth++
          else if (t.t === 'op' && t.v === ')') depth--
          else if (value === undefined && t.t === 'str' && depth === 1) value = t.v
          k++
        }
        if (depth > 0) throw new ItemError(`attribute [${name}(…)] is missing its closing parenthesis`)
      } else if (toks[k]?.v === ':') {
        k++
        value = expect(toks, k++, `a string after [${name}:`, (t) => t.t === 'str').v
      }
      out.push(value === undefined ? { name } : { name, value })
      if (toks[k]?.v === ',') {
        k++
        continue
      }
      break
    }
    expect(toks, k++, '] closing the attribute', isOp(']'))
  }
  return out
}

/** A parameter default or dependency argument: one value, returning the next token index. */
function skipValue(toks: readonly Token[], k: number): number {
  const t = toks[k]
  if (!t) throw new ItemError('expected a value, found end of line')
  if (t.t === 'str' || t.t === 'bt') return k + 1
  if (t.t === 'name') {
    if (toks[k + 1]?.v === '(') return skipParens(toks, k + 1)
    return k + 1
  }
  if (t.t === 'op' && t.v === '(') return skipParens(toks, k)
  throw new ItemError(`expected a value, found ${JSON.stringify(t.v)}`)
}

function skipParens(toks: readonly Token[], k: number): number {
  let depth = 0
  do {
    const t = toks[k]
    if (!t) throw new ItemError('missing closing parenthesis')
    if (t.t === 'op' && t.v === '(') depth++
    else if (t.t === 'op' && t.v === ')') depth--
    k++
  } while (depth > 0)
  return k
}

function qualifiedName(toks: readonly Token[], k: number): [string, number] {
  let name = expect(toks, k++, 'a recipe name', isName).v
  while (toks[k]?.v === '::') {
    name += '::' + expect(toks, k + 1, 'a name after ::', isName).v
    k += 2
  }
  return [name, k]
}

export function parseRecipe(
  toks: readonly Token[],
  line: number,
  doc: string | undefined,
  attrs: JustAttribute[],
  body: readonly string[],
): JustRecipeItem {
  let k = 0
  if (toks[k]?.v === '@') k++
  const name = expect(toks, k++, 'a recipe name', isName).v
  const parameters: RecipeParameter[] = []
  const exported: string[] = []
  const references: string[] = []
  let sawVariadic = false
  while (toks[k] && !(toks[k]!.t === 'op' && toks[k]!.v === ':')) {
    if (sawVariadic) throw new ItemError(`recipe \`${name}\` has a parameter after its variadic parameter; the variadic one must be last`)
    let variadic: '+' | '*' | undefined
    if (toks[k]!.t === 'op' && (toks[k]!.v === '+' || toks[k]!.v === '*')) {
      variadic = toks[k++]!.v as '+' | '*'
      sawVariadic = true
    }
    let isExported = false
    if (toks[k]?.v === '$') {
      isExported = true
      k++
    }
    const pname = expect(toks, k++, `a parameter name or ':' in recipe \`${name}\``, isName).v
    let def: string | undefined
    if (toks[k]?.v === '=') {
      const start = k + 1
      k = skipValue(toks, start)
      const vt = toks[start]!
      def = k === start + 1 && vt.t === 'str' ? vt.v : valueSource(toks, start, k)
      if (!(k === start + 1 && vt.t === 'str')) references.push(...namesIn(toks.slice(start, k)))
    }
    if (isExported) exported.push(pname)
    parameters.push({ name: pname, ...(def !== undefined ? { default: def } : {}), ...(variadic ? { variadic } : {}) })
  }
  expect(toks, k++, `':' after recipe \`${name}\``, isOp(':'))
  const dependencies: string[] = []
  while (k < toks.length) {
    const t = toks[k]!
    if (t.t === 'op' && t.v === '&&') {
      k++
      continue
    }
    if (t.t === 'op' && t.v === '(') {
      const [dep, after] = qualifiedName(toks, k + 1)
      dependencies.push(dep)
      k = after
      while (toks[k] && toks[k]!.v !== ')') k = skipValue(toks, k)
      expect(toks, k++, `')' closing the dependency \`${dep}\``, isOp(')'))
      continue
    }
    if (t.t === 'name') {
      const [dep, after] = qualifiedName(toks, k)
      dependencies.push(dep)
      k = after
      continue
    }
    throw new ItemError(`unexpected ${JSON.stringify(t.v)} in the dependencies of recipe \`${name}\``)
  }
  for (const l of body) for (const expr of interpolations(l)) references.push(...referencedNames(expr))
  const docAttr = attrs.find((a) => a.name === 'doc')
  return {
    name,
    line,
    doc: docAttr ? docAttr.value ?? '' : doc ?? '',
    parameters,
    exported,
    dependencies,
    private: name.startsWith('_') || attrs.some((a) => a.name === 'private'),
    groups: attrs.filter((a) => a.name === 'group' && a.value !== undefined).map((a) => a.value!),
    attributes: attrs,
    references: [...new Set(references)],
    shebang: body.find((l) => l.trim() !== '')?.trimStart().startsWith('#!') ?? false,
  }
}

/** A default that is an expression, shown as just lists it: tokens joined by spaces, strings quoted. */
function valueSource(toks: readonly Token[], from: number, to: number): string {
  let s = ''
  for (let k = from; k < to; k++) {
    const t = toks[k]!
    const text = t.t === 'str' ? JSON.stringify(t.v) : t.v
    const tight = t.v === '(' || t.v === ')' || t.v === ',' || (k > from && toks[k - 1]!.v === '(')
    s += (s === '' || tight ? '' : ' ') + text
  }
  return s
}

export function parseAlias(toks: readonly Token[], line: number, attrs: JustAttribute[]): JustAliasItem {
  const name = toks[1]!.v
  const [target, k] = qualifiedName(toks, 3)
  if (k !== toks.length) throw new ItemError(`unexpected ${JSON.stringify(toks[k]!.v)} after alias \`${name}\``)
  return { name, target, line, private: name.startsWith('_') || attrs.some((a) => a.name === 'private') }
}

export function parseImport(toks: readonly Token[], line: number): JustImportItem {
  const optional = toks[1]!.v === '?'
  const pathTok = toks[optional ? 2 : 1]!
  if (toks.length > (optional ? 3 : 2)) throw new ItemError('unexpected text after the import path')
  return { path: pathTok.v, optional, line }
}

export function parseModule(toks: readonly Token[], line: number, doc: string | undefined, attrs: JustAttribute[]): JustModuleItem {
  const optional = toks[1]!.v === '?'
  let k = optional ? 2 : 1
  const name = toks[k++]!.v
  let path: string | undefined
  if (toks[k]) path = expect(toks, k++, `a path string after mod ${name}`, (t) => t.t === 'str').v
  if (toks[k]) throw new ItemError(`unexpected ${JSON.stringify(toks[k]!.v)} after mod ${name}`)
  const docAttr = attrs.find((a) => a.name === 'doc')
  return {
    name,
    ...(path !== undefined ? { path } : {}),
    optional,
    line,
    private: attrs.some((a) => a.name === 'private'),
    doc: docAttr ? docAttr.value ?? '' : doc ?? '',
  }
}
