/**
 * Shell text into the simple commands a shell would run, for the gate. The parsing is unbash's
 * (a maintained, typed, zero-dependency bash parser: chosen over mvdan/sh built to WebAssembly and
 * tree-sitter-bash for its cost, measured on 1,000 build lines in one process on this project's
 * machine: about 25 ms to load and 50-90 us a line, against 60-70 ms and 6 ms a line for sh-syntax's
 * WebAssembly build of mvdan/sh, and 50 ms and 120-170 us a line for web-tree-sitter with
 * tree-sitter-bash, which also needs an asynchronous start).
 *
 * This module walks every construct unbash gives (lists, pipelines, subshells, groups, if/for/while/
 * case, functions, command and process substitution, backticks, here-documents, redirections) down
 * to `Command` nodes, and hands each on as words. It knows nothing of what is harmful: wrappers,
 * `sh -c` and the rule table are `rules.ts`'s.
 */
import { forEachChild, parse, type Command, type Redirection, type SyntaxNode, type Word, type WordPart } from 'unbash'

/** One word of a command as the gate reads it. */
export interface ShellWord {
  /** The word after quote removal, where that is known; the source text of expansions kept as written. */
  readonly value: string
  /** As written in the source. */
  readonly text: string
  /** It holds an expansion (`$VAR`, `$(...)`, `` `...` ``, `$((...))`): its value is known only when it runs. */
  readonly dynamic: boolean
  /** It holds an unquoted glob or brace expansion (`*.o`, `{a,b}`): it names a set of paths. */
  readonly pattern: boolean
}

/** A redirection that writes a file: `>`, `>|`, `&>` truncate; `>>`, `&>>` append. */
export interface FileWrite {
  readonly target: ShellWord
  readonly truncates: boolean
}

/** One simple command: its assignments, its words, the files its redirections write. */
export interface SimpleCommand {
  readonly assignments: readonly { name: string; value: ShellWord }[]
  readonly words: readonly ShellWord[]
  readonly writes: readonly FileWrite[]
  /** The command's source text, for messages. */
  readonly text: string
  /** The directory a preceding `cd` in the same text moved to (relative, as written), when there was one. */
  readonly cd?: string
  /** What its standard input holds when the text says (a here-document's or here-string's text). */
  readonly stdin?: string
  /** It reads the output of the command before it in a pipeline (`... | sh`). */
  readonly piped?: true
}

export interface ParsedShell {
  readonly commands: readonly SimpleCommand[]
  /** The text could not be parsed whole (an unclosed quote, a syntax error): what was read is partial. */
  readonly broken: boolean
}

/** Texts longer than this are not parsed: a body line this long is judged as unknown. */
export const MAX_SHELL_TEXT = 256 * 1024
/** Simple commands one text may give before the rest is dropped (and the text counts as broken). */
const MAX_COMMANDS = 20_000

const DYNAMIC_PARTS = new Set(['SimpleExpansion', 'ParameterExpansion', 'CommandExpansion', 'ArithmeticExpansion', 'ProcessSubstitution'])
const PATTERN_PARTS = new Set(['Glob', 'ExtendedGlob', 'BraceExpansion'])

function partsAre(parts: readonly WordPart[] | undefined, kinds: Set<string>, quoted = false): boolean {
  if (!parts) return false
  for (const part of parts) {
    if (kinds.has(part.type) && !(quoted && PATTERN_PARTS.has(part.type))) return true
    const inner = (part as { parts?: readonly WordPart[] }).parts
    if (inner && partsAre(inner, kinds, quoted || part.type === 'DoubleQuoted')) return true
  }
  return false
}

export function shellWord(word: Word): ShellWord {
  return {
    value: word.value ?? word.text,
    text: word.text,
    dynamic: partsAre(word.parts, DYNAMIC_PARTS),
    pattern: partsAre(word.parts, PATTERN_PARTS),
  }
}

/** A literal word, for words that come from elsewhere (a call's arguments, a wrapper's string). */
export function literalWord(value: string): ShellWord {
  return { value, text: value, dynamic: false, pattern: false }
}

function writesOf(redirects: readonly Redirection[]): FileWrite[] {
  const out: FileWrite[] = []
  for (const r of redirects) {
    if (r.type !== 'Redirect' || !r.target) continue
    const op = r.operator
    if (op === '>' || op === '>|' || op === '&>') out.push({ target: shellWord(r.target), truncates: true })
    else if (op === '>>' || op === '&>>') out.push({ target: shellWord(r.target), truncates: false })
    // `>&` with a word that is not a descriptor (`>& file`) writes a file too.
    else if (op === '>&' && !/^\d+$|^-$/.test(r.target.value ?? r.target.text)) out.push({ target: shellWord(r.target), truncates: true })
  }
  return out
}

/**
 * The simple commands of a shell text, in source order, substitutions and function bodies
 * included (a function's body is judged whether or not it is called: it is the text's to run).
 */
export function parseShell(text: string): ParsedShell {
  if (text.length > MAX_SHELL_TEXT) return { commands: [], broken: true }
  let script: ReturnType<typeof parse>
  try {
    script = parse(text)
  } catch {
    return { commands: [], broken: true }
  }
  const commands: SimpleCommand[] = []
  let broken = (script.errors?.length ?? 0) > 0
  let cd: string | undefined
  const piped = new Set<SyntaxNode>()
  const visit = (node: SyntaxNode): void => {
    if (commands.length >= MAX_COMMANDS) return void (broken = true)
    if ((node as { errors?: unknown[] }).errors?.length) broken = true
    if (node.type === 'Pipeline') for (const c of (node as unknown as { commands: SyntaxNode[] }).commands.slice(1)) piped.add(c)
    if (node.type === 'Command') {
      const simple = simpleCommand(node, text, cd, piped.has(node))
      if (simple.words[0]?.value === 'cd' && simple.words.length === 2 && !simple.words[1]!.dynamic) cd = joinCd(cd, simple.words[1]!.value)
      commands.push(simple)
    } else if (node.type === 'Redirected') {
      const writes = writesOf(node.redirects)
      if (writes.length) commands.push({ assignments: [], words: [], writes, text: text.slice(node.pos, node.end), ...(cd ? { cd } : {}) })
    }
    forEachChild(node, visit)
  }
  visit(script as unknown as SyntaxNode)
  return { commands, broken }
}

function joinCd(from: string | undefined, to: string): string {
  if (to.startsWith('/') || to.startsWith('~') || from === undefined) return to
  return `${from}/${to}`
}

function simpleCommand(node: Command, text: string, cd: string | undefined, isPiped: boolean): SimpleCommand {
  const assignments: { name: string; value: ShellWord }[] = []
  for (const p of node.prefix) {
    if (p.type === 'Assignment' && p.value.type === 'Word') assignments.push({ name: p.name, value: shellWord(p.value) })
  }
  const words: ShellWord[] = []
  if (node.name) words.push(shellWord(node.name))
  for (const a of node.args) if (a.type === 'Word') words.push(shellWord(a))
  const command: Mutable<SimpleCommand> = { assignments, words, writes: writesOf(node.redirects), text: text.slice(node.pos, node.end) }
  if (cd !== undefined) command.cd = cd
  const stdin = stdinOf(node.redirects)
  if (stdin !== undefined) command.stdin = stdin
  if (isPiped) command.piped = true
  return command
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** The text a here-document or here-string feeds the command, when it has one. */
function stdinOf(redirects: readonly Redirection[]): string | undefined {
  for (const r of redirects) {
    if (r.type === 'HereDoc') return r.body.text
    if (r.type === 'HereString' && r.target) return r.target.value ?? r.target.text
  }
  return undefined
}

/**
 * Words of a string as a shell would split it, when it is only words: undefined when it holds an
 * operator, a newline, a redirection, an expansion or a substitution (what `callWords` refuses).
 */
export function plainWords(text: string): { words: string[] } | { problem: string } {
  if (/[\n\r]/.test(text)) return { problem: 'it holds a line break' }
  // What a shell would treat as syntax, outside quotes (single quotes hide everything; double quotes all but `$` and backticks).
  const bare = text.replace(/'[^']*'/g, "''").replace(/"(?:[^"\\$`]|\\.)*"/g, '""')
  if (/\$\(|`|\$\{|\$[A-Za-z_0-9@*#?$!-]/.test(bare)) return { problem: 'it holds an expansion or a substitution (`$...`, `$(...)` or backticks), which the shell would run' }
  if (/[;&|]/.test(bare)) return { problem: 'it holds a shell operator (`;`, `&&`, `||`, `|` or `&`)' }
  if (/[<>]/.test(bare)) return { problem: 'it holds a redirection (`<` or `>`)' }
  if (/[(){}]/.test(bare.replace(/\{[^{}\s]*,[^{}\s]*\}/g, ''))) return { problem: 'it holds shell grouping (`(`, `)`, `{` or `}`)' }
  const parsed = parseShell(text)
  if (parsed.broken) return { problem: 'it is not complete shell text (an unclosed quote?)' }
  if (parsed.commands.length > 1) return { problem: 'it holds more than one command' }
  const only = parsed.commands[0]
  if (!only) return { words: [] }
  if (only.writes.length) return { problem: 'it holds a redirection' }
  // `VAR=1 --watch` parses as an assignment before a command; as arguments they are two words, in order.
  const all = [...only.assignments.map((a) => ({ ...a.value, value: `${a.name}=${a.value.value}`, text: `${a.name}=${a.value.text}` })), ...only.words]
  const dynamic = all.find((w) => w.dynamic)
  if (dynamic) return { problem: `\`${dynamic.text}\` is an expansion or a substitution, which the shell would run` }
  return { words: all.map((w) => w.value) }
}
