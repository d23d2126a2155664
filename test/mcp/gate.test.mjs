// The destructive gate over MCP as a client meets it: the SDK's own client over stdio to
// `command-scout mcp --root <repo>`. The hints and `confirm` of tools/list follow what each body
// does; a destructive call without confirm is refused and deletes nothing, with it it runs;
// injected args never run; a clean of build output runs unasked; a curated recipe of risk medium
// asks for confirm.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { REPO_ROOT } from './support.mjs'
import { tempDir } from '../support/temp.mjs'
import { INJECTIONS, PROBE_WORD, gitWithTwoCommits, outputKept, probeRan, sourcesKept, writeGateRepo } from '../gate/repos.mjs'

async function connect(t, root, extra = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin/command-scout'), 'mcp', '--root', root, '--no-watch', ...extra], stderr: 'pipe' })
  const client = new Client({ name: 'command-scout-gate-test', version: '1.0.0' })
  await client.connect(transport)
  t.after(() => client.close())
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]))
  return { tools, call: (name, args = {}) => client.callTool({ name, arguments: args }) }
}

const text = (result) => result.content.map((c) => c.text).join('\n')

test('tools/list: destructiveHint and a required confirm exactly where the body deletes sources; args are a list of words', async (t) => {
  const root = writeGateRepo(tempDir(t, 'mcp-gate-'))
  const { tools } = await connect(t, root)
  const clean = tools.get('make_clean')
  assert.equal(clean.annotations.destructiveHint, true)
  assert.equal(clean.annotations.readOnlyHint, false)
  assert.deepEqual(clean.inputSchema.required, ['confirm'])
  assert.match(clean.inputSchema.properties.confirm.description, /rm -rf src/)
  for (const name of ['make_build', 'make_tidy']) {
    const tool = tools.get(name)
    assert.equal(tool.annotations.destructiveHint, false, name)
    assert.equal(tool.inputSchema.required, undefined, name)
    assert.deepEqual(tool.inputSchema.properties.args.type, 'array', name)
    assert.deepEqual(tool.inputSchema.properties.args.items, { type: 'string' }, name)
  }
})

test('a destructive call without confirm is refused with the reason and deletes nothing; with confirm: true it runs', async (t) => {
  const root = writeGateRepo(tempDir(t, 'mcp-gate-'))
  const { call } = await connect(t, root)
  const refused = await call('make_clean')
  assert.equal(refused.isError, true)
  assert.match(text(refused), /^Not run: `make clean` needs a person's yes: .*rm -rf src/)
  assert.match(text(refused), /"confirm": true/)
  assert.ok(sourcesKept(root), 'nothing was deleted')
  const unconfirmed = await call('make_clean', { confirm: false })
  assert.equal(unconfirmed.isError, true)
  assert.ok(sourcesKept(root), 'false is no yes')
  const done = await call('make_clean', { confirm: true })
  assert.equal(done.isError, undefined, text(done))
  assert.match(text(done), /^\$ make clean\n\[exit code: 0\]/)
  assert.ok(!sourcesKept(root), 'confirmed, it deleted src')
})

test('injected args are refused or stay one argument; nothing they name ever runs', async (t) => {
  const root = writeGateRepo(tempDir(t, 'mcp-gate-'))
  const { call } = await connect(t, root)
  for (const [what, injected] of Object.entries(INJECTIONS)) {
    const r = await call('make_build', { args: injected })
    assert.equal(r.isError, true, `${what}: ${text(r)}`)
    assert.match(text(r), /^Not run: /, what)
  }
  await call('make_build', { args: [INJECTIONS.newline] })
  const probe = await call('make_build', { args: [PROBE_WORD] })
  assert.match(text(probe), /No rule to make target '; touch injected'/)
  assert.ok(!probeRan(root), 'a word never reaches a shell as text')
  // Words that turn a harmless listing destructive need confirm too.
  const tidy = await call('make_tidy', { args: ['DIR=src'] })
  assert.equal(tidy.isError, true)
  assert.match(text(tidy), /needs a person's yes/)
  assert.ok(sourcesKept(root), 'src survived')
})

test('a clean of build output runs without confirm', async (t) => {
  const root = writeGateRepo(tempDir(t, 'mcp-gate-'), { cleans: 'dist' })
  const { tools, call } = await connect(t, root)
  assert.equal(tools.get('make_clean').annotations.destructiveHint, false)
  assert.equal(tools.get('make_clean').inputSchema.required, undefined)
  const r = await call('make_clean')
  assert.equal(r.isError, undefined, text(r))
  assert.ok(!outputKept(root), 'dist is gone')
  assert.ok(sourcesKept(root), 'src is kept')
})

test('curated recipe runs (--allow-recipe-run): git.undo_last_commit, risk medium, asks for confirm', async (t) => {
  const root = tempDir(t, 'mcp-gate-git-')
  const repo = gitWithTwoCommits(root)
  const before = repo.head()
  const { tools, call } = await connect(t, root, ['--allow-recipe-run'])
  assert.match(tools.get('curated_recipe_run').description, /risk medium or destructive, or marked for confirmation, runs only with "confirm": true/)
  const refused = await call('curated_recipe_run', { id: 'git.undo_last_commit' })
  assert.equal(refused.isError, true)
  assert.match(text(refused), /needs a person's yes, because its risk is medium/)
  assert.match(text(refused), /Undo the last commit" \(git\.undo_last_commit, risk: medium\)\? It runs:\n {2}git log --oneline -n 3\n {2}git reset --soft HEAD~1/)
  assert.equal(repo.head(), before, 'the branch did not move')
  const done = await call('curated_recipe_run', { id: 'git.undo_last_commit', confirm: true })
  assert.equal(done.isError, undefined, text(done))
  assert.equal(repo.head(), repo.first, 'confirmed, the commit was undone')
})
