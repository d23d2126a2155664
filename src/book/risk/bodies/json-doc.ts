/**
 * The JSON and JSONC manifests the body readers of scripts, deno, composer, VS Code and Nx re-read
 * at judgement time: read through `ctx.read` (bounded, inside the root), parsed once per judgement
 * (`ctx.memo`, keyed `<source>:<abs file>`), and walked as jsonc-parser syntax trees so that a value
 * and its line come from the same node. No object is built from the file's keys while walking (a
 * `__proto__` key stays data), and the last of duplicate keys wins, as JSON.parse and deno decide.
 * The collectors read the same files at scan time (src/collectors/shared/json-text.ts has the parser words).
 */
import { join } from 'node:path'
import { kind as valueKind, parseJsonText, type Node } from '../../../collectors/shared/json-text.js'
import type { BodyContext } from '../types.js'

export type { Node } from '../../../collectors/shared/json-text.js'

export interface JsonDoc {
  /** POSIX path relative to the scan root. */
  readonly file: string
  readonly root: Node
  lineAt(offset: number): number
}

/** A manifest as read: the tree, nothing there, or why it can't be read (a syntax error, a non-object). */
export type DocRead = { readonly doc: JsonDoc } | { readonly missing: true } | { readonly error: string }

/** Deeper values are not turned into plain data (nothing real nests like that; the stack must hold). */
const MAX_PLAIN_DEPTH = 64

/**
 * Reads and parses `file` (POSIX, relative to the root). `jsonc` allows comments, trailing commas
 * and a missing comma, as deno, VS Code and Nx read their files; otherwise strict JSON, as npm,
 * yarn, pnpm, bun and composer do.
 */
export function readJsonDoc(ctx: BodyContext, source: string, file: string, jsonc: boolean): DocRead {
  const abs = join(ctx.root, file)
  const key = `${source}:${abs}`
  const memo = ctx.memo.get(key) as DocRead | undefined
  if (memo !== undefined) return memo
  const read = parseDoc(ctx.read(abs), file, jsonc)
  ctx.memo.set(key, read)
  return read
}

function parseDoc(raw: string | undefined, file: string, jsonc: boolean): DocRead {
  if (raw === undefined) return { missing: true }
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  const parsed = parseJsonText(text, jsonc)
  if (parsed.root === undefined) {
    const e = parsed.error ?? { line: 1, column: 1, message: 'syntax error' }
    return { error: `${file} can't be parsed (line ${e.line}, column ${e.column}: ${e.message})` }
  }
  if (parsed.root.type !== 'object') return { error: `${file} holds ${nodeKind(parsed.root)}, not an object` }
  return { doc: { file, root: parsed.root, lineAt: parsed.lineAt } }
}

/** The value of `key` in an object node (the last one when the key repeats); undefined otherwise. */
export function prop(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== 'object' || !node.children) return undefined
  let found: Node | undefined
  for (const p of node.children) {
    if (p.children?.length === 2 && p.children[0]!.value === key) found = p.children[1]
  }
  return found
}

/** An object node's keys in file order (the first place a key appears), each with its last value. */
export function entries(node: Node | undefined): Array<{ key: string; value: Node }> {
  if (node?.type !== 'object' || !node.children) return []
  const byKey = new Map<string, Node>()
  for (const p of node.children) {
    if (p.children?.length !== 2) continue
    byKey.set(String(p.children[0]!.value), p.children[1]!)
  }
  return [...byKey].map(([key, value]) => ({ key, value }))
}

/** A string node's value; undefined for anything else. */
export function str(node: Node | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined
}

/** An array node's elements; none for anything else. */
export function items(node: Node | undefined): Node[] {
  return node?.type === 'array' ? node.children ?? [] : []
}

/** The 1-based line where a value is written: its key's line when it is an object member. */
export function lineOfNode(doc: JsonDoc, node: Node): number {
  const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined
  return doc.lineAt((key ?? node).offset)
}

/** What a node holds, in words: `a number`, `an array`, ... */
export function nodeKind(node: Node | undefined): string {
  if (node === undefined) return 'nothing'
  switch (node.type) {
    case 'object': return 'an object'
    case 'array': return 'an array'
    default: return valueKind(node.value)
  }
}

/**
 * A node as plain data, for merging configuration layers (Nx targets): objects through
 * Object.fromEntries (own data properties, `__proto__` included, last key wins); undefined below
 * MAX_PLAIN_DEPTH levels.
 */
export function plain(node: Node | undefined, depth = 0): unknown {
  if (node === undefined || depth > MAX_PLAIN_DEPTH) return undefined
  switch (node.type) {
    case 'object': return Object.fromEntries(entries(node).map(({ key, value }) => [key, plain(value, depth + 1)]))
    case 'array': return items(node).map((n) => plain(n, depth + 1))
    default: return node.value
  }
}
