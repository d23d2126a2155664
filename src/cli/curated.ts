/** `command-scout recipes list|show|render|validate`: the curated recipe library from the CLI. */
import { existsSync, realpathSync, statSync } from 'node:fs'
import { dirname, resolve, sep } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { CliIo } from './io.js'
import { parseArgsMessage } from './parse-args-message.js'
import { HELP } from './curated-help.js'
import { formatIssues } from '../curated/format.js'
import { loadLibrary, recipeFiles, SHIPPED_RECIPES_DIR } from '../curated/load.js'
import { currentPlatform, RecipeRenderError, renderRecipe, supportedPlatforms, type RenderedRecipe } from '../curated/render.js'
import { CATEGORIES, PLATFORMS, RISKS, type CuratedRecipe, type Library, type Platform } from '../curated/schema.js'
import { searchLibrary } from '../curated/search.js'
import { listTable, renderText, showText } from '../curated/view.js'
import { validateLibrary } from '../curated/validate.js'

const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const

class Usage extends Error {}

const OPTIONS = {
  dir: { type: 'string', multiple: true },
  format: { type: 'string', short: 'f' },
  platform: { type: 'string', short: 'p' },
  param: { type: 'string', multiple: true },
  category: { type: 'string' },
  tag: { type: 'string', multiple: true },
  risk: { type: 'string', multiple: true },
  'no-shipped': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options']

type Values = {
  'no-shipped'?: boolean; dir?: string[]; format?: string; platform?: string; param?: string[]
  category?: string; tag?: string[]; risk?: string[]; help?: boolean
}

const ALLOWED: Record<string, (keyof Values)[]> = {
  list: ['dir', 'no-shipped', 'format', 'category', 'tag', 'risk', 'help'],
  show: ['dir', 'no-shipped', 'format', 'platform', 'help'],
  render: ['dir', 'no-shipped', 'format', 'platform', 'param', 'help'],
  validate: ['dir', 'no-shipped', 'format', 'help'],
}

export async function recipesCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv
  try {
    if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') {
      io.stdout(HELP.recipes!)
      return sub === undefined ? EXIT.USAGE : EXIT.OK
    }
    if (sub === 'skills') return (await import('./skills.js')).skillsCommand(rest, io)
    if (!ALLOWED[sub]) throw new Usage(`unknown recipes command \`${sub}\`; expected list, show, render or validate`)
    let parsed: { values: Values; positionals: string[] }
    try {
      parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] }
    } catch (error) {
      throw new Usage(parseArgsMessage(error as Error & { code?: string }))
    }
    const { values, positionals } = parsed
    if (values.help) return io.stdout(HELP[sub]!), EXIT.OK
    for (const key of Object.keys(values) as (keyof Values)[]) {
      if (!ALLOWED[sub]!.includes(key)) throw new Usage(`\`recipes ${sub}\` does not take --${key}`)
    }
    const dirs = (values.dir ?? []).map((d) => resolve(io.cwd, d))
    for (const d of dirs) if (!existsSync(d)) throw new Usage(`--dir ${d} does not exist`)
    switch (sub) {
      case 'list': return list(values, positionals, dirs, io)
      case 'show': return show(values, positionals, dirs, io)
      case 'render': return render(values, positionals, dirs, io)
      default: return validate(values, positionals, dirs, io)
    }
  } catch (error) {
    if (error instanceof Usage) {
      io.stderr(`command-scout: recipes: ${error.message}\nTry 'command-scout recipes${sub && ALLOWED[sub] ? ` ${sub}` : ''} --help'.\n`)
      return EXIT.USAGE
    }
    throw error
  }
}

function format(values: Values, allowed: string[]): string {
  const f = values.format ?? allowed[0]!
  if (!allowed.includes(f)) throw new Usage(`--format must be ${allowed.join(' or ')}`)
  return f
}

function platformOf(values: Values): Platform {
  const p = values.platform ?? currentPlatform()
  if (!(PLATFORMS as readonly string[]).includes(p)) throw new Usage(`--platform must be one of ${PLATFORMS.join(', ')} (got ${p})`)
  return p as Platform
}

function load(dirs: string[], io: CliIo, values: Values): Library {
  const library = loadLibrary([...shippedIfPresent(values), ...dirs])
  const errors = library.issues.filter((i) => i.severity === 'error')
  if (errors.length) {
    const files = new Set(errors.map((e) => e.file)).size
    io.stderr(`command-scout: ${files} recipe file${files === 1 ? '' : 's'} failed validation and ${files === 1 ? 'is' : 'are'} left out; run \`command-scout recipes validate${dirs.map((d) => ` ${d}`).join('')}\`\n`)
  }
  return library
}

/** The shipped library, unless this copy of the package has none (a source checkout before any recipe). */
function shippedIfPresent(values: Values): string[] {
  return !values['no-shipped'] && existsSync(SHIPPED_RECIPES_DIR) ? [SHIPPED_RECIPES_DIR] : []
}

function one(positionals: string[], sub: string): string {
  if (positionals.length !== 1) throw new Usage(`\`recipes ${sub}\` takes exactly one recipe id (got ${positionals.length}), e.g. git.undo_last_commit`)
  return positionals[0]!
}

function list(values: Values, words: string[], dirs: string[], io: CliIo): number {
  const fmt = format(values, ['table', 'json'])
  if (values.category && !(CATEGORIES as readonly string[]).includes(values.category)) throw new Usage(`--category must be one of ${CATEGORIES.join(', ')}`)
  for (const r of values.risk ?? []) if (!(RISKS as readonly string[]).includes(r)) throw new Usage(`--risk must be one of ${RISKS.join(', ')}`)
  const library = load(dirs, io, values)
  const found = searchLibrary(library, {
    text: words.join(' '),
    ...(values.category ? { category: values.category } : {}),
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.risk ? { risk: values.risk } : {}),
  })
  if (fmt === 'json') {
    io.stdout(JSON.stringify({ version: 1, recipes: found.map(summary), issues: library.issues }, null, 2) + '\n')
    return EXIT.OK
  }
  if (found.length === 0) {
    io.stderr(library.recipes.length ? 'No recipe matches; try fewer words or filters.\n' : 'The library is empty; add recipes with --dir DIR.\n')
    return EXIT.OK
  }
  io.stdout(listTable(found))
  return EXIT.OK
}

function summary(r: CuratedRecipe) {
  return {
    id: r.id, version: r.version, title: r.title, category: r.category, tags: r.tags, risk: r.risk,
    requires_confirmation: r.requires_confirmation || r.risk === 'destructive', platforms: supportedPlatforms(r), file: r.file,
  }
}

function show(values: Values, positionals: string[], dirs: string[], io: CliIo): number {
  const id = one(positionals, 'show')
  const fmt = format(values, ['text', 'json'])
  const platform = platformOf(values)
  const library = load(dirs, io, values)
  const recipe = library.byId.get(id)
  if (!recipe) {
    try {
      renderRecipe(library, id, { platform }) // raises the same not-found / invalid error the renderer gives
    } catch (error) {
      if (error instanceof RecipeRenderError) return io.stderr(`command-scout: ${error.message} [${error.code}]\n`), EXIT.FAILED
      throw error
    }
  }
  const r = recipe!
  if (fmt === 'json') {
    const { dir: _dir, ...rest } = r
    io.stdout(JSON.stringify(rest, null, 2) + '\n')
    return EXIT.OK
  }
  io.stdout(showText(r, platform))
  return EXIT.OK
}

function parseParams(pairs: string[]): Record<string, string> {
  const params: Record<string, string> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq < 1) throw new Usage(`--param takes NAME=VALUE (got ${JSON.stringify(pair)})`)
    params[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return params
}

function render(values: Values, positionals: string[], dirs: string[], io: CliIo): number {
  const id = one(positionals, 'render')
  const fmt = format(values, ['text', 'json'])
  const platform = platformOf(values)
  const params = parseParams(values.param ?? [])
  const library = load(dirs, io, values)
  let rendered: RenderedRecipe
  try {
    rendered = renderRecipe(library, id, { platform, params })
  } catch (error) {
    if (error instanceof RecipeRenderError) return io.stderr(`command-scout: ${error.message} [${error.code}]\n`), EXIT.FAILED
    throw error
  }
  if (fmt === 'json') return io.stdout(JSON.stringify(rendered, null, 2) + '\n'), EXIT.OK
  io.stdout(renderText(rendered, library.byId.get(id)!.title, platform))
  return EXIT.OK
}

function validate(values: Values, paths: string[], dirs: string[], io: CliIo): number {
  const fmt = format(values, ['text', 'json'])
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : p)
  const targets = (paths.length ? paths : [SHIPPED_RECIPES_DIR]).map((p) => resolve(io.cwd, p))
  for (const t of targets) if (!existsSync(t)) throw new Usage(`${t} does not exist; pass a library directory or a recipe file`)
  // A recipe file stands for its library (two levels up); only its own issues are reported.
  const libraries = targets.map((t) => (statSync(t).isDirectory() ? t : dirname(dirname(t))))
  const all = [...new Set([...shippedIfPresent(values).map(real), ...dirs.map(real), ...libraries.map(real)])]
  const issues = validateLibrary(all).filter((i) => targets.some((t) => within(real(i.file), real(t))))
  const errors = issues.filter((i) => i.severity === 'error').length
  const warnings = issues.length - errors
  if (fmt === 'json') {
    io.stdout(JSON.stringify({ version: 1, ok: errors === 0, errors, warnings, issues }, null, 2) + '\n')
  } else {
    if (issues.length) io.stderr(formatIssues(issues, { cwd: io.cwd }) + '\n')
    const counts = countRecipes(targets)
    const line = `${errors ? 'error' : 'ok'}: ${counts} recipe file${counts === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`
    if (errors) io.stderr(line)
    else io.stdout(line)
  }
  return errors ? EXIT.FAILED : EXIT.OK
}

function within(file: string, target: string): boolean {
  return file === target || file.startsWith(target.endsWith(sep) ? target : target + sep)
}

function countRecipes(targets: string[]): number {
  return targets.reduce((n, t) => n + (statSync(t).isDirectory() ? recipeFiles(t).length : 1), 0)
}
