/**
 * parseJustfile: one justfile's text to its items (recipes, aliases, imports, modules,
 * assignments), statically and without touching the disk. Follows just 1.57's grammar for what
 * a listing needs; an item it can't read becomes a problem with its line, and parsing goes on
 * at the next unindented line.
 */
import type { RecipeParameter } from '../src/recipe.js'
import { interpolations, logicalEnd, referencedNames, tokenize, type Token } from './just-lex.js'

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

export interface JustProblem {
  readonly line: number
  readonly message: string
}

export interface ParsedJustfile {
  readonly recipes: JustRecipeItem[]
  readonly aliases: JustAliasItem[]
  readonly imports: JustImportItem[]
  readonly modules: JustModuleItem[]
  /** Variable names assigned (`name := …`, `export name := …`). */
  readonly assignments: string[]
  /** Settings by name, value as written (`true` for bare boolean settings). */
  readonly settings: Record<string, string>
  readonly problems: JustProblem[]
}

class ItemError {
  constructor(readonly message: string, readonly line?: number) {}
}

function isIndented(line: string): boolean {
  return line.length > 0 && (line[0] === ' ' || line[0] === '\t')
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 13) return false
  }
  return true
}

/** Comment text as just shows it as a doc: after `#`, trimmed. */
function commentText(line: string): string | undefined {
  const t = line.trimEnd()
  return t.startsWith('#') ? t.slice(1).trim() : undefined
}

export function parseJustfile(text: string): ParsedJustfile {
  const lines = text.split(/\r?\n/)
  const out: ParsedJustfile = { recipes: [], aliases: [], imports: [], modules: [], assignments: [], settings: {}, problems: [] }
  let attrs: JustAttribute[] = []
  let attrLine = 0
  // The comment line directly above the current item (or its first attribute), if any.
  let pendingDoc: string | undefined
  let i = 0
  while (i < lines.length) {
    const raw = lines[i]!
    if (isBlank(raw)) {
      pendingDoc = undefined
      i++
      continue
    }
    if (isIndented(raw)) {
      // Indented text outside a recipe body: just refuses it; skip the whole block.
      out.problems.push({ line: i + 1, message: 'indented line outside a recipe body' })
      while (i < lines.length && (isIndented(lines[i]!) || isBlank(lines[i]!))) i++
      continue
    }
    const comment = commentText(raw)
    if (comment !== undefined) {
      if (attrs.length > 0) {
        out.problems.push({ line: i + 1, message: 'a comment between attributes and their item; move the comment above the attributes' })
        attrs = []
      }
      pendingDoc = comment
      i++
      continue
    }
    const end = logicalEnd(lines, i)
    const itemText = lines.slice(i, end + 1).join('\n')
    const line = i + 1
    let next = end + 1
    try {
      const toks = tokenize(itemText)
      const first = toks[0]!
      if (first.t === 'op' && first.v === '[') {
        if (attrs.length === 0) attrLine = line
        attrs.push(...parseAttributes(toks))
        i = next
        continue
      }
      const doc = pendingDoc
      pendingDoc = undefined
      const itemAttrs = attrs
      attrs = []
      const kind = itemKind(toks)
      if (kind === 'recipe') {
        const body = bodyEnd(lines, next)
        out.recipes.push(parseRecipe(toks, line, doc, itemAttrs, lines.slice(next, body)))
        next = body
      } else if (kind === 'alias') {
        out.aliases.push(parseAlias(toks, line, itemAttrs))
      } else if (kind === 'import') {
        out.imports.push(parseImport(toks, line))
      } else if (kind === 'mod') {
        out.modules.push(parseModule(toks, line, doc, itemAttrs))
      } else if (kind === 'set') {
        const name = toks[1]?.v ?? ''
        const value = toks.length > 3 ? (toks[3]!.t === 'str' ? toks[3]!.v : toks.slice(3).map((t) => t.v).join(' ')) : 'true'
        out.settings[name] = value
      } else if (kind === 'assignment') {
        const nameTok = toks[0]!.t === 'name' && toks[1]?.v === ':=' ? toks[0]! : toks[1]!
        out.assignments.push(nameTok.v)
      } else if (kind === 'unexport') {
        // nothing a listing needs
      } else {
        throw new ItemError(`expected a recipe, assignment, alias, set, import or mod, found ${JSON.stringify(itemText.split('\n')[0]!.slice(0, 40))}`)
      }
    } catch (error) {
      const msg = error instanceof ItemError ? error.message : typeof error === 'string' ? error : String(error)
      const errLine = error instanceof ItemError && error.line ? error.line : line
      out.problems.push({ line: errLine, message: msg })
      attrs = []
      pendingDoc = undefined
      // Skip this item's body too, and go on at the next unindented line.
      next = bodyEnd(lines, next)
    }
    i = next
  }
  if (attrs.length > 0) out.problems.push({ line: attrLine || lines.length, message: 'attributes at the end of the file with no item after them' })
  return out
}

type ItemKind = 'recipe' | 'alias' | 'import' | 'mod' | 'set' | 'assignment' | 'unexport' | 'unknown'

function itemKind(toks: readonly Token[]): ItemKind {
  const [a, b, c] = toks
  if (!a) return 'unknown'
  if (a.t === 'name') {
    if (b?.t === 'op' && b.v === ':=') return 'assignment'
    if (a.v === 'export' && b?.t === 'name' && c?.v === ':=') return 'assignment'
    if (a.v === 'eager' && b?.t === 'name' && c?.v === ':=') return 'assignment'
    if (a.v === 'unexport' && b?.t === 'name' && toks.length === 2) return 'unexport'
    if (a.v === 'alias' && b?.t === 'name' && c?.v === ':=') return 'alias'
    if (a.v === 'set' && b?.t === 'name' && (toks.length === 2 || c?.v === ':=')) return 'set'
    if (a.v === 'import' && (b?.t === 'str' || (b?.v === '?' && c?.t === 'str'))) return 'import'
    if (a.v === 'mod' && (b?.t === 'name' || (b?.v === '?' && c?.t === 'name'))) return 'mod'
    return 'recipe'
  }
  if (a.t === 'op' && a.v === '@' && b?.t === 'name') return 'recipe'
  return 'unknown'
}

/** Index of the first line after a recipe body: indented lines, and blank lines between them. */
function bodyEnd(lines: readonly string[], start: number): number {
  let end = start
  let k = start
  while (k < lines.length) {
    const l = lines[k]!
    if (isIndented(l) && !isBlank(l)) end = k + 1
    else if (!isBlank(l)) break
    k++
  }
  return end
}

function expect(toks: readonly Token[], k: number, what: string, test: (t: Token) => boolean): Token {
  const tok = toks[k]
  if (!tok || !test(tok)) throw new ItemError(`expected ${what}, found ${tok ? JSON.stringify(tok.v) : 'end of line'}`)
  return tok
}

const isOp = (v: string) => (t: Token) => t.t === 'op' && t.v === v
const isName = (t: Token) => t.t === 'name'

/** `[a, b('x'), c: 'y']` on one logical line, possibly several bracket groups. */
function parseAttributes(toks: readonly Token[]): JustAttribute[] {
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

function parseRecipe(
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
      if (!(k === start + 1 && vt.t === 'str')) references.push(...toks.slice(start, k).filter((t, n, a) => t.t === 'name' && a[n + 1]?.v !== '(').map((t) => t.v))
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
    shebang: body.find((l) => !isBlank(l))?.trimStart().startsWith('#!') ?? false,
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

function parseAlias(toks: readonly Token[], line: number, attrs: JustAttribute[]): JustAliasItem {
  const name = toks[1]!.v
  const [target, k] = qualifiedName(toks, 3)
  if (k !== toks.length) throw new ItemError(`unexpected ${JSON.stringify(toks[k]!.v)} after alias \`${name}\``)
  return { name, target, line, private: name.startsWith('_') || attrs.some((a) => a.name === 'private') }
}

function parseImport(toks: readonly Token[], line: number): JustImportItem {
  const optional = toks[1]!.v === '?'
  const pathTok = toks[optional ? 2 : 1]!
  if (toks.length > (optional ? 3 : 2)) throw new ItemError('unexpected text after the import path')
  return { path: pathTok.v, optional, line }
}

function parseModule(toks: readonly Token[], line: number, doc: string | undefined, attrs: JustAttribute[]): JustModuleItem {
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
