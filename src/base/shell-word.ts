/** A task name as one shell word: as written when that is safe, else quoted with shell-quote. */
import { shellQuote } from './lazy.js'

// Characters no POSIX shell treats specially inside a word (`:` and `@` are common in script names).
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/

export function shellWord(word: string): string {
  return SAFE_WORD.test(word) ? word : shellQuote().quote([word])
}
