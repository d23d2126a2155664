/**
 * What a composer recipe runs (`composer run-script <name>` at the root, see src/collectors/composer/collect.ts):
 * the script, a command or a list of them, in order. `@other` runs another script (followed),
 * `@php x` runs `php x`, `@composer x` runs `composer x` (a script of this file when x names one),
 * `@putenv` only sets the environment; a PHP callback (`Vendor\\Class::method`) or a command class
 * is PHP code composer loads, so it is unknown. The call's words go where `@additional_args` stands
 * (composer appends them to every other command; the judge does that). Composer runs the `pre-command-run` event
 * script before every command, so it comes first; the other event scripts (install, update, ...)
 * run only around those commands, so they are read only when the recipe is that event's script.
 */
import { preview } from '../../../collectors/shared/guard.js'
import type { BodyReader } from '../types.js'
import { BodyBuilder, viaStep, withWords } from './json-body.js'
import { entries, items, lineOfNode, nodeKind, prop, readJsonDoc, str, type JsonDoc, type Node } from './json-doc.js'
import { simpleCommands } from './json-shell.js'

const SOURCE = 'composer'
const PRE_COMMAND = 'pre-command-run'
/** Composer's own commands: a script can't take their names, so `composer install` is never a script call. */
const COMMANDS = new Set([
  'about', 'archive', 'audit', 'browse', 'home', 'bump', 'check-platform-reqs', 'clear-cache', 'clearcache', 'cc', 'config', 'create-project',
  'depends', 'why', 'diagnose', 'dump-autoload', 'dumpautoload', 'exec', 'fund', 'global', 'help', 'init', 'install', 'i', 'licenses', 'list',
  'outdated', 'prohibits', 'why-not', 'reinstall', 'remove', 'rm', 'require', 'r', 'run-script', 'run', 'search', 'self-update', 'selfupdate',
  'show', 'info', 'status', 'suggests', 'update', 'u', 'upgrade', 'validate',
])

interface ComposerRun {
  readonly body: BodyBuilder
  readonly doc: JsonDoc
  readonly scripts: ReadonlyMap<string, Node>
}

export const readComposerBody: BodyReader = (recipe, ctx, args) => {
  const body = new BodyBuilder()
  const read = readJsonDoc(ctx, SOURCE, recipe.file, false)
  if (!('doc' in read)) {
    const why = 'missing' in read ? `${recipe.file} is gone; composer can't run the script either` : `${read.error}; composer refuses it too`
    body.part({ text: recipe.description, file: recipe.file, why, via: [recipe.command] })
    return body.result()
  }
  const scripts = new Map(entries(prop(read.doc.root, 'scripts')).map((e) => [e.key, e.value]))
  const run: ComposerRun = { body, doc: read.doc, scripts }
  const via = [recipe.command]
  if (!scripts.has(recipe.name)) {
    body.part({ text: recipe.description, file: recipe.file, why: `${recipe.file} no longer has the script "${recipe.name}"`, via })
    return body.result()
  }
  runComposerScript(run, PRE_COMMAND, [...via, `composer ${PRE_COMMAND} event`], [])
  runComposerScript(run, recipe.name, via, args)
  return body.result()
}

/** One script's commands in order, with the words it was called with; each script is read once per judgement. */
function runComposerScript(run: ComposerRun, name: string, via: readonly string[], words: readonly string[]): void {
  const node = run.scripts.get(name)
  if (node === undefined || !run.body.enter(name, via, run.doc.file)) return
  const list = node.type === 'array' ? items(node) : [node]
  for (const entry of list) {
    if (run.body.full) return
    const text = str(entry)
    const line = lineOfNode(run.doc, entry)
    if (text === undefined) {
      run.body.part({ text: '', file: run.doc.file, line, why: `script "${preview(name, 60)}" holds ${nodeKind(entry)}, not a command string`, via })
      continue
    }
    runEntry(run, text, line, via, words)
  }
}

function runEntry(run: ComposerRun, text: string, line: number, via: readonly string[], words: readonly string[]): void {
  const file = run.doc.file
  const trimmed = text.trim()
  if (trimmed.startsWith('@')) {
    const ref = trimmed.slice(1).split(/\s+/)[0] ?? ''
    if (ref === 'putenv') return // sets a variable for the next commands; runs nothing
    if (ref === 'php' || ref === 'composer') {
      const command = withArgs(`${ref}${trimmed.slice(1 + ref.length)}`, words)
      run.body.line({ text: command, cwd: '.', file, line, via })
      if (ref === 'composer') followComposerCalls(run, command, line, via)
      return
    }
    // The call's words reach the referenced script's commands too.
    if (run.scripts.has(ref)) runComposerScript(run, ref, [...via, viaStep(`@${ref}`)], words)
    return
  }
  if (isPhpCode(trimmed)) {
    run.body.part({ text: trimmed, file, line, why: 'it is PHP code (a class method or a command class) that composer loads and runs', via })
    return
  }
  const command = withArgs(text, words)
  run.body.line({ text: command, cwd: '.', file, line, via })
  followComposerCalls(run, command, line, via)
}

/**
 * Composer's tests (EventDispatcher::isPhpScript, isCommandClass): no space and a `::`, or no space,
 * a namespace separator and a name ending in Command.
 */
function isPhpCode(text: string): boolean {
  if (text.includes(' ')) return false
  return text.includes('::') || (text.includes('\\') && text.endsWith('Command'))
}

/** The call's words put where `@additional_args` stands (appending them to the others is the judge's). */
function withArgs(text: string, words: readonly string[]): string {
  if (!text.includes('@additional_args')) return text
  return text.replaceAll('@additional_args', withWords('', words).trim())
}

/** `composer run-script x`, `composer run x` and `composer x` inside a command, for scripts of this file. */
function followComposerCalls(run: ComposerRun, text: string, line: number, via: readonly string[]): void {
  for (const command of simpleCommands(text)) {
    if (command.moved) continue
    const words = command.words
    if (words[0] === undefined || !/(^|\/)composer(\.phar)?$/.test(words[0])) continue
    // `-d dir` / `--working-dir`: another project's composer.json; the judge follows it if it can.
    if (words.some((w) => w === '-d' || w?.startsWith('--working-dir') || (w?.startsWith('-d') && !w.startsWith('--')))) continue
    const positional = words.slice(1).filter((w) => w === undefined || !w.startsWith('-'))
    const verb = positional[0]
    const named = verb === 'run-script' || verb === 'run'
    const name = named ? positional[1] : verb !== undefined && !COMMANDS.has(verb) ? verb : undefined
    if (name !== undefined && run.scripts.has(name)) {
      const step = [...via, viaStep(command.text)]
      const passed = positional.slice(named ? 2 : 1).filter((w): w is string => w !== undefined)
      runComposerScript(run, PRE_COMMAND, [...step, `composer ${PRE_COMMAND} event`], [])
      runComposerScript(run, name, step, passed)
    } else if (positional.length > 0 && (verb === undefined || ((verb === 'run-script' || verb === 'run') && positional.length > 1 && name === undefined))) {
      run.body.part({ text: command.text, file: run.doc.file, line, why: 'the composer command or script name is computed when the line runs', via })
    }
  }
}
