/**
 * Text from a repository, a model or a cook, made safe to show on a terminal or in a line of the
 * kitchen's own: control characters (C0 but tab and newline, DEL, C1, ESC) and bidi controls
 * (U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C) are shown escaped (`\x1b`, `\u202e`), so
 * they can't repaint rows, move the cursor, write the clipboard (OSC 52), link (OSC 8) or reorder
 * what a person reads. JSON and HTML escape on their own; this is for everything else.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
// eslint-disable-next-line no-control-regex
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function escapeChar(c: string): string {
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** The text with every control and bidi character escaped, tabs and newlines kept. */
export function visible(text: string): string {
  return UNSAFE.test(text) ? ((UNSAFE.lastIndex = 0), text.replace(UNSAFE, escapeChar)) : text
}

/** The text as one line: newlines and tabs escaped too (for a value that sits inside a line). */
export function visibleLine(text: string): string {
  return UNSAFE_ONE_LINE.test(text)
    ? ((UNSAFE_ONE_LINE.lastIndex = 0), text.replace(UNSAFE_ONE_LINE, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : escapeChar(c))))
    : text
}

/** One line, at most `max` characters (an ellipsis marks the cut), escaped: a claim shown where a line of ours stands. */
export function visibleClaim(text: string, max: number): string {
  const line = visibleLine(text)
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`
}
