// `command-scout mcp` through the official SDK's own client over stdio: the tool list (same plan and
// descriptions as the dsh tools), a call that really runs, a destructive refusal and its confirmed run,
// a cancel that leaves no process, a manifest edit that changes the list, the dispatcher above the
// threshold, and the curated recipes as tools and resources.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { REPO_ROOT, waitUntil, alive } from './support.mjs'
import { discover } from '../../dist/src/book/discover.js'
import { planTools } from '../../dist/src/book/exposure.js'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

const scratch = await mkdtemp(join(tmpdir(), 'cs-mcp-'))
after(() => rm(scratch, { recursive: true, force: true }))

const MAKEFILE = [
  '# Say hello into a file',
  'hello:',
  '\techo hello from make > ran.txt',
  '',
  '# Remove the sources',
  'wipe:',
  '\trm -rf src',
  '',
  '# Wait a long time, with a child process',
  'sleepy:',
  "\tsh -c 'sleep 300 & echo $$! > child.pid; echo started; wait'",
  '',
].join('\n')

async function repo() {
  const dir = await mkdtemp(join(scratch, 'repo-'))
  await writeFile(join(dir, 'Makefile'), MAKEFILE)
  // What the targets write is output, as a project's .gitignore says: writing it again does not ask.
  await writeFile(join(dir, '.gitignore'), 'ran.txt\nchild.pid\n')
  await mkdir(join(dir, 'src'))
  await writeFile(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n')
  return dir
}

async function connect(t, args, env) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin/command-scout'), 'mcp', ...args], stderr: 'pipe', ...(env ? { env } : {}) })
  const client = new Client({ name: 'command-scout-test', version: '1.0.0' })
  await client.connect(transport)
  t.after(() => client.close())
  return { client, pid: transport.pid }
}

const text = (result) => result.content.map((c) => c.text).join('\n')

test('the tools are the dsh plan: same names and descriptions, plus the curated search and render', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root])
  const { tools } = await client.listTools()
  const config = normalizeConfig({ root })
  const plan = planTools(discover(root, config).book, config, ['curated_recipe_search', 'curated_recipe_render', 'curated_recipe_run'])
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  assert.deepEqual(tools.map((x) => x.name).sort(), ['curated_recipe_render', 'curated_recipe_search', ...plan.map((p) => p.name)].sort())
  for (const p of plan) assert.equal(byName.get(p.name).description, p.description, p.name)
  assert.deepEqual(byName.get('make_wipe').inputSchema.required, ['confirm'])
  assert.match(byName.get('make_wipe').inputSchema.properties.confirm.description, /^Required, because this command needs a person's yes: `rm -rf src` deletes `src`.*Ask the user first/)
  assert.equal(byName.get('make_hello').inputSchema.required, undefined)
  assert.ok(!byName.has('curated_recipe_run'), 'recipe runs are off without --allow-recipe-run')
})

test('a call runs the command in its directory and answers with its output', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root])
  const result = await client.callTool({ name: 'make_hello', arguments: {} })
  assert.equal(result.isError, undefined, text(result))
  assert.match(text(result), /^\$ make hello\n\[exit code: 0\]/)
  assert.equal(result.structuredContent.exitCode, 0)
  assert.equal(await readFile(join(root, 'ran.txt'), 'utf8'), 'hello from make\n')
  const failed = await client.callTool({ name: 'make_hello', arguments: { args: 'no-such-target' } })
  assert.equal(failed.isError, true)
  assert.match(text(failed), /\[exit code: 2\]/)
})

test('a destructive command is refused without confirm, says why, and runs once confirmed', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root])
  const refused = await client.callTool({ name: 'make_wipe', arguments: {} })
  assert.equal(refused.isError, true)
  assert.match(text(refused), /^Not run: `make wipe` .*deletes.*ask the user, and call again with "confirm": true/s)
  assert.ok(existsSync(join(root, 'src', 'main.c')), 'nothing was deleted')
  const done = await client.callTool({ name: 'make_wipe', arguments: { confirm: true } })
  assert.equal(done.isError, undefined, text(done))
  assert.ok(!existsSync(join(root, 'src')), 'the confirmed run deleted src')
})

test('a long run reports progress, and cancelling it kills the whole process tree', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root])
  const controller = new AbortController()
  const progress = []
  const call = client.callTool({ name: 'make_sleepy', arguments: {} }, undefined, { signal: controller.signal, onprogress: (p) => progress.push(p) })
  const pidFile = join(root, 'child.pid')
  await waitUntil(async () => existsSync(pidFile) && (await readFile(pidFile, 'utf8')).trim() !== '', 'the grandchild started')
  const child = Number((await readFile(pidFile, 'utf8')).trim())
  assert.ok(alive(child), 'the grandchild runs')
  await waitUntil(() => progress.length > 0, 'a progress notification')
  assert.match(progress[0].message, /^running for \d+ s/)
  controller.abort()
  await assert.rejects(call, /abort/i)
  await waitUntil(() => !alive(child), `process ${child} gone after the cancel`)
  // The server still answers after a cancel.
  const again = await client.callTool({ name: 'make_hello', arguments: {} })
  assert.equal(again.structuredContent.exitCode, 0)
})

test('editing a manifest sends tools/list_changed and the list follows', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root])
  let changed = 0
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed++ })
  assert.ok(!(await client.listTools()).tools.some((x) => x.name === 'make_lint'))
  await appendFile(join(root, 'Makefile'), '\n# Check the style\nlint:\n\techo lint\n')
  await waitUntil(() => changed > 0, 'notifications/tools/list_changed')
  const { tools } = await client.listTools()
  assert.ok(tools.some((x) => x.name === 'make_lint'), `make_lint listed (got ${tools.map((x) => x.name).join(', ')})`)
})

test('above the threshold one dispatcher tool takes an op, and confirmation still guards destructive tasks', async (t) => {
  const root = await repo()
  const { client } = await connect(t, ['--root', root, '--threshold', '1'])
  const { tools } = await client.listTools()
  assert.deepEqual(tools.map((x) => x.name), ['curated_recipe_search', 'curated_recipe_render', 'recipe'])
  const recipe = tools.find((x) => x.name === 'recipe')
  assert.match(recipe.description, /\n- wipe \[asks for approval\]\n/)
  const ran = await client.callTool({ name: 'recipe', arguments: { op: 'hello' } })
  assert.equal(ran.structuredContent.task, 'make:hello')
  const unknown = await client.callTool({ name: 'recipe', arguments: { op: 'nope' } })
  assert.equal(unknown.isError, true)
  assert.match(text(unknown), /Unknown task `nope`\. Available tasks:\nmake: \.DEFAULT_GOAL, hello, wipe, sleepy/)
  const refused = await client.callTool({ name: 'recipe', arguments: { op: 'wipe' } })
  assert.equal(refused.isError, true)
  assert.ok(existsSync(join(root, 'src')), 'nothing was deleted')
})

test('curated recipes: search, render as the library renders, run only when allowed and confirmed, resources', async (t) => {
  const root = await repo()
  await writeFile(join(root, 'data.txt'), 'hello')
  await mkdir(join(root, 'old build'))
  const { client } = await connect(t, ['--root', root, '--allow-recipe-run', '--dir', join(REPO_ROOT, 'test/fixtures/curated/runnable')])
  const found = await client.callTool({ name: 'curated_recipe_search', arguments: { query: 'undo commit' } })
  assert.match(text(found), /^git\.undo_last_commit \[medium\]/m)
  const library = loadLibrary([SHIPPED_RECIPES_DIR, join(REPO_ROOT, 'test/fixtures/curated/runnable')])
  const rendered = await client.callTool({ name: 'curated_recipe_render', arguments: { id: 'files.check_file', params: { path: 'data.txt' }, platform: 'macos' } })
  assert.deepEqual(rendered.structuredContent, renderRecipe(library, 'files.check_file', { platform: 'macos', params: { path: 'data.txt' } }))
  const bad = await client.callTool({ name: 'curated_recipe_render', arguments: { id: 'files.check_file', params: { path: '-rf' } } })
  assert.equal(bad.isError, true)
  assert.match(text(bad), /parameter `path` .* may not start with `-`/)
  const run = await client.callTool({ name: 'curated_recipe_run', arguments: { id: 'files.check_file', params: { path: 'data.txt' } } })
  assert.match(text(run), /done, verified/)
  const refused = await client.callTool({ name: 'curated_recipe_run', arguments: { id: 'files.remove_tree', params: { dir: 'old build' } } })
  assert.equal(refused.isError, true)
  assert.match(text(refused), /^Not run: this recipe needs a person's yes, because it is destructive.*\n.*Delete a directory tree.*DESTRUCTIVE/s)
  assert.ok(existsSync(join(root, 'old build')))
  const confirmed = await client.callTool({ name: 'curated_recipe_run', arguments: { id: 'files.remove_tree', params: { dir: 'old build' }, confirm: true } })
  assert.equal(confirmed.isError, undefined, text(confirmed))
  assert.ok(!existsSync(join(root, 'old build')))
  const { resources } = await client.listResources()
  assert.ok(resources.some((r) => r.uri === 'command-scout://recipes/git.undo_last_commit'))
  const read = await client.readResource({ uri: 'command-scout://recipes/git.undo_last_commit' })
  assert.equal(JSON.parse(read.contents[0].text).id, 'git.undo_last_commit')
})

test('closing the client ends the server, and bad options are usage errors on stderr', async (t) => {
  const root = await repo()
  const { client, pid } = await connect(t, ['--root', root])
  await client.close()
  await waitUntil(() => !alive(pid), 'the server exited when stdin closed')
  const { spawnSync } = await import('node:child_process')
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'mcp', '--exposure', 'many'], { encoding: 'utf8' })
  assert.equal(r.status, 2)
  assert.equal(r.stdout, '')
  assert.match(r.stderr, /--exposure must be one of auto, tools, dispatcher/)
})

test('a command whose runner is not installed says so in its tool and is refused with how to install it', async (t) => {
  const root = await mkdtemp(join(scratch, 'runner-'))
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'x', packageManager: 'pnpm@9.0.0', scripts: { greet: 'echo hi > ran.txt' } }))
  // A PATH with node and the shell but no pnpm.
  const PATH = `${dirname(process.execPath)}:/bin`
  if (PATH.split(':').some((d) => existsSync(join(d, 'pnpm')))) return t.skip('pnpm is on the reduced PATH here')
  const { client } = await connect(t, ['--root', root], { PATH })
  const { tools } = await client.listTools()
  const greet = tools.find((x) => x.name === 'pnpm_greet')
  assert.ok(greet, tools.map((x) => x.name).join(', '))
  assert.match(greet.description, /Warning: pnpm is not installed here/)
  const refused = await client.callTool({ name: 'pnpm_greet', arguments: {} })
  assert.equal(refused.isError, true)
  assert.match(text(refused), /^Not run: pnpm is not installed here \(not on PATH\), so `pnpm run greet` can't run; install pnpm/)
  assert.equal(existsSync(join(root, 'ran.txt')), false)
})
