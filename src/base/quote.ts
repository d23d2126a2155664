/**
 * The one shell-quoting rule: a word (a task name, an argument, a parameter value) onto a command
 * line, per platform. Every surface quotes through here: the collectors' command lines, the
 * arguments of a call, the curated recipes' parameters, the kitchen's and MCP client's snippets.
 *
 * - macos, linux (POSIX sh, bash, zsh): a word made only of letters and digits (any script) and
 *   `_./:@%+,-`, with `=` after its first character, stays bare (a leading `~` or `=` is quoted: bash
 *   and zsh expand them there; a leading `-` stays, since quotes don't stop a program reading an
 *   option); anything else is wrapped in single quotes, an embedded `'` written as `'\''`. Inside
 *   single quotes no shell expands anything (`$`, backticks, `\`, newlines, control characters are
 *   literal), which makes this form easy to reason about. shell-quote's `quote` escapes with
 *   backslashes instead, so it is not used here.
 * - windows (PowerShell): a narrower bare set (no `,` `@` `%` `+`), else a single-quoted PowerShell string, where nothing
 *   expands and a quote is escaped by doubling. PowerShell also closes a string on the typographic
 *   quotes U+2018, U+2019, U+201A and U+201B, so those are doubled too. Windows commands in the library
 *   are PowerShell commands; cmd.exe is not a target.
 */
/** The platforms a command line is written for (curated/schema.ts names the same three). */
type Platform = 'macos' | 'linux' | 'windows'

/** The bare POSIX set within ASCII: what the Unicode rule below allows of a word with no other character. */
const BARE_POSIX_ASCII = /^[A-Za-z0-9_./:@%+,-][A-Za-z0-9_./:@%+,=-]*$/
const NOT_ASCII = /[^\x00-\x7f]/
/**
 * The bare POSIX set, letters and digits of any script: made on the first word outside ASCII, since
 * building its Unicode classes costs about 1.5 ms of a process's start (nearly every word is ASCII).
 */
let barePosix: RegExp | undefined
/** Narrower: in PowerShell `,` builds an array and a leading `@` splats. */
const BARE_POWERSHELL = /^[A-Za-z0-9_./:][A-Za-z0-9_./:-]*$/

export function quotePosix(value: string): string {
  if (BARE_POSIX_ASCII.test(value)) return value
  if (NOT_ASCII.test(value) && (barePosix ??= /^[\p{L}\p{N}_./:@%+,-][\p{L}\p{N}_./:@%+,=-]*$/u).test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

export function quotePowerShell(value: string): string {
  if (BARE_POWERSHELL.test(value)) return value
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`
}

export function quoteFor(platform: Platform, value: string): string {
  return platform === 'windows' ? quotePowerShell(value) : quotePosix(value)
}

/** A word of a POSIX command line (a task name, an argument): as written when that is safe, else single-quoted. */
export const shellWord = quotePosix
