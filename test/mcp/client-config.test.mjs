// `command-scout mcp --print-config <client>`: for each client, the printed configuration is what
// that client reads (JSON in its schema, or a `claude mcp add` line a shell splits into the right
// words), it names this checkout's node and bin/command-scout by absolute path and the repository
// by --root, and the command it holds, spawned exactly as written from another directory, starts
// the server on that repository (its tools listed, a safe one called). The options given go in it;
// an unknown client is a usage error listing the known ones.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { tempDir } from '../support/temp.mjs'
import { clientRepo, LAUNCHER } from './clients-support.mjs'

function printConfig(args, cwd) {
  const r = spawnSync(process.execPath, [LAUNCHER, 'mcp', '--print-config', ...args], { cwd, encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The words a POSIX shell makes of `line`, as the `claude` it runs receives them (a stand-in on PATH records its argv). */
function shellWords(t, line) {
  const bin = tempDir(t, 'cs-fake-claude-')
  const out = join(bin, 'argv')
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nprintf '%s\\0' "$@" > '${out}'\n`)
  chmodSync(join(bin, 'claude'), 0o755)
  const r = spawnSync('sh', ['-c', line], { env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` }, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return ['claude', ...readFileSync(out, 'utf8').split('\0').slice(0, -1)]
}

/** The server entry of a printed configuration: `{ command, args }`, checked against the client's schema. */
function serverEntry(t, client, stdout) {
  if (client === 'claude') {
    assert.equal(stdout.split('\n').filter(Boolean).length, 1, 'one command line')
    const words = shellWords(t, stdout.trim())
    assert.deepEqual(words.slice(0, 7), ['claude', 'mcp', 'add', '--transport', 'stdio', 'command-scout', '--'], 'options before the name, the server after --')
    return { command: words[7], args: words.slice(8) }
  }
  const config = JSON.parse(stdout)
  if (client === 'vscode') {
    assert.deepEqual(Object.keys(config), ['servers'])
    const entry = config.servers['command-scout']
    assert.equal(entry.type, 'stdio')
    assert.deepEqual(Object.keys(entry).sort(), ['args', 'command', 'type'])
    return entry
  }
  assert.deepEqual(Object.keys(config), ['mcpServers'])
  const entry = config.mcpServers['command-scout']
  assert.deepEqual(Object.keys(entry).sort(), ['args', 'command'])
  return entry
}

/** Starts what the entry says, as a client does (no shell, in a directory of its own), and connects. */
async function start(t, entry, cwd) {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd, env: process.env, stderr: 'pipe' })
  const client = new Client({ name: 'command-scout-config-test', version: '1.0.0' })
  await client.connect(transport)
  t.after(() => client.close())
  return client
}

for (const client of ['claude', 'cursor', 'vscode', 'generic']) {
  test(`--print-config ${client}: the client's own form, absolute paths, and a command that starts the server on --root from anywhere`, async (t) => {
    const root = await clientRepo(t)
    const elsewhere = tempDir(t, 'cs-elsewhere-')
    const printed = printConfig([client, '--root', root], elsewhere)
    assert.equal(printed.status, 0, printed.stderr)
    assert.match(printed.stderr, new RegExp(`It serves ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`))
    const entry = serverEntry(t, client, printed.stdout)
    assert.equal(entry.command, process.execPath, 'the node that runs this checkout')
    assert.ok(isAbsolute(entry.command) && isAbsolute(entry.args[0]))
    assert.deepEqual(entry.args, [LAUNCHER, 'mcp', '--root', root])
    const mcp = await start(t, entry, elsewhere)
    const names = (await mcp.listTools()).tools.map((x) => x.name)
    assert.ok(names.includes('make_hello') && names.includes('make_wipe'), `the repository's tools, not ${elsewhere}'s: ${names}`)
    const hello = await mcp.callTool({ name: 'make_hello', arguments: {} })
    assert.equal(hello.isError, undefined)
    assert.match(hello.content[0].text, /hello from make/)
  })
}

test('--print-config without --root names the current directory; a relative --root and --dir become absolute; the options given go in', async (t) => {
  const root = await clientRepo(t)
  const bare = serverEntry(t, 'generic', printConfig(['generic'], root).stdout)
  assert.deepEqual(bare.args.slice(1), ['mcp', '--root', root])
  const parent = join(root, '..')
  await mkdir(join(parent, 'lib', 'git'), { recursive: true })
  const printed = printConfig(['cursor', '--root', "my repo's copy", '--naming', 'flat', '--dir', 'lib', '--allow-recipe-run', '--timeout', '5000'], parent)
  assert.equal(printed.status, 0, printed.stderr)
  const entry = serverEntry(t, 'cursor', printed.stdout)
  assert.deepEqual(entry.args.slice(1), ['mcp', '--root', root, '--naming', 'flat', '--timeout', '5000', '--dir', join(parent, 'lib'), '--allow-recipe-run'])
  const mcp = await start(t, entry, tempDir(t, 'cs-elsewhere-'))
  const names = (await mcp.listTools()).tools.map((x) => x.name)
  assert.ok(names.includes('hello') && names.includes('curated_recipe_run'), names.join(', '))
})

test('an unknown client is a usage error listing the known ones; a root that is no directory fails', (t) => {
  const cwd = tempDir(t, 'cs-config-')
  const unknown = printConfig(['zed'], cwd)
  assert.equal(unknown.status, 2)
  assert.equal(unknown.stdout, '')
  assert.match(unknown.stderr, /^command-scout mcp: --print-config: unknown client "zed"; the known clients are claude, cursor, vscode, generic\n/)
  const missing = printConfig(['claude', '--root', join(cwd, 'nope')], cwd)
  assert.equal(missing.status, 1)
  assert.equal(missing.stdout, '')
  assert.match(missing.stderr, /is not a directory \(it does not exist\)/)
  const empty = spawnSync(process.execPath, [LAUNCHER, 'mcp', '--print-config'], { cwd, encoding: 'utf8' })
  assert.equal(empty.status, 2)
  assert.match(empty.stderr, /--print-config/)
})

test('mcp --help shows how to configure a client from a clone, and no npx', () => {
  const help = spawnSync(process.execPath, [LAUNCHER, 'mcp', '--help'], { encoding: 'utf8' }).stdout
  assert.match(help, /--print-config CLIENT/)
  assert.match(help, /claude mcp add --transport stdio command-scout -- \/path\/to\/node/)
  assert.match(help, /"--root", "\/path\/to\/repo"/)
  assert.match(help, /"servers": \{ "command-scout": \{ "type": "stdio"/)
  assert.doesNotMatch(help, /npx/)
})
