/**
 * The simple commands of one body line, each as its words, for the JSON-manifest readers to find
 * the calls a runner follows inside its own manifest (`npm run b`, `deno task b`, `composer b`).
 * The line is parsed by unbash, the shell parser the gate judges with; a word is known only when
 * no expansion is in it. Judging the commands is the gate's (shell.ts, rules.ts): this module only
 * says what is called.
 */
import { forEachChild, parse, type SyntaxNode, type Word } from 'unbash'

export interface SimpleCommand {
  /** The command's words (name first), each its value, or undefined where it expands when the line runs. */
  readonly words: readonly (string | undefined)[]
  /** The command as written in the line. */
  readonly text: string
  /**
   * A `cd`, `pushd` or `popd` comes before it in the line: it may run in another directory, so a
   * call in it is not taken for a call into this manifest.
   */
  readonly moved: boolean
}

/** Word parts that stand for themselves. A glob stays literal in a script name (`run-s build:*`). */
const LITERAL_PARTS = new Set(['Literal', 'SingleQuoted', 'AnsiCQuoted', 'Glob'])
const MOVES = new Set(['cd', 'pushd', 'popd'])
/** More simple commands than a line can sensibly hold; the rest are not looked at for calls. */
const MAX_COMMANDS = 4_000

/** The value of a word with no expansion in it; undefined otherwise. */
export function literalWord(word: Word): string | undefined {
  if (!word.parts) return word.value
  for (const part of word.parts) {
    if (LITERAL_PARTS.has(part.type)) continue
    if (part.type === 'DoubleQuoted' && part.parts.every((c) => c.type === 'Literal')) continue
    return undefined
  }
  return word.value
}

/**
 * The simple commands of `line` in source order, through every construct (lists, pipelines,
 * subshells, substitutions). Never throws: a line the parser can't take yields what it could read.
 */
export function simpleCommands(line: string): SimpleCommand[] {
  const out: SimpleCommand[] = []
  let moved = false
  const visit = (node: SyntaxNode): void => {
    if (out.length >= MAX_COMMANDS) return
    if (node.type === 'Command') {
      const words: (string | undefined)[] = []
      if (node.name) words.push(literalWord(node.name))
      for (const arg of node.args) words.push(arg.type === 'Word' ? literalWord(arg) : arg.text)
      if (words.length > 0) out.push({ words, text: line.slice(node.pos, node.end), moved })
      if (words[0] !== undefined && MOVES.has(words[0])) moved = true
    }
    forEachChild(node, visit)
  }
  try {
    visit(parse(line))
  } catch {
    // A stack exhausted by nesting: what was read so far stands.
  }
  return out
}
