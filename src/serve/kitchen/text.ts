/**
 * Text a cook, a model or a repository wrote, made safe to put in a page. HTML escaping alone keeps
 * markup out, but a control character or a bidi override still reaches the reader: an RTL override
 * can make a diff line read differently from what it does (Trojan Source). So each such character
 * is shown as its escape (`\u202e`) in a marked span, telling it apart from the same letters typed
 * literally. JSON answers carry the same text through `visible`/`visibleLine` of src/base.
 */
import { esc } from '../pages.js'
import { duration } from '../../kitchen/derive/index.js'

// The characters src/base/visible-text.ts escapes: C0 but tab and newline, DEL, C1, the bidi controls.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export { esc }

function escapeOf(c: string): string {
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** HTML of raw text with every control and bidi character shown as a marked escape; tabs and newlines kept. */
export function markedHtml(text: string): string {
  UNSAFE.lastIndex = 0
  if (!UNSAFE.test(text)) return esc(text)
  UNSAFE.lastIndex = 0
  let out = ''
  let last = 0
  for (const m of text.matchAll(UNSAFE)) {
    const i = m.index!
    out += esc(text.slice(last, i))
    const shown = escapeOf(m[0])
    out += `<span class="ctl" title="a control character (U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) shown escaped">${shown}</span>`
    last = i + 1
  }
  return out + esc(text.slice(last))
}

/** Text cut to `max` characters with an ellipsis (a page shows a bounded amount of anything). */
export function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** A duration in one short word: 12s, 4m, 3h, 2d (the kitchen's own wording). */
export const ago = duration
