/**
 * The composer collector: the `scripts` of the root composer.json, as `composer run-script <name>`
 * (run from the root, as composer runs them). A script is one command or a list; `@name` entries
 * that name another script are its prerequisites (`@php`, `@composer` and `@putenv` are composer's
 * own); `scripts-descriptions` give descriptions and `scripts-aliases` aliases. Scripts named after
 * composer's events (`post-install-cmd`, ...) are listed as `composer run-script` lists them,
 * described as the event hooks they are. Values come from JSON.parse, lines from json-text.ts.
 */
import { join } from 'node:path'
import { createDiagnostic, createRecipe, type Diagnostic, type Recipe } from '../../book/recipe.js'
import { readText } from '../shared/fs.js'
import { isRecord, kind, locateKeys, own, parseJsonText, positionLocator } from '../shared/json-text.js'
import { shellWord } from '../../base/quote.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

const SOURCE = 'composer'
const FILE = 'composer.json'

/** Composer's script events (Composer\Script\ScriptEvents, Installer\PackageEvents, Plugin\PluginEvents). */
const EVENTS = new Set([
  'pre-install-cmd', 'post-install-cmd', 'pre-update-cmd', 'post-update-cmd', 'pre-status-cmd', 'post-status-cmd',
  'pre-archive-cmd', 'post-archive-cmd', 'pre-autoload-dump', 'post-autoload-dump', 'post-root-package-install',
  'post-create-project-cmd', 'pre-operations-exec', 'pre-package-install', 'post-package-install', 'pre-package-update',
  'post-package-update', 'pre-package-uninstall', 'post-package-uninstall', 'init', 'command', 'pre-file-download',
  'post-file-download', 'pre-command-run', 'pre-pool-create',
])
const BUILTIN_REFS = new Set(['php', 'composer', 'putenv', 'additional_args'])

export function collectComposer(root: string): CollectorResult {
  const text = readText(join(root, FILE))
  if (text === undefined) return { recipes: [], diagnostics: [], files: [] }
  const diagnostics: Diagnostic[] = []
  const report = (message: string, line?: number, severity: 'error' | 'warning' = 'warning') =>
    diagnostics.push(createDiagnostic({ source: SOURCE, file: FILE, ...(line ? { line } : {}), message, severity }))
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    const { error } = parseJsonText(text, false)
    report(`composer.json is not valid JSON${error ? ` (line ${error.line}, column ${error.column}: ${error.message})` : ''}; composer refuses it too, fix the syntax`, error?.line, 'error')
    return { recipes: [], diagnostics, files: [FILE] }
  }
  if (!isRecord(doc)) {
    report(`composer.json must hold an object, not ${kind(doc)}; composer refuses it`, 1, 'error')
    return { recipes: [], diagnostics, files: [FILE] }
  }
  const scripts = own(doc, 'scripts')
  if (scripts === undefined) return { recipes: [], diagnostics, files: [FILE] }
  const at = positionLocator(text)
  const keys = locateKeys(text, 'scripts')
  // A repeated key: JSON.parse and PHP's json_decode both keep the last one.
  const lineOfKey = new Map<string, number>()
  for (const k of keys.inner) lineOfKey.set(k.key, at(k.offset).line)
  const topLine = (key: string) => {
    const k = keys.top.filter((t) => t.key === key).pop()
    return k ? at(k.offset).line : undefined
  }
  if (!isRecord(scripts)) {
    report(`"scripts" must be an object of script names, not ${kind(scripts)}; composer refuses it`, topLine('scripts'), 'error')
    return { recipes: [], diagnostics, files: [FILE] }
  }
  const descriptions = own(doc, 'scripts-descriptions')
  const aliasesOf = own(doc, 'scripts-aliases')
  if (descriptions !== undefined && !isRecord(descriptions)) report(`"scripts-descriptions" must be an object of script names to texts, not ${kind(descriptions)}`, topLine('scripts-descriptions'))
  if (aliasesOf !== undefined && !isRecord(aliasesOf)) report(`"scripts-aliases" must be an object of script names to lists of aliases, not ${kind(aliasesOf)}`, topLine('scripts-aliases'))
  const recipes: Recipe[] = []
  for (const [name, value] of Object.entries(scripts)) {
    const line = lineOfKey.get(name)
    const commands = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined
    if (!commands) {
      report(`script "${name}" must be a command string or a list of them, not ${kind(value)}; composer can't run it`, line)
      continue
    }
    const prerequisites = commands
      .filter((c) => c.startsWith('@'))
      .map((c) => c.slice(1).split(/\s+/)[0]!)
      .filter((ref) => !BUILTIN_REFS.has(ref))
    for (const ref of prerequisites) {
      if (own(scripts, ref) === undefined) report(`script "${name}" calls @${ref}, which is not a script in composer.json; composer stops there ("You made a reference to a non-existent script")`, line)
    }
    const described = isRecord(descriptions) ? own(descriptions, name) : undefined
    const event = EVENTS.has(name)
    const description = typeof described === 'string' ? described : `${event ? `Runs on composer's ${name} event: ` : ''}${commands.join(' && ')}`
    const aliasList = isRecord(aliasesOf) ? own(aliasesOf, name) : undefined
    const aliases = Array.isArray(aliasList) ? aliasList.filter((a): a is string => typeof a === 'string' && a !== '') : []
    recipes.push(createRecipe({
      source: SOURCE,
      runner: 'composer',
      name,
      command: `composer run-script ${shellWord(name)}`,
      description,
      file: FILE,
      ...(line ? { line } : {}),
      prerequisites: [...new Set(prerequisites)],
      aliases,
      argsSeparator: '--',
    }))
  }
  for (const table of [descriptions, aliasesOf]) {
    if (!isRecord(table)) continue
    for (const name of Object.keys(table)) {
      if (own(scripts, name) === undefined) report(`"${table === descriptions ? 'scripts-descriptions' : 'scripts-aliases'}" names "${name}", which is not a script; remove it or add the script`, topLine(table === descriptions ? 'scripts-descriptions' : 'scripts-aliases'))
    }
  }
  return { recipes, diagnostics, files: [FILE] }
}

export const composerCollector: Collector = {
  source: SOURCE,
  manifestNames: [FILE],
  collect(ctx: CollectContext): CollectorResult {
    return collectComposer(ctx.root)
  },
}
