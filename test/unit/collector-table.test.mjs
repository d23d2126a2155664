// The collector table (src/base/collector-table.ts) is where every fact about a built-in collector
// besides its reader lives: each list made from it agrees with it (config keys and defaults, the
// CLI's switches, the harness rows, package subpaths and row modules, install hints, the warmer's
// sample, the model-facing lists), so that a new collector is its reader, its tests and one row.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { parse } from 'yaml'
import { tempDir } from '../support/temp.mjs'
import {
  BUILTIN_SOURCES as TABLE_SOURCES, COLLECTOR_ALIASES, COLLECTOR_TABLE, collectorRow, formatsSentence, sampleRepository,
} from '../../dist/src/base/collector-table.js'
import { BUILTIN_SOURCES, ConfigError, DEFAULT_CONFIG, INSTALL_HINTS, normalizeConfig } from '../../dist/src/index.js'
// The loader's own module list, to compare with the collectors it loads (the package main gives its bundle's copies).
import { BUILTIN_COLLECTORS } from '../../dist/src/collectors/index.js'
import { COLLECTOR_KEYS } from '../../dist/src/book/config.js'
import { loadCollector } from '../../dist/src/collectors/load.js'
import { COLLECTOR_FLAGS, COMMON_HELP, COMMON_OPTIONS, commonConfig } from '../../dist/src/cli/options.js'
import { collectorConfigSchema } from '../../dist/src/dsh/schema.js'
import {
  ENTRY_DIR, PLUGIN_DIR, ROOT, collectorExports, currentPackageJson, currentPatchLayer, rowModules, staleCheckedIn,
} from '../../scripts/collector-rows.mjs'

const SOURCES = COLLECTOR_TABLE.map((row) => row.source)
/** What a collector's section is when nothing is configured: `enabled` and its row's option defaults. */
const defaults = (row) => ({ enabled: true, ...Object.fromEntries(Object.entries(row.options).map(([k, o]) => [k, structuredClone(o.default)])) })

test('table: one name per collector, each alias, runner and format once', () => {
  assert.ok(SOURCES.length >= 13, `${SOURCES.length} rows`)
  for (const source of SOURCES) assert.match(source, /^[a-z][a-z0-9]*$/, 'a source is one lowercase word: a config key, a switch, a row id and a file name')
  const aliases = COLLECTOR_TABLE.flatMap((row) => row.aliases)
  const runners = COLLECTOR_TABLE.flatMap((row) => Object.keys(row.runners))
  for (const [what, names] of [['source or alias', [...SOURCES, ...aliases]], ['runner', runners], ['format', COLLECTOR_TABLE.map((r) => r.format)]]) {
    assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], `each ${what} once`)
  }
  assert.deepEqual(COLLECTOR_ALIASES, { makefile: 'make', justfile: 'just', taskfile: 'task' })
  assert.equal(collectorRow('make'), COLLECTOR_TABLE[0])
  assert.equal(collectorRow('makefile'), undefined, 'an alias is a config key only')
})

test('table: the recipe model, the config and the eager list follow its order', () => {
  assert.deepEqual([...BUILTIN_SOURCES], SOURCES)
  assert.deepEqual([...TABLE_SOURCES], SOURCES)
  assert.deepEqual([...COLLECTOR_KEYS], SOURCES)
  assert.deepEqual(Object.keys(DEFAULT_CONFIG.collectors), SOURCES)
  assert.deepEqual(BUILTIN_COLLECTORS.map((c) => c.source), SOURCES)
  for (const row of COLLECTOR_TABLE) assert.deepEqual(DEFAULT_CONFIG.collectors[row.source], defaults(row), `${row.source}'s defaults`)
})

test('table: each row loads its own reader, the same collector the eager list holds', async () => {
  for (const [i, row] of COLLECTOR_TABLE.entries()) {
    const collector = await loadCollector(row.source)
    assert.equal(collector, BUILTIN_COLLECTORS[i], `${row.source}: ${row.reader.module} ${row.reader.export}`)
  }
  await assert.rejects(loadCollector('nosuch'), /no built-in collector named nosuch/)
})

test('config: the older keys are read as their sources, errors name the key as written', () => {
  const c = normalizeConfig({ collectors: { makefile: { enabled: false }, just: { enabled: false }, taskfile: {} } })
  assert.equal(c.collectors.make.enabled, false)
  assert.equal(c.collectors.just.enabled, false)
  assert.equal(c.collectors.task.enabled, true)
  assert.equal(c.collectors.makefile, c.collectors.make, 'a normalized config answers an older key with its source\'s section')
  assert.deepEqual(Object.keys(c.collectors), SOURCES, 'only the sources are listed (and written back)')
  assert.doesNotMatch(JSON.stringify(c), /makefile|justfile|taskfile/)
  assert.deepEqual(normalizeConfig(c), c, 'a normalized config normalizes to itself')
  assert.deepEqual(normalizeConfig(DEFAULT_CONFIG), JSON.parse(JSON.stringify(DEFAULT_CONFIG)))
  const fails = (collectors, message) => assert.throws(() => normalizeConfig({ collectors }), message)
  fails({ justfile: { enabled: 1 } }, /config collectors\.justfile\.enabled: must be true or false/)
  fails({ taskfile: { runner: 'npm' } }, /collectors\.taskfile\.runner: unknown option; expected one of enabled$/)
  assert.throws(
    () => normalizeConfig({ collectors: { make: { enabled: true }, makefile: { enabled: false } } }),
    (e) => e instanceof ConfigError && e.path === 'collectors.makefile' && /same collector as collectors\.make/.test(e.message),
  )
  fails({ nosuch: {} }, new RegExp(`collectors\\.nosuch: unknown option; expected one of ${SOURCES.join(', ')}$`))
})

test('config: a row\'s options are checked and defaulted as the row declares them', () => {
  const scripts = collectorRow('scripts')
  const c = normalizeConfig({ collectors: { scripts: { runner: 'pnpm' } } }).collectors.scripts
  assert.deepEqual(c, { ...defaults(scripts), runner: 'pnpm' })
  const fails = (scripts, message) => assert.throws(() => normalizeConfig({ collectors: { scripts } }), message)
  fails({ runner: 'cargo' }, /collectors\.scripts\.runner: must be one of auto \| npm \| yarn \| pnpm \| bun \(got "cargo"\)/)
  fails({ lockfilePriority: ['yarn.lock', ''] }, /collectors\.scripts\.lockfilePriority: must be a list of lockfile names/)
  // The harness schema declares the same defaults, from the same rows.
  for (const row of COLLECTOR_TABLE) assert.deepEqual(collectorConfigSchema(row.source)({}), defaults(row), `${row.source}'s schema`)
})

test('cli: one --no-<source> switch per row, in the help, switching that collector off', () => {
  assert.deepEqual(COLLECTOR_FLAGS, Object.fromEntries(SOURCES.map((s) => [`no-${s}`, s])))
  for (const source of SOURCES) {
    assert.deepEqual(COMMON_OPTIONS[`no-${source}`], { type: 'boolean' })
    assert.match(COMMON_HELP, new RegExp(`--no-${source}\\b`))
    const { config } = commonConfig({ [`no-${source}`]: true }, { cwd: ROOT }, 'scan')
    assert.deepEqual(SOURCES.filter((s) => !config.collectors[s].enabled), [source])
  }
})

test('harness: cordis.patch.yml has one row per collector, in order, with exactly its defaults', () => {
  const rows = parse(readFileSync(join(ROOT, 'cordis.patch.yml'), 'utf8'))[0].insert
  const collectorRows = rows.filter((r) => r.name.startsWith('dsh-command-scout/collectors/'))
  assert.deepEqual(collectorRows.map((r) => r.id), SOURCES.map((s) => `command-scout-${s}`))
  for (const [i, row] of COLLECTOR_TABLE.entries()) {
    assert.equal(collectorRows[i].name, `dsh-command-scout/collectors/${row.source}`)
    assert.deepEqual(collectorRows[i].config, defaults(row), `${row.source}'s row spells out its defaults`)
  }
})

test('harness: package.json exports each collector\'s row entry, and only those under ./collectors/', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const exported = Object.entries(pkg.exports).filter(([key]) => key.startsWith('./collectors/'))
  assert.deepEqual(Object.fromEntries(exported), collectorExports(COLLECTOR_TABLE))
  assert.deepEqual(exported.map(([key]) => key), SOURCES.map((s) => `./collectors/${s}`))
  assert.match(pkg.scripts.build, /^node scripts\/collector-rows\.mjs && tsc -p tsconfig\.json && /, 'the build writes the readers and rows before tsc compiles them')
  assert.equal(pkg.scripts.prepare, pkg.scripts.build)
})

test('harness: the checked-in files are what scripts/collector-rows.mjs makes of the table', () => {
  assert.deepEqual(staleCheckedIn(COLLECTOR_TABLE).map((s) => s.file), [], 'run node scripts/collector-rows.mjs (npm run build)')
  // The generator does follow the table: one more row changes both files.
  const more = [...COLLECTOR_TABLE, { ...collectorRow('deno'), source: 'extra', options: {} }]
  const layer = currentPatchLayer(readFileSync(join(ROOT, 'cordis.patch.yml'), 'utf8'), more)
  assert.match(layer, /- id: command-scout-nx\n[^]*- id: command-scout-extra\n      name: dsh-command-scout\/collectors\/extra\n/)
  const pkg = JSON.parse(currentPackageJson(readFileSync(join(ROOT, 'package.json'), 'utf8'), more))
  assert.deepEqual(Object.keys(pkg.exports).filter((k) => k.startsWith('./collectors/')).at(-1), './collectors/extra')
  assert.ok(Object.keys(pkg.exports).indexOf('./collectors/extra') < Object.keys(pkg.exports).indexOf('./cordis.patch.yml'))
})

test('harness: the built row modules are the generator\'s, each a plugin of its own collector', async () => {
  const modules = rowModules(COLLECTOR_TABLE)
  for (const dir of [PLUGIN_DIR, ENTRY_DIR]) {
    assert.deepEqual(readdirSync(join(ROOT, dir)).sort(), modules.filter((m) => dirname(m.path) === dir).map((m) => m.path.slice(dir.length + 1)).sort())
  }
  for (const m of modules) assert.equal(readFileSync(join(ROOT, m.path), 'utf8'), m.text, `${m.path} is current (npm run build)`)
  for (const row of COLLECTOR_TABLE) {
    const { default: plugin } = await import(`../../${PLUGIN_DIR}/${row.source}.js`)
    assert.equal(plugin.name, `command-scout-${row.source}`)
    assert.deepEqual(plugin.inject, ['recipes'])
    assert.deepEqual(plugin.Config({}), defaults(row))
  }
})

test('runners: every runner\'s install hint comes from its collector\'s row', () => {
  assert.deepEqual({ ...INSTALL_HINTS }, Object.assign({}, ...COLLECTOR_TABLE.map((row) => row.runners)))
  assert.equal(INSTALL_HINTS.constructor, undefined, 'a runner named like an Object member has no hint')
})

test('samples: each row\'s sample lists recipes of its collector, each runner with an install hint', (t) => {
  const repo = sampleRepository()
  for (const row of COLLECTOR_TABLE) {
    for (const path of Object.keys(row.sample)) {
      assert.equal(normalize(path), path, `${row.source}: ${path} is a plain relative path`)
      assert.ok(!path.startsWith('/') && !path.startsWith('..'), `${row.source}: ${path} stays inside`)
      assert.equal(repo[path], row.sample[path], `${path} is in the warmer's repository`)
    }
  }
  const root = tempDir(t, 'cs-table-sample-')
  for (const [path, text] of Object.entries(repo)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  for (const [i, row] of COLLECTOR_TABLE.entries()) {
    const { recipes } = BUILTIN_COLLECTORS[i].collect({ root, options: DEFAULT_CONFIG.collectors[row.source] })
    assert.ok(recipes.length > 0, `${row.source}'s sample lists recipes`)
    for (const r of recipes) {
      assert.equal(r.source, row.source)
      assert.ok(r.install ?? INSTALL_HINTS[r.runner], `${row.source}: runner ${r.runner} has an install hint`)
    }
  }
  assert.match(readFileSync(join(ROOT, 'scripts/warm-code-cache.mjs'), 'utf8'), /const FILES = sampleRepository\(\)/, 'the warmer scans the samples')
})

test('texts: the model-facing list of formats names every row, in order', async (t) => {
  const sentence = formatsSentence()
  const formats = COLLECTOR_TABLE.map((row) => row.format)
  assert.equal(sentence, `${formats.slice(0, -1).join(', ')} and ${formats.at(-1)}`)
  assert.ok(formatsSentence('or').endsWith(` or ${formats.at(-1)}`))
  const { chefTools } = await import('../../dist/src/chef/tools.js')
  const addProject = chefTools({}).find((tool) => tool.name === 'chef_add_project')
  assert.ok(addProject.description.includes(`Scans its manifests (${sentence})`), addProject.description)
  const { createMcpServer } = await import('../../dist/src/mcp/server.js')
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js')
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const mcp = await createMcpServer({ root: tempDir(t, 'cs-table-mcp-'), config: normalizeConfig({}), version: '0.0.0', watch: false })
  t.after(() => mcp.close())
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await mcp.connect(serverSide)
  const client = new Client({ name: 'collector-table-test', version: '1.0.0' })
  await client.connect(clientSide)
  t.after(() => client.close())
  assert.ok(client.getInstructions().includes(`the commands the repository declares (${sentence})`), client.getInstructions())
})
