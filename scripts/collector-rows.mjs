// What the rest of the product needs of each built-in collector, written from the collector table
// (src/base/collector-table.ts, read from its source), so that a new collector is its reader, its
// tests and one row there:
//
//   node scripts/collector-rows.mjs           the row modules in dist/ and the checked-in files:
//                                             src/collectors/readers.ts (every reader by source),
//                                             src/collectors/reader-modules.ts (each loaded on first use),
//                                             cordis.patch.yml's collector rows, package.json's
//                                             exports (npm run build runs it before tsc)
//   node scripts/collector-rows.mjs --check   exit 1 when the checked-in files are not current
//
// The row modules: `dist/src/dsh/collectors/<source>.js`, the collector as a plugin
// (src/dsh/collector-plugin.ts), and `dist/src/dsh/entries/collectors/<source>.js`, the entry the
// harness loads as `dsh-command-scout/collectors/<source>`: it takes the plugin from the harness
// bundle (src/dsh/rows-loader.ts), or loads its module when the build made no bundle, once the
// loader has made this package share the harness's `@deepseek-ai/*` (src/dsh/host-peers.ts; a
// static import would load it before that hook exists). The two folders are this script's: any other file in
// them is removed. test/unit/collector-table.test.mjs checks all of it against the table.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { replaceIfChanged } from './replace-if-changed.mjs'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TABLE = join(ROOT, 'src/base/collector-table.ts')
export const PLUGIN_DIR = 'dist/src/dsh/collectors'
export const ENTRY_DIR = 'dist/src/dsh/entries/collectors'
export const READERS_FILE = 'src/collectors/readers.ts'
export const READER_MODULES_FILE = 'src/collectors/reader-modules.ts'
const GENERATED = 'Written by scripts/collector-rows.mjs from the collector table (src/base/collector-table.ts); edit the table, not this file.'

/**
 * The collector table, read from its source: it is plain data with no imports, so TypeScript's
 * transpiler alone makes it a module, and the generator runs before tsc (a new row's reader file
 * is then in the build's first compile).
 */
export async function loadTable() {
  const { default: ts } = await import('typescript')
  const { outputText } = ts.transpileModule(readFileSync(TABLE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  })
  return (await import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`)).COLLECTOR_TABLE
}

/** src/collectors/readers.ts: every row's reader imported by name, keyed by source (the compiler checks each). */
export function readersModule(table) {
  const imports = table.map(({ reader }) => `import { ${reader.export} } from './${reader.module}'`)
  const entries = table.map(({ source, reader }) => `  ${source}: ${reader.export},`)
  return [
    '// The reader of every built-in collector, by source.',
    `// ${GENERATED}`,
    "import type { BuiltinSource } from '../base/collector-table.js'",
    "import type { Collector } from './types.js'",
    ...imports,
    '',
    'export const READERS: { readonly [S in BuiltinSource]: Collector<any> } = {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

/**
 * src/collectors/reader-modules.ts: each row's reader module, imported on first use by
 * collectors/load.ts (a literal import() per reader, which a bundler follows as it is).
 */
export function readerModulesModule(table) {
  const entries = table.map(({ source, reader }) => `  ${source}: () => import('./${reader.module}'),`)
  return [
    '// The module of every built-in collector\'s reader, by source, imported on first use.',
    `// ${GENERATED}`,
    "import type { BuiltinSource } from '../base/collector-table.js'",
    '',
    'export const READER_MODULES: { readonly [S in BuiltinSource]: () => Promise<Record<string, unknown>> } = {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

/** The row modules of every collector: { path (relative to the root), text }. */
export function rowModules(table) {
  return table.flatMap(({ source }) => [
    {
      path: `${PLUGIN_DIR}/${source}.js`,
      text: `// The ${source} collector as a plugin row. ${GENERATED}\nimport { builtinCollectorPlugin } from '../collector-plugin.js'\n\n`
        + `export default await builtinCollectorPlugin(${JSON.stringify(source)})\n`,
    },
    { path: `${PLUGIN_DIR}/${source}.d.ts`, text: `declare const plugin: import('../collector-plugin.js').CollectorPlugin\nexport default plugin\n` },
    {
      path: `${ENTRY_DIR}/${source}.js`,
      text: `// \`dsh-command-scout/collectors/${source}\`: the ${source} collector's row entry (see ../adapter.js). ${GENERATED}\n`
        + `import { harnessBundle } from '../../rows-loader.js'\n\n`
        + `const bundle = await harnessBundle()\n`
        + `export default bundle ? await bundle.collector(${JSON.stringify(source)}) : (await import('../../collectors/${source}.js')).default\n`,
    },
    { path: `${ENTRY_DIR}/${source}.d.ts`, text: `declare const plugin: import('../../collector-plugin.js').CollectorPlugin\nexport default plugin\n` },
  ])
}

/** package.json's `exports` entry of each collector, in the table's order. */
export function collectorExports(table) {
  return Object.fromEntries(table.map(({ source }) => [`./collectors/${source}`, {
    types: `./${ENTRY_DIR}/${source}.d.ts`,
    default: `./${ENTRY_DIR}/${source}.js`,
  }]))
}

/** package.json's text with its collector exports made current (in place of the old ones, or before ./cordis.patch.yml). */
export function currentPackageJson(text, table) {
  const pkg = JSON.parse(text)
  const exports = {}
  let placed = false
  const place = () => {
    if (!placed) Object.assign(exports, collectorExports(table)), (placed = true)
  }
  for (const [key, value] of Object.entries(pkg.exports ?? {})) {
    if (key.startsWith('./collectors/')) place()
    else {
      if (key === './cordis.patch.yml') place()
      exports[key] = value
    }
  }
  place()
  return `${JSON.stringify({ ...pkg, exports }, null, 2)}\n`
}

export const PATCH_BEGIN = '    # The built-in collectors, one row each, written from the collector table (src/base/collector-table.ts)'
const PATCH_BEGIN_2 = '    # by `node scripts/collector-rows.mjs` (npm run build runs it): edit the table, not these rows.'
export const PATCH_END = '    # (end of the built-in collectors)'

/** A YAML scalar as the layer writes it: plain when that reads back as the same string. */
function scalar(value) {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~|[0-9.]+)$/i.test(value) ? value : JSON.stringify(value)
}

/** One config line, its comment (the choices of a choice option) in the layer's comment column. */
function configLine(name, value, comment) {
  const line = `        ${name}: ${value}`
  return comment ? `${line.padEnd(34)}# ${comment}` : line
}

/** The collector rows of cordis.patch.yml, markers included. */
export function patchRows(table) {
  const lines = [PATCH_BEGIN, PATCH_BEGIN_2]
  for (const { source, options } of table) {
    lines.push(`    - id: command-scout-${source}`, `      name: dsh-command-scout/collectors/${source}`, '      config:', configLine('enabled', 'true'))
    for (const [name, option] of Object.entries(options)) {
      if (option.kind === 'choice') lines.push(configLine(name, scalar(option.default), option.choices.join(' | ')))
      else lines.push(configLine(name, `[${option.default.map(scalar).join(', ')}]`))
    }
  }
  lines.push(PATCH_END)
  return lines.join('\n')
}

/** cordis.patch.yml's text with its collector rows made current (between the markers). */
export function currentPatchLayer(text, table) {
  const lines = text.split('\n')
  const begin = lines.indexOf(PATCH_BEGIN)
  const end = lines.indexOf(PATCH_END)
  if (begin < 0 || end < begin) throw new Error(`cordis.patch.yml has no block between "${PATCH_BEGIN.trim()}" and "${PATCH_END.trim()}"`)
  return [...lines.slice(0, begin), patchRows(table), ...lines.slice(end + 1)].join('\n')
}


/** Writes the row modules; removes anything else in their folders (earlier builds' modules, maps). */
export function writeRowModules(table, root = ROOT) {
  const modules = rowModules(table)
  const wanted = new Set(modules.map((m) => join(root, m.path)))
  for (const dir of [PLUGIN_DIR, ENTRY_DIR]) {
    mkdirSync(join(root, dir), { recursive: true })
    for (const name of readdirSync(join(root, dir))) {
      if (!wanted.has(join(root, dir, name))) rmSync(join(root, dir, name), { recursive: true, force: true })
    }
  }
  for (const m of modules) replaceIfChanged(join(root, m.path), m.text)
}

/** The checked-in files that are not what the table makes: [{ file, text }] with the current text. */
export function staleCheckedIn(table, root = ROOT) {
  const files = [
    [READERS_FILE, (_text, t) => readersModule(t)],
    [READER_MODULES_FILE, (_text, t) => readerModulesModule(t)],
    ['cordis.patch.yml', currentPatchLayer],
    ['package.json', currentPackageJson],
  ]
  return files.flatMap(([file, current]) => {
    const text = existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : ''
    const wanted = current(text, table)
    return wanted === text ? [] : [{ file, text: wanted }]
  })
}

async function main(args) {
  const table = await loadTable()
  if (args.includes('--check')) {
    const stale = staleCheckedIn(table)
    for (const { file } of stale) console.error(`${file} is not current with the collector table; run node scripts/collector-rows.mjs (npm run build does)`)
    return stale.length ? 1 : 0
  }
  writeRowModules(table)
  for (const { file, text } of staleCheckedIn(table)) replaceIfChanged(join(ROOT, file), text), console.log(`wrote ${file}`)
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2))
