// Shared pieces of the line-based fuzz tests: a corpus read from a fixture folder, and mutations
// of a text (delete, duplicate, swap, random bytes, token runs, token insertions, plus the three
// format-specific stressors each test passes in).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Every fixture file under `dir` except the expected-output JSON files. */
export function corpus(dir) {
  const texts = []
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) walk(p)
      else if (!name.endsWith('.json')) texts.push(readFileSync(p, 'utf8'))
    }
  }
  walk(dir)
  return texts
}

/** A mutated copy of `text`: up to `maxSteps` edits; `stressors` are three (pick) => lines-to-insert makers. */
export function mutate(text, r, { tokens, maxSteps, stressors }) {
  let lines = text.split('\n')
  const pick = (n) => Math.floor(r() * n)
  const steps = 1 + pick(maxSteps)
  for (let s = 0; s < steps; s++) {
    const i = pick(lines.length + 1)
    const kind = pick(9)
    switch (kind) {
      case 0: lines.splice(i, 1); break
      case 1: lines.splice(i, 0, lines[pick(lines.length)] ?? ''); break
      case 2: { const j = pick(lines.length); [lines[i], lines[j]] = [lines[j], lines[i]]; break }
      case 3: lines.splice(i, 0, Array.from({ length: pick(40) }, () => String.fromCharCode(pick(256))).join('')); break
      case 4: lines.splice(i, 0, Array.from({ length: 1 + pick(6) }, () => tokens[pick(tokens.length)]).join(pick(2) ? ' ' : '')); break
      case 5: { const line = lines[i] ?? ''; const at = pick(line.length + 1); lines[i] = line.slice(0, at) + tokens[pick(tokens.length)] + line.slice(at); break }
      default: lines.splice(i, 0, stressors[kind - 6](pick)); break
    }
    if (lines.length === 0) lines = ['']
  }
  return lines.join('\n')
}

/** Up to 60 lines of random tokens and words. */
export function randomText(r, tokens) {
  const pick = (n) => Math.floor(r() * n)
  return Array.from({ length: pick(60) }, () => Array.from({ length: pick(8) }, () => (pick(3) ? tokens[pick(tokens.length)] : `w${pick(20)}`)).join(pick(2) ? ' ' : '')).join('\n')
}
