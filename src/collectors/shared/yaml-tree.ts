/**
 * YAML for the collectors that need to know where things are (a Taskfile's task keys, a
 * pnpm-workspace.yaml's patterns): js-yaml's event stream (`parseEvents`, which carries each
 * node's offset in the text) made into a small tree of nodes with their offsets, and the plain
 * value of any node of it. js-yaml builds values without positions, and the library that keeps
 * positions (eemeli/yaml's Document) costs four to five times as much to parse a Taskfile in a
 * process that starts cold (measured: 11 Taskfiles of 1,000 lines, 47 ms against 10 ms), so the
 * values are made here, from the tree, by the YAML 1.2 core schema with `<<` merge keys (what
 * go-task's go-yaml and pnpm's js-yaml read). A tag outside the core schema keeps the scalar's text.
 */
import { positionLocator } from './json-text.js'
import { yamlEvents } from '../../base/lazy.js'

interface NodeBase {
  /** Offset in the text where the node starts (a scalar's value, a collection's first character). */
  readonly start: number
  readonly anchor?: string
  readonly tag?: string
}
export interface YamlScalar extends NodeBase {
  readonly kind: 'scalar'
  /** The decoded text (escapes, folding and chomping applied). */
  readonly text: string
  /** Plain (unquoted, not a block scalar): only these resolve to null, booleans and numbers. */
  readonly plain: boolean
}
export interface YamlSeq extends NodeBase {
  readonly kind: 'seq'
  readonly items: YamlNode[]
}
export interface YamlMap extends NodeBase {
  readonly kind: 'map'
  readonly pairs: Array<{ readonly key: YamlNode; readonly value: YamlNode }>
}
export interface YamlAlias extends NodeBase {
  readonly kind: 'alias'
  readonly name: string
}
export type YamlNode = YamlScalar | YamlSeq | YamlMap | YamlAlias

export interface YamlDocument {
  /** The first document's root node; undefined for an empty text (only comments or nothing). */
  readonly contents: YamlNode | undefined
  /** How many documents the text holds (`---` separated). */
  readonly documents: number
  /** Anchors of the first document, by name (the last definition of a name wins, as YAML says). */
  readonly anchors: ReadonlyMap<string, YamlNode>
  /** 1-based line of an offset in the text. */
  lineAt(offset: number): number
}

export class YamlSyntaxError extends Error {
  constructor(message: string, readonly line: number | undefined, readonly column: number | undefined) {
    super(message)
  }
}

// Event ids and the plain style, as js-yaml's EVENT_ID and SCALAR_STYLE define them.
const DOCUMENT = 1
const SEQUENCE = 2
const MAPPING = 3
const SCALAR = 4
const ALIAS = 5
const POP = 6
const PLAIN = 1

/** Parses `text`; a syntax error throws YamlSyntaxError with the library's reason and the line. */
export function parseYamlTree(text: string): YamlDocument {
  const lib = yamlEvents()
  let events: ReturnType<typeof lib.parseEvents>
  try {
    events = lib.parseEvents(text, {})
  } catch (error) {
    const e = error as { reason?: string; message?: string; mark?: { line?: number; column?: number } }
    const at = (n: number | undefined) => (typeof n === 'number' ? n + 1 : undefined)
    throw new YamlSyntaxError(e.reason ?? String(e.message ?? error), at(e.mark?.line), at(e.mark?.column))
  }
  const locate = positionLocator(text)
  const lineAt = (offset: number): number => locate(offset).line
  const anchors = new Map<string, YamlNode>()
  let documents = 0
  let contents: YamlNode | undefined
  let i = 0
  const slice = (from: number, to: number): string | undefined => (from >= 0 && to > from ? text.slice(from, to) : undefined)
  // Iterative over the flat stream: a deeply nested text must not exhaust the stack.
  type Open = { node: YamlSeq | YamlMap; key: YamlNode | undefined }
  const stack: Open[] = []
  const place = (node: YamlNode): void => {
    const top = stack[stack.length - 1]
    if (!top) return void (documents === 1 && contents === undefined && (contents = node))
    if (top.node.kind === 'seq') top.node.items.push(node)
    else if (top.key === undefined) top.key = node
    else top.node.pairs.push({ key: top.key, value: node }), (top.key = undefined)
  }
  for (; i < events.length; i++) {
    const e = events[i]! as unknown as Record<string, number>
    switch (e.type) {
      case DOCUMENT:
        documents++
        break
      case SCALAR:
      case SEQUENCE:
      case MAPPING: {
        const anchor = slice(e.anchorStart!, e.anchorEnd!)
        const tag = slice(e.tagStart!, e.tagEnd!)
        const base = { ...(anchor !== undefined ? { anchor } : {}), ...(tag !== undefined ? { tag } : {}) }
        let node: YamlNode
        if (e.type === SCALAR) {
          node = { kind: 'scalar', start: e.valueStart!, text: lib.getScalarValue(text, events[i] as never), plain: e.style === PLAIN && tag === undefined, ...base }
        } else {
          node = e.type === SEQUENCE ? { kind: 'seq', start: e.start!, items: [], ...base } : { kind: 'map', start: e.start!, pairs: [], ...base }
        }
        if (anchor !== undefined && documents === 1) anchors.set(anchor, node)
        place(node)
        if (node.kind !== 'scalar') stack.push({ node, key: undefined })
        break
      }
      case ALIAS:
        place({ kind: 'alias', start: e.anchorStart! - 1, name: text.slice(e.anchorStart!, e.anchorEnd!) })
        break
      case POP:
        stack.pop()
        break
    }
  }
  return { contents, documents, anchors, lineAt }
}

const NULL = /^(?:~|null|Null|NULL|)$/
const TRUE = /^(?:true|True|TRUE)$/
const FALSE = /^(?:false|False|FALSE)$/
const INT = /^[-+]?[0-9]+$/
const OCT = /^0o[0-7]+$/
const HEX = /^0x[0-9a-fA-F]+$/
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/
const INF = /^[-+]?\.(?:inf|Inf|INF)$/
const NAN = /^\.(?:nan|NaN|NAN)$/

/** A scalar's value by the YAML 1.2 core schema: a plain scalar may be null, a boolean or a number; any other is its text. */
export function scalarValue(node: YamlScalar): string | number | boolean | null {
  if (!node.plain) {
    // `!!str 12` stays text; the core tags name what the text would have resolved to anyway.
    if (node.tag === '!!null' && NULL.test(node.text)) return null
    if (node.tag === '!!bool' && (TRUE.test(node.text) || FALSE.test(node.text))) return TRUE.test(node.text)
    const number = node.tag === '!!int' || node.tag === '!!float' ? plainNumber(node.text) : undefined
    return number ?? node.text
  }
  const t = node.text
  if (NULL.test(t)) return null
  if (TRUE.test(t)) return true
  if (FALSE.test(t)) return false
  return plainNumber(t) ?? t
}

function plainNumber(t: string): number | undefined {
  if (INT.test(t) || FLOAT.test(t)) return Number(t)
  if (OCT.test(t)) return parseInt(t.slice(2), 8)
  if (HEX.test(t)) return parseInt(t.slice(2), 16)
  if (INF.test(t)) return t.startsWith('-') ? -Infinity : Infinity
  if (NAN.test(t)) return NaN
  return undefined
}

/** The node an alias stands for (its anchor's node), or the node itself; undefined for an alias of no anchor. */
export function resolveAlias(doc: YamlDocument, node: YamlNode | undefined): YamlNode | undefined {
  return node?.kind === 'alias' ? doc.anchors.get(node.name) : node
}

/** A node's scalar value when it is a scalar, else undefined. */
export function scalarOf(node: YamlNode | undefined): string | number | boolean | null | undefined {
  return node?.kind === 'scalar' ? scalarValue(node) : undefined
}

/** Whether a mapping key is the merge key `<<` (plain, or tagged `!!merge`). */
export function isMergeKey(node: YamlNode): boolean {
  return node.kind === 'scalar' && node.text === '<<' && (node.plain || node.tag === '!!merge')
}

export class YamlValueError extends Error {}

/**
 * The plain value of a node: objects, arrays, strings, numbers, booleans and null, with aliases
 * resolved and `<<` merge keys applied (a key already in the mapping wins over a merged one).
 * An alias shares its anchor's value, so nothing is copied; but whoever walks the value walks
 * every alias's value again, so a value whose aliases expand to more than `maxAliases` (an alias
 * bomb: nine lines of nine aliases each expand to 9^9), an alias of an unknown anchor, or an
 * alias inside its own anchor throw YamlValueError.
 */
export function toPlain(doc: YamlDocument, node: YamlNode | undefined, maxAliases = 100): unknown {
  const made = new Map<YamlNode, unknown>()
  const making = new Set<YamlNode>()
  const target = (n: YamlAlias): YamlNode => {
    const t = doc.anchors.get(n.name)
    if (!t) throw new YamlValueError(`alias *${n.name} has no anchor`)
    if (making.has(t)) throw new YamlValueError(`alias *${n.name} is inside its own anchor`)
    return t
  }
  // Aliases in the value as a walker meets them (each alias once per path that reaches it).
  const expanded = new Map<YamlNode, number>()
  const aliasesIn = (n: YamlNode): number => {
    if (n.kind === 'scalar') return 0
    const known = expanded.get(n)
    if (known !== undefined) return known
    let count = 0
    if (n.kind === 'alias') {
      const t = target(n)
      making.add(n)
      try {
        count = 1 + aliasesIn(t)
      } finally {
        making.delete(n)
      }
    } else {
      making.add(n)
      try {
        for (const child of n.kind === 'seq' ? n.items : n.pairs.flatMap((p) => [p.key, p.value])) {
          count += aliasesIn(child)
          if (count > maxAliases) break
        }
      } finally {
        making.delete(n)
      }
    }
    if (count > maxAliases) throw new YamlValueError(`excessive alias count: the aliases expand to more than ${maxAliases} values (a resource exhaustion attack, or a document to write without them)`)
    expanded.set(n, count)
    return count
  }
  const value = (n: YamlNode): unknown => {
    if (n.kind === 'scalar') return scalarValue(n)
    if (n.kind === 'alias') return value(target(n))
    if (made.has(n)) return made.get(n)
    making.add(n)
    try {
      if (n.kind === 'seq') {
        const out: unknown[] = []
        made.set(n, out)
        for (const item of n.items) out.push(value(item))
        return out
      }
      const out: Record<string, unknown> = {}
      made.set(n, out)
      const merged: Record<string, unknown>[] = []
      for (const { key, value: v } of n.pairs) {
        if (isMergeKey(key)) {
          const m = value(v)
          for (const source of Array.isArray(m) ? m : [m]) {
            if (!source || typeof source !== 'object' || Array.isArray(source)) throw new YamlValueError('a merge key (<<) takes a mapping or a list of mappings')
            merged.push(source as Record<string, unknown>)
          }
          continue
        }
        const k = keyText(key, value)
        // `__proto__` as a key is data, not the object's prototype.
        Object.defineProperty(out, k, { value: value(v), enumerable: true, writable: true, configurable: true })
      }
      for (const source of merged) {
        for (const [k, v] of Object.entries(source)) {
          if (!Object.prototype.hasOwnProperty.call(out, k)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
        }
      }
      return out
    } finally {
      making.delete(n)
    }
  }
  if (node === undefined) return null
  aliasesIn(node)
  return value(node)
}

/** A mapping key as an object's property name: a scalar's value as text, a collection's JSON. */
function keyText(key: YamlNode, value: (n: YamlNode) => unknown): string {
  if (key.kind === 'scalar') return String(scalarValue(key))
  return JSON.stringify(value(key)) ?? 'null'
}
