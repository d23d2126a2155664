/**
 * Where a TOML key is defined, for recipe lines: smol-toml gives values, not positions. A line
 * scan finds `[a.b.key]` / `[[a.b.key]]` table headers and `key = ...` lines inside the `[a.b]`
 * table (bare or quoted keys, dotted `key.sub = ...` too). Best effort: a key it can't place has
 * no line, which the Recipe allows. Hand-written because no TOML parser on npm keeps positions.
 */

/** The dotted key path of a header line's text (`tool.poe.tasks."a b"` → ['tool','poe','tasks','a b']). */
function splitKey(text: string): string[] | undefined {
  const parts: string[] = []
  let i = 0
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === '\t') i++
    let part = ''
    if (text[i] === '"' || text[i] === "'") {
      const q = text[i]!
      const end = text.indexOf(q, i + 1)
      if (end === -1) return undefined
      part = text.slice(i + 1, end)
      i = end + 1
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i))
      if (!m) return undefined
      part = m[0]
      i += part.length
    }
    parts.push(part)
    while (text[i] === ' ' || text[i] === '\t') i++
    if (i < text.length && text[i] !== '.') return undefined
    i++
  }
  return parts
}

export class TomlLines {
  /** Every prefix of every defined path (joined with NUL) → the first line defining it: lookups stay O(1). */
  private readonly first = new Map<string, number>()

  private add(path: readonly string[], line: number): void {
    let key = ''
    for (let k = 0; k < path.length; k++) {
      key = k === 0 ? path[0]! : `${key}\0${path[k]}`
      if (!this.first.has(key)) this.first.set(key, line)
    }
  }

  constructor(text: string) {
    let table: string[] = []
    const lines = text.split('\n')
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!.trim()
      if (line === '' || line.startsWith('#')) continue
      const header = /^\[\[?([^\]]*)\]\]?\s*(#.*)?$/.exec(line)
      if (header) {
        table = splitKey(header[1]!.trim()) ?? []
        this.add(table, n + 1)
        continue
      }
      const eq = line.indexOf('=')
      if (eq > 0) {
        const key = splitKey(line.slice(0, eq).trim())
        if (key) this.add([...table, ...key], n + 1)
      }
    }
  }

  /** The first line that defines `path` (a table header or a key, dotted or not), or undefined. */
  lineOf(path: readonly string[]): number | undefined {
    return this.first.get(path.join('\0'))
  }
}
