/**
 * `{{param}}` placeholders in recipe commands: finding them, checking they stand outside quotes,
 * and substituting already-quoted values.
 */

/** `{{name}}`, with optional spaces inside the braces. */
const PLACEHOLDER = /\{\{\s*([^{}\s]*)\s*\}\}/g

export interface Placeholder {
  name: string
  /** Offset of `{{` in the command. */
  index: number
  /** The quote the placeholder stands in, if any: `'`, `"` or `` ` ``. */
  quotedBy?: string
}

/**
 * Lists the placeholders of a command and, for each, the quote it stands inside. A placeholder inside
 * quotes would break out of them once its value is quoted (`'{{x}}'` with x=`; rm -rf ~` gives
 * `''; rm -rf ~''`), so the validator refuses it. The scan follows POSIX and PowerShell quoting well
 * enough for this purpose: single quotes end at the next `'`, double quotes honour backslash escapes,
 * and a backtick (POSIX command substitution) counts as a quote.
 */
export function placeholders(command: string): Placeholder[] {
  const found: Placeholder[] = []
  let quote: string | undefined
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (command.startsWith('{{', i)) {
      PLACEHOLDER.lastIndex = i
      const m = PLACEHOLDER.exec(command)
      if (m && m.index === i) {
        found.push({ name: m[1]!, index: i, ...(quote ? { quotedBy: quote } : {}) })
        i += m[0].length - 1
        continue
      }
    }
    if (quote === undefined) {
      if (c === '\\') i++
      else if (c === "'" || c === '"' || c === '`') quote = c
    } else if (quote === '"') {
      if (c === '\\') i++
      else if (c === '"') quote = undefined
    } else if (c === quote) quote = undefined
  }
  return found
}

/** Replaces every placeholder with `values[name]`, which the caller has already quoted. */
export function substitute(command: string, values: Readonly<Record<string, string>>): string {
  return command.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name]! : whole))
}
