/**
 * The shell-word reader of the curated recipe rules (curated/commands.ts; the destructive gate
 * for discovered commands parses with a real shell parser, book/risk/shell.ts): a command line split into its simple commands, each as its
 * words, with the files its output redirections write. shell-quote does the quoting and operator
 * lexing; this module only groups its tokens. `$VAR` stays as written, so an unknown target reads as
 * unknown. Policy (which prefixes to skip, what counts as harm) belongs to the callers.
 */
import { parse, type ParseEntry } from 'shell-quote'

export interface ShellLine {
  /** The simple commands, in order, split at `&&`, `||`, `;`, `|`, `&`, `|&`, `;;`, `(` and `)`. */
  commands: string[][]
  /** Targets of `>` and `>>`, except /dev/null. */
  writesFiles: string[]
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', '|&', ';;', '(', ')'])

export function readShellLine(command: string): ShellLine {
  let entries: ParseEntry[]
  try {
    entries = parse(command, (name) => `$${name}`)
  } catch {
    // An unbalanced quote: the words as whitespace splits them, so a judgement still sees the command.
    return { commands: [command.split(/\s+/).filter(Boolean)], writesFiles: [] }
  }
  const commands: string[][] = [[]]
  const writesFiles: string[] = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (typeof e === 'string') commands[commands.length - 1]!.push(e)
    else if ('comment' in e) break
    else if (e.op === 'glob') commands[commands.length - 1]!.push((e as { pattern: string }).pattern)
    else if (e.op === '>' || e.op === '>>') {
      const target = entries[i + 1]
      if (typeof target === 'string') {
        i++
        if (target !== '/dev/null') writesFiles.push(target)
      }
    } else if (e.op === '<' || e.op === '>&' || e.op === '<&') {
      // `2>&1` lexes as `2`, `>&`, `1`: a descriptor copy, not a file write; `<` reads.
      i++
    } else if (SEPARATORS.has(e.op)) commands.push([])
  }
  return { commands: commands.filter((c) => c.length > 0), writesFiles }
}

/** The script of `sh -c '...'` (and bash, zsh, dash, with combined flags such as `-lc`), if `words` is one. */
export function shellScript(words: readonly string[]): string | undefined {
  if (!['sh', 'bash', 'zsh', 'dash'].includes(words[0]?.replace(/^.*\//, '') ?? '')) return undefined
  const i = words.findIndex((w, j) => j > 0 && /^-[a-z]*c$/.test(w))
  return i > 0 ? words[i + 1] : undefined
}
