/**
 * pnpm-workspace.yaml: its `packages` patterns. The usual file is read line by line; anything
 * else goes to the YAML library.
 */
import { parseYamlTree, resolveAlias, scalarOf, toPlain, YamlSyntaxError, type YamlDocument, type YamlNode } from './yaml-tree.js'
import type { ManifestProblem } from '../scripts/manifest.js'

// The usual pnpm-workspace.yaml, line by line: comments, blank lines, `packages:` and its items as
// plain or quoted scalars. Loading the YAML library costs more than a whole small scan (measured
// with bench/scan.bench.mjs), so this shape is read directly; anything else (other keys, anchors,
// flow style, escapes, tags) goes to the library. The fuzz test checks both agree.
const YAML_SKIP = /^\s*(?:#.*)?$/
const YAML_PACKAGES = /^packages:[ \t]*(?:#.*)?$/
const YAML_ITEM = /^([ \t]*)-[ \t]+(?:'([^']*)'|"([^"\\]*)"|([A-Za-z0-9_.\/][^\s#'"]*?))[ \t]*(?:[ \t]#.*)?$/

function simplePnpmWorkspace(text: string): string[] | undefined {
  let patterns: string[] | undefined
  let indent: string | undefined
  for (const line of text.split(/\r?\n/)) {
    if (YAML_SKIP.test(line)) continue
    if (patterns === undefined) {
      if (!YAML_PACKAGES.test(line)) return undefined
      patterns = []
      continue
    }
    const item = YAML_ITEM.exec(line)
    if (item === null || (indent !== undefined && item[1] !== indent)) return undefined
    const plain = item[4]
    // `a: b` is a mapping; `null`, `true`, `1.5`, `0x1f`, `.inf` are not strings in YAML.
    if (plain !== undefined && (/: |:$/.test(plain) || /^[0-9.]|^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(plain))) return undefined
    indent = item[1]
    patterns.push(item[2] ?? item[3] ?? plain!)
  }
  return patterns
}

/** The `packages` patterns of a pnpm-workspace.yaml; undefined when it lists none. */
export function parsePnpmWorkspace(text: string): { patterns?: string[]; problems: ManifestProblem[] } {
  const problems: ManifestProblem[] = []
  const simple = simplePnpmWorkspace(text)
  if (simple !== undefined) return simple.length ? { patterns: simple, problems } : { problems }
  let doc: YamlDocument
  try {
    doc = parseYamlTree(text)
  } catch (error) {
    if (!(error instanceof YamlSyntaxError)) throw error
    problems.push({
      ...(error.line ? { line: error.line } : {}),
      severity: 'error',
      message: `pnpm-workspace.yaml is not valid YAML${error.line ? ` at line ${error.line}${error.column ? `, column ${error.column}` : ''}` : ''}: ${error.message}; workspace packages are not listed until it is fixed`,
    })
    return { problems }
  }
  const lineOf = (node: YamlNode | undefined) => (node ? { line: doc.lineAt(node.start) } : {})
  if (doc.contents === undefined) return { problems }
  let data: unknown
  try {
    data = toPlain(doc, doc.contents)
  } catch (error) {
    // An alias with no anchor, or an alias bomb past the limit.
    problems.push({ line: 1, severity: 'error', message: `pnpm-workspace.yaml can't be read: ${(error as Error).message}; workspace packages are not listed until it is fixed` })
    return { problems }
  }
  if (data === null) return { problems }
  if (typeof data !== 'object' || Array.isArray(data)) {
    problems.push({ line: 1, severity: 'error', message: 'pnpm-workspace.yaml must be a mapping with a "packages:" list; workspace packages are not listed' })
    return { problems }
  }
  const packages = (data as Record<string, unknown>).packages
  if (packages === undefined || packages === null) return { problems }
  const top = doc.contents.kind === 'map' ? doc.contents : undefined
  const field = top?.pairs.find((p) => p.key.kind === 'scalar' && String(scalarOf(p.key)) === 'packages')?.value
  const node = resolveAlias(doc, field)
  const items = node?.kind === 'seq' ? node.items : []
  if (!Array.isArray(packages)) {
    problems.push({ ...lineOf(node), severity: 'error', message: '"packages" in pnpm-workspace.yaml must be a list of glob patterns; workspace packages are not listed' })
    return { problems }
  }
  const patterns: string[] = []
  packages.forEach((p, i) => {
    if (typeof p === 'string') patterns.push(p)
    else problems.push({ ...lineOf(items[i]), severity: 'error', message: `pnpm-workspace.yaml package pattern must be a string, not ${JSON.stringify(p)}; it is ignored` })
  })
  return { patterns, problems }
}

