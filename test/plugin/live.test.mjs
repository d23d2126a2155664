import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { createRecipe } from '../../dist/src/book/recipe.js'
import { CommandScout, eventually, makePlugin, startApp, tempRepo, text } from './app.mjs'

test('a config change re-scans and re-registers without restarting the harness', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.ok(app.names().includes('make_build'))
  const before = app.toolChanges
  // what the loader does when a patch layer changes the row's config
  app.adapter.update({ root: repo.dir, exposure: 'dispatcher' })
  await eventually(() => app.ctx.get('recipes')?.toolNames().includes('recipe'), 'the dispatcher after the config change')
  assert.equal(app.names().includes('make_build'), false)
  assert.ok(app.toolChanges > before, 'tools/change was emitted')
  app.adapter.update({ root: repo.dir, naming: { style: 'flat' } })
  await eventually(() => app.ctx.get('recipes')?.toolNames().includes('build'), 'flat names after the second change')
  // the collector row came back with the new book, and its tools run
  const r = await app.call('build')
  assert.equal(r.value.stdout, 'built 1.0.0\n')
})

test('a collector row\'s config change (enabled: false) removes its recipes', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.equal(app.ours().length, 6)
  app.collectorFibers[0].update({ enabled: false })
  await eventually(() => app.ours().length === 0, 'no make tools once the make row is disabled')
  app.collectorFibers[0].update({ enabled: true })
  await eventually(() => app.ours().length === 6, 'make tools back once re-enabled')
})

test('editing the Makefile mid-session changes the tool set, debounced, without a restart', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const makefile = join(repo.dir, 'Makefile')
  const original = await readFile(makefile, 'utf8')
  await writeFile(makefile, `${original}\n## Package the app\npackage:\n\t@echo packaged > package.txt\n`)
  await eventually(() => app.names().includes('make_package'), 'make_package after the edit')
  assert.match(app.ctx.tools.get('make_package').description, /Package the app/)
  const r = await app.call('make_package')
  assert.equal(r.value.ok, true, text(r))
  assert.equal((await readFile(join(repo.dir, 'package.txt'), 'utf8')).trim(), 'packaged')
  // a description change re-registers the same name with the new text
  await writeFile(makefile, (await readFile(makefile, 'utf8')).replace('## Package the app', '## Bundle everything'))
  await eventually(() => /Bundle everything/.test(app.ctx.tools.get('make_package')?.description ?? ''), 'the new description')
  // deleting the Makefile removes every make tool
  await rm(makefile)
  await eventually(() => app.ours().length === 0, 'no tools after the Makefile is gone')
})

test('a manifest appearing where a collector reads it adds its recipes; ignored folders do not', async (t) => {
  const repo = await tempRepo({ empty: true })
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours(), [])
  await mkdir(join(repo.dir, 'node_modules/dep'), { recursive: true })
  await writeFile(join(repo.dir, 'node_modules/dep/Makefile'), 'x:\n\t@true\n')
  await writeFile(join(repo.dir, 'Makefile'), 'hello:\n\t@echo hi\n')
  await eventually(() => app.ours().includes('make_hello'), 'make_hello after the Makefile appears')
  assert.deepEqual(app.ours(), ['make_default_goal', 'make_hello'])
})

test('disposal: unloading a collector row removes its tools; unloading the book removes every tool', async (t) => {
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  await app.collectorFibers[0].dispose()
  await eventually(() => app.ours().length === 0, 'make tools gone with the make row')
  await app.ctx.plugin(makePlugin, {})
  await eventually(() => app.ours().length === 6, 'make tools back with a new make row')
  await app.adapter.dispose()
  assert.deepEqual(app.names().filter((n) => n.startsWith('make_')), [])
  assert.equal(app.ctx.get('recipes'), undefined)
})

// A third-party collector: one more plugin row that injects `recipes`. It lives only in this test.
const gradlePlugin = {
  name: 'test-gradle-collector',
  inject: ['recipes'],
  apply(ctx) {
    ctx.recipes.addCollector({
      source: 'gradle',
      manifestNames: ['build.gradle'],
      collect(root) {
        let textValue
        try {
          textValue = require_(join(root, 'build.gradle'))
        } catch {
          return { recipes: [], diagnostics: [], files: [] }
        }
        const recipes = [...textValue.matchAll(/^task (\w+)/gm)].map((m) => createRecipe({
          source: 'gradle', runner: 'gradle', name: m[1], command: `echo gradle ${m[1]}`, file: 'build.gradle',
        }))
        return { recipes, diagnostics: [], files: ['build.gradle'] }
      },
    })
  },
}
import { readFileSync } from 'node:fs'
function require_(path) { return readFileSync(path, 'utf8') }

test('a third-party collector plugin contributes tools, re-scans its manifest, and unloads cleanly', async (t) => {
  const repo = await tempRepo()
  await writeFile(join(repo.dir, 'build.gradle'), 'task assemble\ntask check\n')
  const app = await startApp({ root: repo.dir, collectors: [makePlugin, gradlePlugin] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.ok(app.ours().includes('gradle_assemble'))
  assert.ok(app.ours().includes('make_build'))
  // built-in sources first, third parties after
  assert.deepEqual(app.ctx.recipes.book().entries().map((r) => r.source).at(-1), 'gradle')
  const r = await app.call('gradle_check')
  assert.equal(r.value.stdout, 'gradle check\n')
  await writeFile(join(repo.dir, 'build.gradle'), 'task assemble\ntask publishDocs\n')
  await eventually(() => app.ours().includes('gradle_publishdocs') && !app.ours().includes('gradle_check'), 'the re-scanned gradle tasks')
  await app.collectorFibers[1].dispose()
  await eventually(() => !app.ours().some((n) => n.startsWith('gradle_')), 'gradle tools gone with their row')
  assert.ok(app.ours().includes('make_build'))
})

test('contribute(): a static contribution with diagnostics, removed by its disposer', async (t) => {
  const repo = await tempRepo({ empty: true })
  const app = await startApp({ root: repo.dir, collectors: [] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  const recipe = createRecipe({ source: 'extra', runner: 'echo', name: 'hi', command: 'echo hi', file: 'extra.txt' })
  const dispose = app.ctx.recipes.contribute('extra', [recipe], [{ file: 'extra.txt', line: 2, message: 'bad line', severity: 'warning' }])
  assert.deepEqual(app.ours(), ['echo_hi'])
  assert.deepEqual(app.ctx.recipes.diagnostics().map((d) => [d.source, d.file, d.line, d.message]), [['extra', 'extra.txt', 2, 'bad line']])
  dispose()
  assert.deepEqual(app.ours(), [])
  assert.deepEqual(app.ctx.recipes.diagnostics(), [])
})

test('a bad config is refused with the field and the fix', async (t) => {
  const { normalizeAdapterConfig, normalizeCollectorConfig, AdapterConfig } = await import('../../dist/src/dsh/schema.js')
  assert.throws(() => AdapterConfig({ exposure: 'sometimes' }), /exposure expected "auto" \| "tools" \| "dispatcher"/)
  assert.throws(() => normalizeAdapterConfig({ collectors: { makefile: { enabled: false } } }), /each collector is its own plugin row/)
  assert.throws(() => normalizeAdapterConfig({ nmaing: {} }), /config \.nmaing: unknown option/)
  assert.throws(() => normalizeCollectorConfig('scripts', { runner: 'cargo' }), /runner: must be one of auto \| npm \| yarn \| pnpm \| bun/)
  const defaults = normalizeAdapterConfig(AdapterConfig({}))
  assert.equal(defaults.exposure, 'auto')
  assert.equal(defaults.dispatcherThreshold, 40)
  assert.equal(defaults.execution.timeoutMs, 120000)
  // in a context: the loader refuses the row and nothing is registered
  const repo = await tempRepo()
  const app = await startApp({ root: repo.dir, collectors: [] })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  await app.adapter.dispose()
  await assert.rejects(async () => { await app.ctx.plugin(CommandScout, { root: repo.dir, exposure: 'sometimes' }) }, /exposure expected "auto" \| "tools" \| "dispatcher" but got "sometimes"/)
  await assert.rejects(async () => { await app.ctx.plugin(CommandScout, { root: repo.dir, collectors: {} }) }, /each collector is its own plugin row/)
  assert.equal(app.ctx.get('recipes'), undefined)
  assert.deepEqual(app.names().filter((n) => n.startsWith('make_')), [])
})

test('a root that is not a directory gives a diagnostic and no tools, not a crash', async (t) => {
  const repo = await tempRepo({ empty: true })
  const app = await startApp({ root: join(repo.dir, 'missing') })
  t.after(async () => { await app.stop(); await repo.cleanup() })
  assert.deepEqual(app.ours(), [])
  assert.match(app.ctx.recipes.diagnostics()[0].message, /scan root .*missing is not a directory; set the command-scout row's `root`/)
})
