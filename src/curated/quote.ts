/**
 * Shell quoting of parameter values, per platform.
 *
 * - macos, linux (POSIX sh, bash, zsh): a value made only of `[A-Za-z0-9_./:@%+,-]` stays bare (and
 *   never starts with `-`, `~` or `=`, which bash/zsh would expand); anything else is wrapped in single
 *   quotes, an embedded `'` written as `'\''`. Inside single quotes no shell expands anything (`$`,
 *   backticks, `\`, newlines and unicode are literal), which makes this form easy to reason about.
 *   shell-quote's `quote` escapes with backslashes instead, so it is not used here.
 * - windows (PowerShell): a narrower bare set (no `,` `@` `%` `+`), else a single-quoted PowerShell string, where nothing
 *   expands and a quote is escaped by doubling. PowerShell also closes a string on the typographic
 *   quotes U+2018, U+2019, U+201A and U+201B, so those are doubled too. Windows commands in the library
 *   are PowerShell commands; cmd.exe is not a target.
 */
import type { Platform } from './schema.js'

const BARE_POSIX = /^[A-Za-z0-9_./:@%+,][A-Za-z0-9_./:@%+,-]*$/
/** Narrower: in PowerShell `,` builds an array and a leading `@` splats. */
const BARE_POWERSHELL = /^[A-Za-z0-9_./:][A-Za-z0-9_./:-]*$/

export function quotePosix(value: string): string {
  if (BARE_POSIX.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

export function quotePowerShell(value: string): string {
  if (BARE_POWERSHELL.test(value)) return value
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`
}

export function quoteFor(platform: Platform, value: string): string {
  return platform === 'windows' ? quotePowerShell(value) : quotePosix(value)
}
