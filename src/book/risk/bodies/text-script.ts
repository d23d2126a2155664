/**
 * A script a runner writes to a file and runs whole (a just shebang or `[script]` recipe, a mise
 * file task or shebang `run`): one line for the shell judge when its interpreter is a POSIX shell,
 * the inline-code form (`python3 -c '<body>'`, `node -e '<body>'`) for the interpreters whose
 * inline code the rule table reads, and an unknown part naming any other interpreter.
 */
import { shellQuoteWord, type BodyBuilder, type LineAt } from './text-body.js'

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'busybox'])
/** Interpreters whose inline-code flag the judge reads, with that flag. */
const INLINE_FLAG: ReadonlyArray<[RegExp, string]> = [
  [/^python[0-9.]*$/, '-c'],
  [/^pypy[0-9.]*$/, '-c'],
  [/^node(js)?$/, '-e'],
  [/^perl[0-9.]*$/, '-e'],
  [/^ruby[0-9.]*$/, '-e'],
]

/** The interpreter words of a `#!` line (`#!/usr/bin/env -S python3 -u` → `python3 -u`); undefined without one. */
export function shebangWords(text: string): string[] | undefined {
  const first = text.split('\n', 1)[0]!.trim()
  if (!first.startsWith('#!')) return undefined
  const words = first.slice(2).trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return undefined
  if (basename(words[0]!) !== 'env') return words
  // env's own flags (-S splits the rest, -i, -u NAME, NAME=value) come before the program.
  let k = 1
  while (k < words.length && (words[k]!.startsWith('-') || words[k]!.includes('='))) {
    if (words[k] === '-u' || words[k] === '--unset' || words[k] === '-C' || words[k] === '--chdir') k++
    k++
  }
  return words.slice(k)
}

function basename(path: string): string {
  return path.replace(/^.*[\\/]/, '')
}

/** The interpreter's name (`/usr/bin/python3.12` → `python3.12`); `sh` when there is none. */
export function interpreterName(words: readonly string[] | undefined): string {
  return words && words.length > 0 ? basename(words[0]!) : 'sh'
}

/** The script without its `#!` line, for the inline-code form. */
function withoutShebang(text: string): string {
  return text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1 || text.length) : text
}

/**
 * Adds a whole script: `interpreter` is the words that run it (from a `#!` line or a `[script]`
 * attribute; undefined for a plain shell script). `what` names it in the unknown part's reason.
 */
export function addScript(out: BodyBuilder, text: string, interpreter: readonly string[] | undefined, at: LineAt, what: string): void {
  const name = interpreterName(interpreter)
  if (SHELLS.has(name)) {
    out.add(text, at)
    return
  }
  const inline = INLINE_FLAG.find(([re]) => re.test(name))
  if (inline) {
    out.add(`${shellQuoteWord(name)} ${inline[1]} ${shellQuoteWord(withoutShebang(text))}`, at)
    return
  }
  out.addUnknown(text, `${what} runs with ${name}, whose code the gate does not read`, at)
}
