/**
 * parseJustfile: one justfile's text to its items (recipes, aliases, imports, modules,
 * assignments), statically and without touching the disk. Follows just 1.57's grammar for what
 * a listing needs; an item it can't read becomes a problem with its line, and parsing goes on
 * at the next unindented line.
 */
import { logicalEnd, namesIn, tokenize, type Token } from './lex.js'
import {
  ItemError,
  parseAlias,
  parseAttributes,
  parseImport,
  parseModule,
  parseRecipe,
  type JustAliasItem,
  type JustAttribute,
  type JustImportItem,
  type JustModuleItem,
  type JustRecipeItem,
} from './items.js'

export type { JustAliasItem, JustAttribute, JustImportItem, JustModuleItem, JustRecipeItem } from './items.js'

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
  /** The variables each assignment's value reads, with the assignment's line. */
  readonly assignmentUses: Array<{ line: number; names: string[] }>
  /** Settings by name, value as written (`true` for bare boolean settings). */
  readonly settings: Record<string, string>
  readonly problems: JustProblem[]
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

/** One item as read, for readers that need more than a listing (the destructive gate's body reader). */
export interface JustRawItem {
  readonly kind: 'recipe' | 'alias' | 'set' | 'assignment'
  readonly line: number
  readonly toks: readonly Token[]
  /** The item's text (its logical line): token offsets point into it. */
  readonly text: string
  /** A recipe's body lines as written, and the 1-based line of the first. */
  readonly body?: readonly string[]
  readonly bodyLine?: number
}

/** Parses a justfile; `visit`, when given, sees every item read without a problem, in file order. */
export function parseJustfile(text: string, visit?: (item: JustRawItem) => void): ParsedJustfile {
  // A CR before the newline is whitespace to every check below.
  const lines = text.split('\n')
  const out: ParsedJustfile = { recipes: [], aliases: [], imports: [], modules: [], assignments: [], assignmentUses: [], settings: {}, problems: [] }
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
    const { end, closed } = logicalEnd(lines, i)
    const itemText = lines.slice(i, end + 1).join('\n')
    const line = i + 1
    let next = end + 1
    try {
      const toks = tokenize(itemText)
      if (!closed) throw new ItemError('a bracket opened on this line is never closed')
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
        visit?.({ kind, line, toks, text: itemText, body: lines.slice(next, body), bodyLine: next + 1 })
        next = body
      } else if (kind === 'alias') {
        out.aliases.push(parseAlias(toks, line, itemAttrs))
        visit?.({ kind, line, toks, text: itemText })
      } else if (kind === 'import') {
        out.imports.push(parseImport(toks, line))
      } else if (kind === 'mod') {
        out.modules.push(parseModule(toks, line, doc, itemAttrs))
      } else if (kind === 'set') {
        const name = toks[1]?.v ?? ''
        const value = toks.length > 3 ? (toks[3]!.t === 'str' ? toks[3]!.v : toks.slice(3).map((t) => t.v).join(' ')) : 'true'
        out.settings[name] = value
        visit?.({ kind, line, toks, text: itemText })
      } else if (kind === 'assignment') {
        const at = toks[0]!.t === 'name' && toks[1]?.v === ':=' ? 0 : 1
        out.assignments.push(toks[at]!.v)
        out.assignmentUses.push({ line, names: namesIn(toks.slice(at + 2)) })
        visit?.({ kind, line, toks, text: itemText })
      } else if (kind === 'unexport') {
        // nothing a listing needs
      } else {
        throw new ItemError(`expected a recipe, assignment, alias, set, import or mod, found ${JSON.stringify(itemText.split('\n')[0]!.slice(0, 40))}`)
      }
    } catch (error) {
      const msg = error instanceof ItemError ? error.message : typeof error === 'string' ? error : String(error)
      out.problems.push({ line, message: msg })
      attrs = []
      pendingDoc = undefined
      // Skip this item's body too, and go on at the next unindented line. A quote or bracket
      // that never closes took the following lines with it: give them back.
      next = bodyEnd(lines, closed ? next : i + 1)
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

