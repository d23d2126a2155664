/**
 * The line of each element of one top-level JSON list (`"tasks": [ {...}, "x", {...} ]`), in
 * order: the recipes' lines for the vscode and cmake collectors. A single pass over strings and
 * brackets, by hand because a full syntax tree just for these lines costs several times the parse.
 * The text must be JSON, or JSONC with its comments blanked out first (offsets kept).
 */
export function listObjectLines(text: string, listKey: string): number[] {
  const lines: number[] = []
  let line = 1
  let depth = 0
  let listDepth = -1
  let expect = false
  let lastString: string | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a) { line++; continue }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue
    if (expect && depth === listDepth && c !== 0x5d) {
      lines.push(line)
      expect = false
    }
    if (c === 0x22) {
      let j = i + 1
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j)
        if (d === 0x5c) j++
        else if (d === 0x22) break
        else if (d === 0x0a) line++
      }
      lastString = depth === 1 ? text.slice(i + 1, j) : undefined
      i = j
    } else if (c === 0x5b || c === 0x7b) {
      if (c === 0x5b && depth === 1 && lastString === listKey && listDepth === -1) {
        listDepth = depth + 1
        expect = true
      }
      depth++
      lastString = undefined
    } else if (c === 0x5d || c === 0x7d) {
      depth--
      if (listDepth !== -1 && depth < listDepth) return lines
    } else if (c === 0x2c) {
      if (depth === listDepth) expect = true
      if (depth === 1) lastString = undefined
    }
  }
  return lines
}
