// Every surface gives the same answer: each shipped recipe, with values for its required parameters,
// rendered through the CLI (`recipes render --format json`), the HTTP API, the MCP server (SDK client
// over stdio) and the dsh tool (curated_recipe_render in the real dsh, for this machine's platform),
// compared with the library's own render.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { REPO_ROOT } from './support.mjs'
import { dshAvailable, makeHome, runDsh, startScriptedModel, toolResults } from '../e2e/harness.mjs'
import { currentPlatform, loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR, supportedPlatforms } from '../../dist/src/curated/index.js'
import { startServer } from '../../dist/src/serve/server.js'

const run = promisify(execFile)
const library = loadLibrary([SHIPPED_RECIPES_DIR])
/** Values tried, in order, for a required string parameter: the first the recipe accepts is used. */
const CANDIDATES = ['example', 'main', 'feature-x', 'a1b2c3d', 'src/app.js', 'backup.dump', 'backup.tar.gz', 'https://example.com/file.tar.gz', 'example.com', 'app_db', '/app/logs', '8080', 'v1.0.0', 'lodash', 'report.csv']

/** Parameter values that render on every supported platform: defaults, plus a value for each required one. */
function paramsFor(recipe) {
  const params = {}
  for (const p of recipe.parameters) {
    if (p.default !== undefined) continue
    if (p.type === 'enum') params[p.name] = p.values[0]
    else if (p.type === 'number') params[p.name] = 1
    else if (p.type === 'boolean') params[p.name] = true
    else {
      params[p.name] = CANDIDATES.find((value) => {
        try {
          renderRecipe(library, recipe.id, { platform: supportedPlatforms(recipe)[0], params: { ...params, [p.name]: value } })
          return true
        } catch (error) {
          return error.param !== p.name
        }
      })
      assert.ok(params[p.name] !== undefined, `no candidate value fits ${recipe.id}'s parameter ${p.name} (${p.pattern}); add one to CANDIDATES`)
    }
  }
  return params
}

const cases = library.recipes.flatMap((recipe) => {
  const params = paramsFor(recipe)
  return supportedPlatforms(recipe).map((platform) => ({ id: recipe.id, platform, params, expected: renderRecipe(library, recipe.id, { platform, params }) }))
})

let server
before(async () => { server = await startServer({ version: 'test' }) })
after(() => server?.close())

test('the library has recipes to compare', () => {
  assert.ok(library.recipes.length >= 50 && cases.length > library.recipes.length, `${library.recipes.length} recipes, ${cases.length} renders`)
})

test('CLI: recipes render --format json', async () => {
  // A few at a time: each is a process start.
  for (let i = 0; i < cases.length; i += 4) {
    await Promise.all(cases.slice(i, i + 4).map(async (c) => {
      const args = [join(REPO_ROOT, 'bin/command-scout'), 'recipes', 'render', c.id, '--platform', c.platform, '--format', 'json', ...Object.entries(c.params).flatMap(([k, v]) => ['--param', `${k}=${v}`])]
      const { stdout } = await run(process.execPath, args)
      assert.deepEqual(JSON.parse(stdout), c.expected, `${c.id} on ${c.platform}`)
    }))
  }
})

test('HTTP API: POST /api/v1/recipes/{id}/render', async () => {
  for (const c of cases) {
    const res = await fetch(`${server.url}api/v1/recipes/${c.id}/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: c.platform, params: c.params }) })
    assert.equal(res.status, 200, `${c.id} on ${c.platform}`)
    assert.deepEqual(await res.json(), c.expected, `${c.id} on ${c.platform}`)
  }
})

test('MCP: curated_recipe_render over stdio', async (t) => {
  const client = new Client({ name: 'surfaces-test', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin/command-scout'), 'mcp', '--root', join(REPO_ROOT, 'test/fixtures/mixed'), '--no-watch'], stderr: 'ignore' }))
  t.after(() => client.close())
  for (const c of cases) {
    const result = await client.callTool({ name: 'curated_recipe_render', arguments: { id: c.id, platform: c.platform, params: c.params } })
    assert.equal(result.isError, undefined, `${c.id}: ${result.content?.[0]?.text}`)
    assert.deepEqual(result.structuredContent, c.expected, `${c.id} on ${c.platform}`)
    assert.deepEqual(JSON.parse(result.content[0].text), c.expected)
  }
})

test('dsh tool: curated_recipe_render in the real dsh, this machine’s platform', { skip: dshAvailable() }, async (t) => {
  const here = cases.filter((c) => c.platform === currentPlatform())
  const home = await makeHome()
  t.after(home.cleanup)
  const model = await startScriptedModel([{ calls: here.map((c) => ({ tool: 'curated_recipe_render', args: { id: c.id, params: c.params } })) }, { text: 'rendered' }])
  t.after(() => model.close())
  const overlay = join(home.root, 'curated.yml')
  const { writeFile } = await import('node:fs/promises')
  await writeFile(overlay, `- insert:\n    - id: command-scout-curated\n      name: '${join(REPO_ROOT, 'dist/src/dsh/entries/curated.js')}'\n`)
  const r = await runDsh({ home, model, cwd: home.root, args: ['--profile', 'headless', '--patch', home.deterministicPatch, '--patch', overlay, 'render them all'], timeoutMs: 180_000 })
  assert.equal(r.code, 0, r.stderr)
  const results = toolResults(r.requests[1])
  assert.equal(results.length, here.length)
  here.forEach((c, i) => assert.deepEqual(JSON.parse(results[i].content), c.expected, c.id))
})
