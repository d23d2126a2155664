/**
 * A call's extra words that make the runner run code of their own, or run somewhere else: they
 * ask like a destructive body. `make --eval=...`, a makefile or directory outside the repository,
 * a `VAR=value` whose value is shell code or a destructive command, npm's `--prefix` outside it.
 * The words themselves are always quoted into the command line (index.ts), so none is shell text.
 */
import { isAbsolute, relative, resolve } from 'node:path'
import type { Recipe } from '../recipe.js'
import { DESTRUCTIVE_WORDS } from './rules.js'
import type { Finding } from './types.js'

/** Options, per runner, that name a file or directory the runner then reads or runs in. */
const PLACE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  make: ['-f', '--file', '--makefile', '-C', '--directory', '-I', '--include-dir'],
  just: ['-f', '--justfile', '-d', '--working-directory', '--dotenv-path'],
  task: ['-t', '--taskfile', '-d', '--dir'],
  npm: ['--prefix', '-C', '--userconfig', '--globalconfig'],
  pnpm: ['--prefix', '-C', '--dir'],
  yarn: ['--cwd'],
  bun: ['--cwd', '--config', '-c'],
  deno: ['--config', '-c'],
  mise: ['-C', '--cd'],
  composer: ['-d', '--working-dir'],
  cargo: ['--manifest-path', '--config', '-C'],
  poe: ['-C', '--directory', '--root'],
}

/** Options that make the runner run code given in the word itself. */
const CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  make: ['--eval', '-E'],
  just: ['--shell', '--shell-arg', '--set'],
  npm: ['--script-shell', '--node-options', '--shell'],
  pnpm: ['--script-shell', '--shell-emulator', '--node-options'],
  yarn: ['--script-shell'],
  bun: ['--shell', '--preload', '-r', '--require'],
  deno: ['--eval'],
  cargo: ['--config'],
  task: ['--exit-code'],
}

const SHELL_SYNTAX = /[$`;|&<>(){}\n\\]/

/** The findings a call's words give, before the body is read (the body reader sees `VAR=value` too). */
export function argumentFindings(recipe: Recipe, words: readonly string[], root: string): Finding[] {
  const runner = recipe.command.split(/\s+/)[0]?.replace(/^.*\//, '') ?? recipe.runner
  const findings: Finding[] = []
  const add = (word: string, reason: string, kind: Finding['kind'] = 'runs-code') => findings.push({ command: word, reason, kind, file: recipe.file, via: [] })
  const places = PLACE_OPTIONS[runner] ?? []
  const code = CODE_OPTIONS[runner] ?? []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    const [option, joined] = splitOption(word)
    if (code.includes(option)) {
      add(word, `makes ${runner} run the code it is given (${option}), which the gate can't read as a command`)
      if (joined === undefined) i++
      continue
    }
    if (places.includes(option)) {
      const value = joined ?? words[++i]
      if (value === undefined) continue
      const abs = resolve(root, recipe.cwd, value)
      const rel = relative(root, abs)
      if (rel.startsWith('..') || isAbsolute(rel)) add(`${option} ${value}`, `makes ${runner} read or run from \`${value}\`, outside the repository`)
      continue
    }
    const assignment = /^([A-Za-z_][A-Za-z0-9_.]*)\s*[:+?!]*=(.*)$/s.exec(word)
    if (assignment && (runner === 'make' || runner === 'just' || runner === 'task')) {
      const value = assignment[2]!
      if (SHELL_SYNTAX.test(value)) add(word, `sets ${assignment[1]} to shell code (\`${truncate(value, 40)}\`), which the recipe would run where it expands it`)
      else if (DESTRUCTIVE_WORDS.test(` ${value} `)) add(word, `sets ${assignment[1]} to a destructive command (\`${truncate(value, 40)}\`)`)
      continue
    }
  }
  return findings
}

function splitOption(word: string): [string, string | undefined] {
  if (!word.startsWith('-')) return [word, undefined]
  const eq = word.indexOf('=')
  if (eq > 0 && word.startsWith('--')) return [word.slice(0, eq), word.slice(eq + 1)]
  // `-f/tmp/x.mk`, `-C/`: a short option with its value joined.
  if (/^-[fCIdt].+/.test(word) && !word.startsWith('--')) return [word.slice(0, 2), word.slice(2)]
  return [word, undefined]
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
