// Importing the package main loads what a scan needs and not the process library behind
// runCommand (execa and its dependencies), which loads on the first run: seen through Node's
// module hooks in a fresh process, which report every module the loader resolves. From its bundle
// (the default), the import loads the main's few modules and the one script; from the compiled
// modules (COMMAND_SCOUT_MAIN_BUNDLE=off) it loads those a scan needs, and execa with the first run.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from '../support/temp.mjs'

const MAIN = new URL('../../dist/src/index.js', import.meta.url).href
const BUNDLE = new URL('../../dist/src/main.bundle.cjs', import.meta.url)

/** Imports the main in a fresh process with module hooks, runs one command; what the hooks saw. */
function importAndRun(t, env = {}) {
  const dir = tempDir(t, 'cs-main-import-')
  const hooks = join(dir, 'hooks.mjs')
  writeFileSync(hooks, 'let port\nexport function initialize(data) { port = data.port }\nexport async function resolve(spec, ctx, next) { const r = await next(spec, ctx); port.postMessage(r.url); return r }\n')
  const program = join(dir, 'program.mjs')
  writeFileSync(program, `
    import { register } from 'node:module'
    import { MessageChannel } from 'node:worker_threads'
    const seen = []
    const { port1, port2 } = new MessageChannel()
    port1.on('message', (url) => seen.push(url))
    port1.unref()
    register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { port: port2 }, transferList: [port2] })
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50))
    const main = await import(${JSON.stringify(MAIN)})
    await settle()
    const atImport = seen.filter((u) => u.includes('/node_modules/execa/')).length
    const own = seen.filter((u) => u.includes('/dist/src/')).length
    const before = seen.length
    const result = await main.runCommand('echo ran')
    await settle()
    const afterRun = seen.filter((u) => u.includes('/node_modules/execa/')).length
    process.stdout.write(JSON.stringify({ atImport, own, before, afterRun, exitCode: result.exitCode, stdout: result.stdout, discover: typeof main.discover }))
  `)
  const r = spawnSync(process.execPath, [program], { encoding: 'utf8', env: { ...process.env, ...env } })
  assert.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.equal(out.discover, 'function')
  assert.equal(out.atImport, 0, 'no execa module is loaded by the import')
  assert.equal(out.exitCode, 0)
  assert.equal(out.stdout.trim(), 'ran')
  return out
}

test('from its compiled modules, the package main loads execa only when a command first runs, and runCommand still runs it', (t) => {
  const out = importAndRun(t, { COMMAND_SCOUT_MAIN_BUNDLE: 'off' })
  assert.ok(out.before > 5, `the hooks saw the main's modules load (${out.before})`)
  assert.ok(out.afterRun > 0, 'execa loads with the first run')
})

test('from its bundle, importing the package main loads a few modules of its own, and runCommand runs', { skip: !existsSync(BUNDLE) && 'the build made no bundle' }, (t) => {
  const out = importAndRun(t)
  assert.ok(out.own > 0 && out.own <= 6, `the main, its bundle's loader and the cache folder's rules (${out.own} modules of dist/src/)`)
})

test('the package main exports exactly what its API module exports', async () => {
  const main = await import(MAIN)
  const api = await import(new URL('../../dist/src/api.js', import.meta.url).href)
  assert.deepEqual(Object.keys(main).sort(), Object.keys(api).sort())
  for (const name of Object.keys(api)) assert.equal(typeof main[name], typeof api[name], name)
})
