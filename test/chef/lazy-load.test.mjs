// The kitchen row loads almost nothing at start: in the real dsh with the bundle's rows, a session
// that never turns chef mode on loads none of the kitchen core and none of the chef's host,
// sessions, operations or tools (a preload writes down each module of this package that dsh loads);
// `/chef on` then loads them and chef mode works.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import { REPO_ROOT, dshAvailable } from '../e2e/harness.mjs'
import { toolNames } from '../support/fake-model.mjs'
import { tempDir, waitUntil } from '../support/temp.mjs'
import { chefWorld } from './support.mjs'

const skip = dshAvailable()
const PRELOAD = pathToFileURL(join(import.meta.dirname, 'fixtures/module-log.mjs')).href
const CHEF_TOOLS = ['chef_add_project', 'chef_board', 'chef_close', 'chef_dispatch', 'chef_result', 'chef_send', 'chef_stop']
/** What the row needs from its start: the kitchen's role contract and nothing else of the kitchen. */
const KITCHEN_AT_START = ['kitchen/events.js']
const CORE = ['chef/core.js', 'chef/host.js', 'chef/sessions.js', 'chef/operations.js', 'chef/tools.js', 'kitchen/index.js', 'kitchen/kitchen.js']

/** The bundle's other enabled rows (cordis.patch.yml), each naming its file in dist/ as the bundle's package exports it. */
function bundleRows() {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))
  const layer = parse(readFileSync(join(REPO_ROOT, 'cordis.patch.yml'), 'utf8'))
  const rows = layer.flatMap((patch) => patch.insert ?? []).filter((row) => row.disabled !== true && row.id !== 'command-scout-kitchen')
  return rows.flatMap((row) => {
    const sub = row.name === pkg.name ? '.' : `.${row.name.slice(pkg.name.length)}`
    const file = join(REPO_ROOT, pkg.exports[sub].default)
    return [`    - id: ${row.id}`, `      name: '${file}'`, ...(row.config ? [`      config: ${JSON.stringify(row.config)}`] : [])]
  })
}

/** The modules of this package each process loaded so far: path under dist/src -> pids. */
function loaded(log) {
  let text = ''
  try {
    text = readFileSync(log, 'utf8')
  } catch {
    return new Map()
  }
  const out = new Map()
  for (const line of text.split('\n').filter(Boolean)) {
    const [pid, path] = line.split(' ')
    out.set(path, [...(out.get(path) ?? []), pid])
  }
  return out
}

test('a session that never turns chef mode on loads no kitchen core; /chef on loads it and works', { skip, timeout: 300_000 }, async (t) => {
  const log = join(tempDir(t, 'cs-chef-lazy-'), 'modules.log')
  // Each row from its compiled modules, one file per module, so that the preload sees which load (the
  // harness bundle keeps the same imports lazy, inside one file).
  const env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PRELOAD}`.trim(), CS_MODULE_LOG: log, COMMAND_SCOUT_HARNESS_BUNDLE: 'off' }
  const w = await chefWorld(t, { chefOn: false, env, extraRows: bundleRows() })

  // A plain session's turn: the agent is created, its session starts, the model answers, ticks run.
  const before = w.model.default.requests.length
  await w.web.prompt(w.sessionId, 'hello')
  const [plain] = await w.model.default.waitForRequests(before + 1).then((r) => r.slice(before))
  assert.deepEqual(toolNames(plain.body).filter((n) => n.startsWith('chef_')), [])

  const atStart = loaded(log)
  // The log is honest: the kitchen row and the bundle's adapter were loaded (and written down).
  assert.ok(atStart.has('chef/provider.js'), `the kitchen row was not written down: ${[...atStart.keys()].join(', ')}`)
  assert.ok(atStart.has('dsh/adapter.js'), 'the adapter row was not written down')
  const kitchenModules = [...atStart.keys()].filter((p) => p.startsWith('kitchen/')).sort()
  assert.deepEqual(kitchenModules, KITCHEN_AT_START)
  for (const m of CORE) assert.equal(atStart.has(m), false, `${m} was loaded before /chef on`)

  // /chef on loads the core, opens the kitchen, and the chef's next request has the chef tools.
  const on = await w.web.command(w.sessionId, '/chef on')
  assert.equal(on.kind, 'success', on.text)
  assert.match(on.text, /^Chef mode on: you own the kitchen at /)
  await waitUntil(() => CORE.every((m) => loaded(log).has(m)), { what: 'the kitchen core to be loaded' })
  const [chef] = await w.say([{ tool: 'chef_board', args: {} }])
  assert.deepEqual(toolNames(chef.body).filter((n) => n.startsWith('chef_')).sort(), CHEF_TOOLS)
  assert.match(JSON.stringify(chef.body.messages[0]), /You are the chef/)
})
