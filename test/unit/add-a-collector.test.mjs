// Adding a collector is its reader, its tests and one row of the collector table: in a copy of the
// project, a new reader and a row, then `npm run build`,
// and every surface knows it: the scan finds its recipes in the table's order, the CLI has its
// switch, the config its key, the harness its row and package subpath. No other file is edited.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import { tempDir } from '../support/temp.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A reader of Procfiles (`name: command` per line), as a newcomer would write one. */
const READER = `import { createRecipe, type Recipe } from '../../book/recipe.js'
import { readFileText } from '../shared/fs.js'
import type { Collector, CollectContext, CollectorResult } from '../types.js'

export const procfileCollector: Collector = {
  source: 'procfile',
  manifestNames: ['Procfile'],
  collect({ root }: CollectContext): CollectorResult {
    const read = readFileText(root + '/Procfile')
    if (read.kind !== 'text') return { recipes: [], diagnostics: [], files: [] }
    const recipes: Recipe[] = []
    for (const [i, line] of read.text.split('\\n').entries()) {
      const m = /^([a-z]+):\\s*(.+)$/.exec(line)
      if (m) recipes.push(createRecipe({ source: 'procfile', runner: 'sh', name: m[1]!, command: m[2]!, file: 'Procfile', line: i + 1 }))
    }
    return { recipes, diagnostics: [], files: ['Procfile'] }
  },
}
`

const ROW = `  {
    source: 'procfile',
    aliases: [],
    format: 'Procfile processes',
    reader: { module: 'procfile/collect.js', export: 'procfileCollector' },
    runners: { sh: 'a POSIX shell (it comes with the system)' },
    options: {},
    sample: { Procfile: 'web: echo web\\n' },
  },
] as const satisfies readonly CollectorRow[]`

test('a new collector is its reader and one row: the build writes the rest and every surface has it', { timeout: 300_000 }, async (t) => {
  const copy = tempDir(t, 'add-collector-')
  for (const part of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'cordis.patch.yml']) cpSync(join(ROOT, part), join(copy, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  const table = join(copy, 'src/base/collector-table.ts')
  const text = readFileSync(table, 'utf8')
  assert.ok(text.includes('] as const satisfies readonly CollectorRow[]'), 'the table ends its rows where the row goes')
  writeFileSync(table, text.replace('] as const satisfies readonly CollectorRow[]', ROW.replace(/^  \{/, '  {')))
  mkdirSync(join(copy, 'src/collectors/procfile'))
  writeFileSync(join(copy, 'src/collectors/procfile/collect.ts'), READER)

  // The project's own build, as the newcomer runs it.
  const build = spawnSync('npm', ['run', 'build'], { cwd: copy, encoding: 'utf8' })
  assert.equal(build.status, 0, build.stdout + build.stderr)

  const repo = join(copy, 'repo')
  mkdirSync(repo)
  writeFileSync(join(repo, 'Procfile'), 'web: node server.js\nworker: node worker.js\n')
  writeFileSync(join(repo, 'Makefile'), 'build:\n\techo build\n')
  const env = { ...process.env, COMMAND_SCOUT_CACHE: 'off' }
  const cli = (...args) => spawnSync(process.execPath, [join(copy, 'bin/command-scout'), ...args], { cwd: repo, encoding: 'utf8', env })
  const scan = cli('scan', '--format', 'json')
  assert.equal(scan.status, 0, scan.stderr)
  const recipes = JSON.parse(scan.stdout).recipes
  assert.deepEqual(recipes.filter((r) => r.source === 'procfile').map((r) => r.name), ['web', 'worker'])
  assert.deepEqual([...new Set(recipes.map((r) => r.source))], ['make', 'procfile'], 'after make, in the table\'s order')
  assert.equal(recipes.find((r) => r.name === 'web').command, 'node server.js')
  const off = cli('scan', '--format', 'json', '--no-procfile')
  assert.equal(off.status, 0, off.stderr)
  assert.deepEqual([...new Set(JSON.parse(off.stdout).recipes.map((r) => r.source))], ['make'], '--no-procfile turns it off')
  assert.match(cli('scan', '--help').stdout, /--no-procfile/)
  const config = await import(pathToFileURL(join(copy, 'dist/src/book/config.js')).href)
  assert.ok(config.COLLECTOR_KEYS.includes('procfile'), 'collectors.procfile is a config key')
  assert.deepEqual(config.normalizeConfig({ collectors: { procfile: { enabled: false } } }).collectors.procfile, { enabled: false })

  const layer = parse(readFileSync(join(copy, 'cordis.patch.yml'), 'utf8'))
  const rows = JSON.stringify(layer)
  assert.match(rows, /"id":"command-scout-procfile","name":"dsh-command-scout\/collectors\/procfile"/)
  const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'))
  assert.ok(pkg.exports['./collectors/procfile'], 'package.json exports its row entry')
  assert.match(readFileSync(join(copy, 'src/collectors/readers.ts'), 'utf8'), /procfile: procfileCollector,/)
  assert.match(readFileSync(join(copy, 'dist/src/dsh/entries/collectors/procfile.js'), 'utf8'), /builtin|collectors\/procfile\.js/)
})
