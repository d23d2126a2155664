// `command-scout mcp` driven by the Python MCP SDK (PyPI `mcp`, pinned, installed by
// test/setup/60-mcp-clients.sh), a client this project did not write, through a small client
// script (test/mcp/python-client.py): initialize, tools/list, prompts/list, prompts/get with and
// without arguments, an unknown prompt (invalid params naming the known ones), a safe tools/call
// that runs, a destructive one refused without "confirm", and prompts/list_changed after a
// manifest edit. Skips, with the reason, when the SDK did not install.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { tempDir } from '../support/temp.mjs'
import { waitUntil } from './support.mjs'
import { clientRepo, LAUNCHER, pythonSdk } from './clients-support.mjs'

const sdk = pythonSdk()
const SCRIPT = new URL('./python-client.py', import.meta.url).pathname

test('the Python MCP SDK lists the tools and prompts, gets prompts, calls tools and hears prompts/list_changed', { skip: sdk.skip }, async (t) => {
  const root = await clientRepo(t)
  const home = tempDir(t, 'cs-py-home-')
  const child = spawn(sdk.python, [SCRIPT, process.execPath, LAUNCHER, 'mcp', '--root', root], {
    cwd: home,
    env: { ...process.env, HOME: home, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  const steps = new Map()
  createInterface({ input: child.stdout }).on('line', (line) => {
    const value = JSON.parse(line)
    steps.set(value.step, value)
  })
  await waitUntil(() => steps.has('ready') || child.exitCode !== null, 'the Python client to get ready', 60_000)
  assert.ok(steps.has('ready'), `the client stopped early:\n${stderr}`)
  await appendFile(join(root, 'Makefile'), '\n## Lint the sources\nlint:\n\t@echo linted\n')
  const { code } = await exited
  assert.equal(code, 0, stderr)

  const init = steps.get('initialize')
  assert.equal(init.server, 'command-scout')
  assert.equal(init.capabilities.prompts.listChanged, true)

  const tools = new Map(steps.get('tools').tools.map((x) => [x.name, x]))
  for (const name of ['curated_recipe_search', 'curated_recipe_render', 'make_hello', 'make_test', 'make_wipe']) assert.ok(tools.has(name), name)
  assert.deepEqual(tools.get('make_wipe').inputSchema.required, ['confirm'])
  assert.equal(tools.get('make_wipe').annotations.destructiveHint, true)

  const prompts = steps.get('prompts').prompts.map((p) => p.name)
  assert.deepEqual(prompts.slice(0, 2), ['build_test_lint', 'before_commit'])
  assert.ok(prompts.includes('recipes_git'))

  const btl = steps.get('build_test_lint').result.messages[0].content.text
  assert.match(btl, /Found: build: none, test: 1, lint: none/)
  assert.match(btl, /\[test\] tool make_test · runs: make test · declared in Makefile:6 · described as: Run the tests/)
  assert.match(steps.get('recipes_git').result.messages[0].content.text, /\[git\.undo_last_commit\] .* · matches the goal/)

  const unknown = steps.get('unknown_prompt').error
  assert.equal(unknown.code, -32602)
  assert.match(unknown.message, /Unknown prompt "no_such_prompt"; the prompts are build_test_lint, before_commit, recipes_/)

  const hello = steps.get('make_hello').result
  assert.notEqual(hello.isError, true)
  assert.match(hello.content[0].text, /\$ make hello\n\[exit code: 0\][\s\S]*hello from make/)
  const wipe = steps.get('make_wipe').result
  assert.equal(wipe.isError, true)
  assert.match(wipe.content[0].text, /^Not run: `make wipe` needs a person's yes/)
  assert.ok(existsSync(join(root, 'src', 'main.c')), 'the refused call ran nothing')

  const after = steps.get('prompts_after_change').prompts.find((p) => p.name === 'build_test_lint')
  assert.match(after.description, /lint: make_lint/)
})
