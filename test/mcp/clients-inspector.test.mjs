// `command-scout mcp` driven by the MCP inspector's CLI (`@modelcontextprotocol/inspector --cli`,
// pinned, installed with the Node 24 it needs by test/setup/60-mcp-clients.sh), a client this project
// did not write: tools/list, prompts/list, prompts/get with arguments, an unknown prompt, a safe
// tools/call that runs and a destructive one refused without "confirm", resources. Each run starts
// the server as the inspector does, with the command line after `--`, in a directory of its own.
// Skips, with the reason, when the inspector did not install.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { tempDir } from '../support/temp.mjs'
import { clientRepo, inspector, LAUNCHER } from './clients-support.mjs'

const run = promisify(execFile)
const cli = inspector()

/** One inspector run: `--cli`, the method and its options, then the server's command line. */
async function inspect(t, root, options) {
  const home = tempDir(t, 'cs-inspector-home-')
  const args = [cli.entry, '--cli', ...options, '--', process.execPath, LAUNCHER, 'mcp', '--root', root]
  // Its own HOME and catalog path: the inspector keeps a catalog of servers, which must not land in the user's.
  const env = { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'catalog.json'), NO_COLOR: '1' }
  try {
    const { stdout, stderr } = await run(cli.node, args, { cwd: home, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    if (typeof error.code !== 'number') throw error
    return { code: error.code, stdout: error.stdout, stderr: error.stderr }
  }
}

/** The answer the run printed; `code` is the exit the inspector gives it (5 for a tool result with isError). */
function json(result, code = 0) {
  assert.equal(result.code, code, `${result.stdout}\n${result.stderr}`)
  return JSON.parse(result.stdout)
}

test('inspector --cli: tools/list has the repository\'s commands, the destructive one asking for confirm', { skip: cli.skip }, async (t) => {
  const root = await clientRepo(t)
  const { tools } = json(await inspect(t, root, ['--method', 'tools/list']))
  const byName = new Map(tools.map((x) => [x.name, x]))
  for (const name of ['curated_recipe_search', 'curated_recipe_render', 'make_hello', 'make_test', 'make_wipe']) assert.ok(byName.has(name), name)
  assert.deepEqual(byName.get('make_wipe').inputSchema.required, ['confirm'])
  assert.equal(byName.get('make_wipe').annotations.destructiveHint, true)
})

test('inspector --cli: prompts/list and prompts/get, with arguments and for an unknown prompt', { skip: cli.skip }, async (t) => {
  const root = await clientRepo(t)
  const { prompts } = json(await inspect(t, root, ['--method', 'prompts/list']))
  assert.deepEqual(prompts.slice(0, 2).map((p) => p.name), ['build_test_lint', 'before_commit'])
  assert.ok(prompts.some((p) => p.name === 'recipes_network'))

  const btl = json(await inspect(t, root, ['--method', 'prompts/get', '--prompt-name', 'build_test_lint']))
  assert.match(btl.messages[0].content.text, /\[test\] tool make_test · runs: make test/)
  assert.match(btl.messages[0].content.text, /no build and no lint command/)

  const net = json(await inspect(t, root, ['--method', 'prompts/get', '--prompt-name', 'recipes_network', '--prompt-args', 'goal=which process uses a port']))
  assert.match(net.messages[0].content.text, /\[network\.find_process_on_port\] .* · matches the goal/)

  const one = json(await inspect(t, root, ['--method', 'prompts/get', '--prompt-name', 'recipes_git', '--prompt-args', 'recipe=git.unstage_files']))
  assert.equal(one.messages[1].content.resource.uri, 'command-scout://recipes/git.unstage_files')

  const unknown = await inspect(t, root, ['--method', 'prompts/get', '--prompt-name', 'no_such_prompt'])
  assert.notEqual(unknown.code, 0)
  assert.match(`${unknown.stdout}${unknown.stderr}`, /Unknown prompt \\?"no_such_prompt\\?"; the prompts are build_test_lint, before_commit, recipes_/)
})

test('inspector --cli: tools/call runs a safe tool, refuses a destructive one without confirm, and searches recipes', { skip: cli.skip }, async (t) => {
  const root = await clientRepo(t)
  const hello = json(await inspect(t, root, ['--method', 'tools/call', '--tool-name', 'make_hello']))
  assert.notEqual(hello.isError, true)
  assert.match(hello.content[0].text, /hello from make/)
  assert.equal(hello.structuredContent.exitCode, 0)

  const wipe = json(await inspect(t, root, ['--method', 'tools/call', '--tool-name', 'make_wipe']), 5)
  assert.equal(wipe.isError, true)
  assert.match(wipe.content[0].text, /^Not run: `make wipe` needs a person's yes/)
  assert.ok(existsSync(join(root, 'src', 'main.c')), 'the refused call ran nothing')

  const search = json(await inspect(t, root, ['--method', 'tools/call', '--tool-name', 'curated_recipe_search', '--tool-arg', 'query=undo commit']))
  assert.equal(search.structuredContent.recipes[0].id, 'git.undo_last_commit')

  const { resources } = json(await inspect(t, root, ['--method', 'resources/list']))
  assert.ok(resources.some((r) => r.uri === 'command-scout://recipes/git.undo_last_commit'))
})
