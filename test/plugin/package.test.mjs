import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { BUILTIN_SOURCES } from '../../dist/src/base/collector-table.js'

const root = new URL('../../', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(new URL('package.json', new URL('../../', import.meta.url)), 'utf8'))

test('every exports target ships in the packed package, types first', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }))
  const files = new Set(packed.files.map((f) => f.path))
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const targets = typeof target === 'string' ? [target] : Object.values(target)
    if (typeof target === 'object') assert.equal(Object.keys(target)[0], 'types', `${subpath}: types comes first`)
    for (const t of targets) assert.ok(files.has(t.replace(/^\.\//, '')), `${subpath} -> ${t} is in the tarball`)
  }
  assert.ok(files.has('cordis.patch.yml'))
  assert.equal(pkg.dsh.bundle.patch, './cordis.patch.yml')
})

test('the harness packages are peers, pinned as devDependencies; the main entry imports no harness code', async () => {
  for (const peer of ['@deepseek-ai/cordis', '@deepseek-ai/dsh-tools', '@deepseek-ai/schemastery', '@deepseek-ai/dsh-shell']) {
    assert.ok(pkg.peerDependencies[peer], `${peer} is a peer`)
    assert.equal(pkg.devDependencies[peer], pkg.peerDependencies[peer], `${peer} is mirrored in devDependencies`)
    assert.equal(pkg.dependencies[peer], undefined)
  }
  const main = readFileSync(new URL('dist/src/index.js', new URL('../../', import.meta.url)), 'utf8')
  assert.doesNotMatch(main, /@deepseek-ai\/|\.\/plugin\//)
})

test('every row of the patch layer names an exported plugin module with a valid default config', async () => {
  const rows = parse(readFileSync(new URL('cordis.patch.yml', new URL('../../', import.meta.url)), 'utf8'))[0].insert
  // The service row, one row per collector of the table in its order, then the wings.
  const collectorRows = BUILTIN_SOURCES.map((source) => `command-scout-${source}`)
  assert.ok(collectorRows.length > 0, 'the collector table has rows')
  const wings = ['command-scout-curated', 'command-scout-skills', 'command-scout-kitchen', 'command-scout-rulebook-craft']
  assert.deepEqual(rows.map((r) => r.id), ['command-scout', ...collectorRows, ...wings])
  for (const row of rows) {
    const mod = await import(row.name) // self-reference through the exports map, as the loader resolves it
    const plugin = mod.default ?? mod
    assert.ok(typeof plugin === 'function' || typeof plugin.apply === 'function', `${row.name} is a plugin`)
    if (row.config !== undefined || plugin.Config) {
      // A row with settings spells out exactly its plugin's defaults; a row without (a rulebook) has none.
      assert.ok(plugin.Config, `${row.name} declares a Config`)
      assert.deepEqual(plugin.Config(row.config ?? {}), plugin.Config({}), 'the layer spells out exactly the defaults')
    }
    assert.ok([plugin.inject ?? []].flat().length > 0, `${row.name} waits for its services`)
  }
})
