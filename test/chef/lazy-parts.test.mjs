// The parts of the kitchen row that exist before its core loads: the provider's module graph (no
// kitchen core in it), its schema check of a new row config, and its log lines said once.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import module from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPO_ROOT, dshInstall } from '../e2e/harness.mjs'
import { tempDir } from '../support/temp.mjs'
import { ReportOnce } from '../../dist/src/chef/plugin-context.js'
import { checkRowConfig, PLUGIN_NAME } from '../../dist/src/chef/schema.js'

const PRELOAD = pathToFileURL(join(import.meta.dirname, 'fixtures/module-log.mjs')).href

// The Node dsh runs on when it is installed (it has module.registerHooks), else this one.
const NODE = existsSync(dshInstall().node) ? dshInstall().node : process.execPath
const noHooks = NODE === process.execPath && typeof module.registerHooks !== 'function' && 'module.registerHooks needs Node >= 22.15'

test('importing the kitchen row loads no kitchen module but its role contract', { skip: noHooks }, (t) => {
  const log = join(tempDir(t, 'cs-chef-lazy-'), 'modules.log')
  const provider = pathToFileURL(join(REPO_ROOT, 'dist/src/chef/provider.js')).href
  const r = spawnSync(NODE, ['--import', PRELOAD, '--input-type=module', '-e', `await import(${JSON.stringify(provider)})`], {
    cwd: REPO_ROOT, env: { ...process.env, CS_MODULE_LOG: log }, encoding: 'utf8',
  })
  assert.equal(r.status, 0, r.stderr)
  const paths = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[1])
  assert.ok(paths.includes('chef/provider.js'), paths.join(', '))
  assert.deepEqual(paths.filter((p) => p.startsWith('kitchen/')), ['kitchen/events.js'])
  for (const heavy of ['chef/core.js', 'chef/host.js', 'chef/command.js', 'chef/sessions.js']) assert.equal(paths.includes(heavy), false, heavy)
})

test('a new row config is schema-checked: defaults filled, or refused with the reason', () => {
  const ok = checkRowConfig({ maxCooks: 2 })
  assert.equal(ok.row.maxCooks, 2)
  assert.equal(ok.row.verifyTimeoutMs, 300_000)
  const bad = checkRowConfig({ maxCooks: 'many' })
  assert.equal('row' in bad, false)
  assert.match(bad.refused, new RegExp(`^${PLUGIN_NAME} config: .+; the kitchen keeps its config$`))
})

test('the row says each log line once', () => {
  const said = []
  const ctx = { logger: (name) => ({ warn: (_f, line) => said.push([name, line]) }) }
  const log = new ReportOnce(ctx)
  log.report(['a', 'b'])
  log.report(['b', 'c'])
  assert.deepEqual(said, [[PLUGIN_NAME, 'a'], [PLUGIN_NAME, 'b'], [PLUGIN_NAME, 'c']])
})
