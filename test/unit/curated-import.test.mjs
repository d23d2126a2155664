// The curated tools' entry registers its three tools from static definitions and loads no curated
// library module (nor yaml) until a tool is first called; the first call, a search or a run that
// must ask, then answers as before. Seen through Node's module hooks in a fresh process, which
// report every module the loader resolves.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from '../support/temp.mjs'
import { CURATED_DESCRIPTIONS } from '../../dist/src/curated/summary.js'
import { currentPlatform } from '../../dist/src/curated/render.js'

const DIST = new URL('../../dist/src/', import.meta.url).href
const PEERS = ['@deepseek-ai/cordis', '@deepseek-ai/dsh-system-prompt', '@deepseek-ai/dsh-tools'].map((p) => import.meta.resolve(p))

const HOOKS = `let port
export function initialize(data) { port = data.port }
export async function resolve(spec, ctx, next) { const r = await next(spec, ctx); port.postMessage(r.url); return r }
`

const PROGRAM = `
  import { register } from 'node:module'
  import { MessageChannel } from 'node:worker_threads'
  const [hooks, dist, cordis, systemPrompt, tools, tool, args] = process.argv.slice(2)
  const seen = []
  const { port1, port2 } = new MessageChannel()
  port1.on('message', (url) => seen.push(url))
  port1.unref()
  register(hooks, { data: { port: port2 }, transferList: [port2] })
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50))
  const entry = await import(dist + 'dsh/entries/curated.js')
  const { Context } = await import(cordis)
  const ctx = new Context()
  await ctx.plugin((await import(systemPrompt)).default, {})
  await ctx.plugin((await import(tools)).default, {})
  await ctx.plugin(entry.default, {})
  await settle()
  const light = ['curated/schema.js', 'curated/descriptions.js']
  const library = () => seen.filter((u) => u.includes('/node_modules/yaml/') || (u.startsWith(dist + 'curated/') && !light.includes(u.slice(dist.length))))
  const atStart = library()
  const schemas = ctx.tools.schemas().filter((s) => s.name.startsWith('curated_recipe_'))
  const result = await ctx.tools.execute({ callId: 'c1', name: tool, arguments: JSON.parse(args), agent: { id: 'a' }, signal: new AbortController().signal })
  await settle()
  process.stdout.write(JSON.stringify({ before: seen.length, atStart, afterCall: library(), schemas, result }))
`

function firstCall(t, tool, args) {
  const dir = tempDir(t, 'cs-curated-import-')
  const hooks = join(dir, 'hooks.mjs')
  writeFileSync(hooks, HOOKS)
  const program = join(dir, 'program.mjs')
  writeFileSync(program, PROGRAM)
  // The compiled modules, one file each, so that the hooks see which load (the harness bundle keeps the same imports lazy in one file).
  const env = { ...process.env, COMMAND_SCOUT_HARNESS_BUNDLE: 'off' }
  const r = spawnSync(process.execPath, [program, pathToFileURL(hooks).href, DIST, ...PEERS, tool, JSON.stringify(args)], { encoding: 'utf8', env })
  assert.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.ok(out.before > 20, `the hooks saw the entry's modules load (${out.before})`)
  assert.deepEqual(out.atStart, [], 'no curated library module and no yaml module load with the tools')
  assert.ok(out.afterCall.some((u) => u.includes('/node_modules/yaml/')), 'yaml loads with the first call')
  assert.ok(out.afterCall.includes(`${DIST}curated/confirm.js`), 'the confirmation rules load with the first call')
  return out
}

test('the curated tools load the library on their first call; their definitions are the shared texts', (t) => {
  const out = firstCall(t, 'curated_recipe_search', { query: 'undo commit' })
  const byName = Object.fromEntries(out.schemas.map((s) => [s.name, s]))
  assert.deepEqual(Object.keys(byName).sort(), ['curated_recipe_render', 'curated_recipe_run', 'curated_recipe_search'])
  const platform = currentPlatform()
  assert.equal(byName.curated_recipe_search.description, CURATED_DESCRIPTIONS.search)
  assert.equal(byName.curated_recipe_render.description, CURATED_DESCRIPTIONS.render(platform))
  assert.equal(byName.curated_recipe_run.description, CURATED_DESCRIPTIONS.run(platform))
  const props = byName.curated_recipe_search.parameters.properties
  for (const key of ['query', 'category', 'tags', 'risk']) assert.equal(props[key].description, CURATED_DESCRIPTIONS[key], key)
  assert.equal(byName.curated_recipe_run.parameters.properties.id.description, CURATED_DESCRIPTIONS.runId)
  assert.equal(byName.curated_recipe_render.parameters.properties.id.description, CURATED_DESCRIPTIONS.id)
  assert.equal(byName.curated_recipe_run.parameters.properties.cwd.description, CURATED_DESCRIPTIONS.cwd)
  assert.equal(out.result.isError, false, JSON.stringify(out.result))
  assert.match(out.result.content[0].text, /^git\.undo_last_commit \[medium\] Undo the last commit/m)
})

test('a run as the first call is judged before it runs: a medium recipe with no one to ask is refused, with why', (t) => {
  const out = firstCall(t, 'curated_recipe_run', { id: 'git.undo_last_commit' })
  assert.equal(out.result.isError, true)
  assert.match(out.result.content[0].text, /was not run: it needs a person's approval, and no approval service is loaded/)
  assert.match(out.result.content[0].text, /git\.undo_last_commit, risk medium/)
})
