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
  /** The quote the placeholder stands in (`'` or `"`), or `$` when it directly follows a `$`. */
  quotedBy?: string
}

/**
 * Lists the placeholders of a command and, for each, the quote it stands inside. A placeholder inside
 * quotes would break out of them once its value is quoted (`'{{x}}'` with x=`; rm -rf ~` gives
 * `''; rm -rf ~''`), so the validator refuses it. The scan follows POSIX quoting (which PowerShell's
 * quotes resemble closely enough here) with a stack: single quotes end at the next `'`; double quotes
 * honour backslash escapes; a command substitution (`$(...)` or backticks), even inside double quotes,
 * starts a fresh context where quoting works again, so `"$(git log -- {{path}})"` is fine.
 */
export function placeholders(command: string): Placeholder[] {
  const found: Placeholder[] = []
  // 'cmd' = unquoted context (top level or inside $( )); '(' = a nested paren inside $( ).
  const stack: string[] = ['cmd']
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    const top = stack[stack.length - 1]!
    if (command.startsWith('{{', i)) {
      PLACEHOLDER.lastIndex = i
      const m = PLACEHOLDER.exec(command)
      if (m && m.index === i) {
        // Right after `$` a value would be read as a variable name or as `$'...'` escapes.
        const quotedBy = top === '"' || top === "'" ? top : command[i - 1] === '$' ? '$' : undefined
        found.push({ name: m[1]!, index: i, ...(quotedBy ? { quotedBy } : {}) })
        i += m[0].length - 1
        continue
      }
    }
    if (top === "'") {
      if (c === "'") stack.pop()
      continue
    }
    if (c === '\\') { i++; continue }
    if (c === '$' && command[i + 1] === '(') { stack.push('cmd'); i++; continue }
    if (c === '`') {
      if (top === '`') stack.pop()
      else stack.push('`')
      continue
    }
    if (top === '"') {
      if (c === '"') stack.pop()
      continue
    }
    if (c === "'") stack.push("'")
    else if (c === '"') stack.push('"')
    else if (c === '(') stack.push('(')
    else if (c === ')' && stack.length > 1) stack.pop()
  }
  return found
}

/** Replaces every placeholder with `values[name]`, which the caller has already quoted. */
export function substitute(command: string, values: Readonly<Record<string, string>>): string {
  return command.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name]! : whole))
}
