/**
 * A VS Code task's command line as VS Code builds it on Linux and macOS
 * (terminalTaskSystem.ts `_buildShellCommandLine`, bash quoting): for a `shell` task, the command
 * and args joined with spaces, a string with an unquoted space wrapped in single quotes, a
 * `{ value, quoting }` quoted as it asks (`strong` '...', `weak` "...", `escape` with backslashes);
 * a string without spaces reaches the shell as written, operators and all. For a `process` task,
 * each word is one argv entry, quoted here so that the line means the same to a shell. The
 * `${...}` variables VS Code fills in are substituted where their value is known statically;
 * the others stay as shell expansions (unknown words) and are named, for an unknown part.
 */
import { shellWord } from '../../../base/quote.js'

/** A task's command or argument: a string, or a value with how to quote it. */
export type CommandString = string | { readonly value: string; readonly quoting?: string }

export interface Substitution {
  /** `.` or `../..`: the workspace folder as seen from the directory the line runs in. */
  readonly up: string
  readonly folderName: string
}

export interface Resolved<T> {
  readonly value: T
  /** The variables only VS Code can fill in (`${input:name}`, `${file}`, ...), as written. */
  readonly unknown: readonly string[]
}

/** VS Code's `${...}` variables in one string (its own regular expression, non-greedy). */
const VARIABLE = /\$\{(.*?)\}/g

/**
 * `value` with the static variables substituted: the workspace folder (as `up`), its base name,
 * the path separator; `${env:X}` and `${userHome}` become shell expansions (`${X}`, `${HOME}`),
 * which is what they stand for. Others are kept as written and listed.
 */
export function substitute(value: string, sub: Substitution): Resolved<string> {
  const unknown: string[] = []
  const text = value.replace(VARIABLE, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceRoot' || name === 'cwd' || name.startsWith('workspaceFolder:')) return sub.up
    if (name === 'workspaceFolderBasename' || name === 'workspaceRootFolderName') return sub.folderName
    if (name === 'pathSeparator' || name === '/') return '/'
    if (name === 'userHome') return '${HOME}'
    if (name.startsWith('env:') && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.slice(4))) return `\${${name.slice(4)}}`
    unknown.push(whole)
    return whole
  })
  return { value: text, unknown }
}

/** A command string with its variables substituted. */
export function substituteCommand(value: CommandString, sub: Substitution): Resolved<CommandString> {
  if (typeof value === 'string') return substitute(value, sub)
  const r = substitute(value.value, sub)
  return { value: { value: r.value, ...(value.quoting !== undefined ? { quoting: value.quoting } : {}) }, unknown: r.unknown }
}

/** VS Code's needsQuotes for bash: an unquoted space, unless the whole string is already quoted. */
function needsQuotes(value: string): boolean {
  if (value.length >= 2) {
    const first = value[0] === "'" || value[0] === '"' ? value[0] : undefined
    if (first !== undefined && first === value[value.length - 1]) return false
  }
  let quote: string | undefined
  for (const ch of value) {
    if (ch === quote) quote = undefined
    else if (quote !== undefined) continue
    else if (ch === "'" || ch === '"') quote = ch
    else if (ch === ' ') return true
  }
  return false
}

/** VS Code's quote(): strong, weak, or escape (its character class escapes a space, both quotes and a comma). */
function quote(value: string, kind: string | undefined): string {
  if (kind === 'strong') return `'${value}'`
  if (kind === 'weak') return `"${value}"`
  if (kind === 'escape') return value.replace(/[ ,"']/g, (c) => `\\${c}`)
  return value
}

function quoteIfNecessary(value: CommandString): string {
  if (typeof value === 'string') return needsQuotes(value) ? quote(value, 'strong') : value
  return quote(value.value, value.quoting)
}

/** The command line of a `shell` task. `original` is the command before substitution. */
export function shellLine(command: CommandString, original: CommandString, args: readonly CommandString[]): string {
  if (args.length === 0 && typeof command === 'string' && (command === original || (typeof original === 'string' && needsQuotes(original)))) return command
  return [command, ...args].map(quoteIfNecessary).join(' ')
}

/** The command line of a `process` task: each word quoted, its shell expansions kept live. */
export function processLine(command: CommandString, args: readonly CommandString[]): string {
  return [command, ...args].map((w) => processWord(typeof w === 'string' ? w : w.value)).join(' ')
}

/** One argv word for a shell: `${X}` (what a variable became) stays an expansion inside double quotes. */
function processWord(word: string): string {
  if (!word.includes('${')) return shellWord(word)
  let out = ''
  let from = 0
  for (const m of word.matchAll(/\$\{[^}]*\}/g)) {
    out += doubleQuoted(word.slice(from, m.index)) + m[0]
    from = m.index + m[0].length
  }
  return `"${out}${doubleQuoted(word.slice(from))}"`
}

function doubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`)
}
