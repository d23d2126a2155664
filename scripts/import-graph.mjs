// The product code's import graph by part (the folders of src/, and src/index.ts as `main`), checked
// against the layers ARCHITECTURE.md draws: lowest first, a part may import its own layer's other
// parts only where the table allows, and any part of a lower layer. It prints every import that runs
// from a lower layer up and every circle between parts. Type-only imports count: they tie the parts
// together for a reader just the same. Usage: node scripts/import-graph.mjs [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The layers, lowest first; the parts in one layer don't import each other. A part is a folder of
 * src/ or a path inside one (the longest that holds a file names its part): the book's model, the
 * recipe and its config, sits below the collectors that make recipes; the rest of the book above.
 */
export const LAYERS = [
  ['base'],
  ['book/recipe.ts', 'book/config.ts'],
  ['collectors'],
  ['book'],
  ['curated'],
  ['skills'],
  ['dsh', 'mcp', 'serve'],
  ['kitchen'],
  ['chef', 'cook', 'serve/kitchen'],
  ['cli', 'rows'],
  ['main'],
]
const layerOf = new Map(LAYERS.flatMap((parts, i) => parts.map((p) => [p, i])))

const root = resolve(new URL('..', import.meta.url).pathname)
const src = join(root, 'src')

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

const PARTS = LAYERS.flat().sort((a, b) => b.length - a.length)
const partOf = (file) => {
  const rel = relative(src, file)
  if (rel === 'index.ts' || rel === 'api.ts') return 'main'
  return PARTS.find((p) => rel === p || rel.startsWith(`${p}/`)) ?? `loose:${rel}`
}

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.\.?\/[^'"]+)\1/gm

/** Every relative import between product files: { from, to, fromPart, toPart }. */
export function imports() {
  const edges = []
  for (const file of walk(src)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), m[2]).replace(/\.js$/, '.ts')
      edges.push({ from: relative(root, file), to: relative(root, target), fromPart: partOf(file), toPart: partOf(target) })
    }
  }
  return edges
}

/** Imports that run from a lower layer up, or across parts of one layer; and circles between parts. */
export function check(edges = imports()) {
  const loose = [...new Set(edges.flatMap((e) => [e.fromPart, e.toPart]).filter((p) => !layerOf.has(p)))]
  const cross = edges.filter((e) => e.fromPart !== e.toPart)
  const upward = cross.filter((e) => (layerOf.get(e.fromPart) ?? 99) <= (layerOf.get(e.toPart) ?? 99))
  return { loose, upward, circles: circles(cross) }
}

/** The parts that import each other round a circle: each strongly connected set of two or more (Tarjan). */
function circles(cross) {
  const graph = new Map()
  for (const e of cross) graph.set(e.fromPart, new Set([...(graph.get(e.fromPart) ?? []), e.toPart]))
  const index = new Map(), low = new Map(), stack = [], on = new Set(), out = []
  const connect = (v) => {
    index.set(v, index.size); low.set(v, index.get(v)); stack.push(v); on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v), low.get(w))) }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) !== index.get(v)) return
    const set = []
    for (let w; w !== v;) { w = stack.pop(); on.delete(w); set.push(w) }
    if (set.length > 1) out.push(set.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) connect(v)
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = imports()
  const result = check(edges)
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2))
  else {
    const parts = new Map()
    for (const e of edges) if (e.fromPart !== e.toPart) parts.set(`${e.fromPart} -> ${e.toPart}`, (parts.get(`${e.fromPart} -> ${e.toPart}`) ?? 0) + 1)
    for (const [k, n] of [...parts].sort()) console.log(`${k}  (${n})`)
    console.log(`\nparts outside the layers: ${result.loose.join(', ') || 'none'}`)
    console.log(`imports up or across a layer: ${result.upward.length}`)
    for (const e of result.upward) console.log(`  ${e.from} -> ${e.to}`)
    console.log(`circles: ${result.circles.length}`)
    for (const c of result.circles) console.log(`  ${c.join(' <-> ')}`)
  }
}
