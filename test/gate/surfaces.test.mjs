// The destructive gate on every surface, in process: the plan (descriptions, the dispatcher's marks,
// one judgement per book), calls as words, the dsh tools and dispatcher with dsh's approval, dsh's
// `bash`, the MCP server (SDK client over an in-memory transport), `command-scout run` (no terminal,
// --yes, a pseudo-terminal answering y or n) and the curated recipe rule. Each test runs real
// commands in a temp repository and checks on disk what was deleted and what survived.
import '../support/process-tmp.mjs'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ArgsError } from '../../dist/src/book/risk/index.js'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { discover } from '../../dist/src/book/discover.js'
import { planTools } from '../../dist/src/book/exposure.js'
import { plannedCall } from '../../dist/src/book/run-tool.js'
import { createMcpServer } from '../../dist/src/mcp/server.js'
import * as curated from '../../dist/src/dsh/curated-tools.js'
import { confirmationNeed, needsConfirmation } from '../../dist/src/curated/confirm.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'
import { runInHarnessShell } from '../../dist/src/dsh/shell-run.js'
import { startApp, text } from '../plugin/app.mjs'
import { tempDir, waitUntil } from '../support/temp.mjs'
import { INJECTIONS, PROBE_WORD, gitWithTwoCommits, outputKept, probeRan, sourcesKept, writeGateRepo } from './repos.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname

function plan(root, config = {}) {
  const cfg = normalizeConfig({ root, ...config })
  const { book } = discover(root, cfg, { cache: false })
  return { book, cfg, tools: planTools(book, cfg, [], { root }) }
}

const byName = (tools, name) => tools.find((tool) => tool.name === name)

// ---------------------------------------------------------------------------------------------
// The plan

test('plan: a clean that deletes sources says it asks and why; one that deletes build output does not', (t) => {
  const unsafe = plan(writeGateRepo(tempDir(t, 'gate-plan-')))
  const clean = byName(unsafe.tools, 'make_clean')
  assert.equal(clean.verdict.destructive, true)
  assert.match(clean.description, /\nAsks a person for approval first: .*rm -rf src/)
  assert.equal(clean.risk, clean.verdict.reason)
  for (const name of ['make_build', 'make_tidy']) {
    assert.equal(byName(unsafe.tools, name).verdict.destructive, false, name)
    assert.doesNotMatch(byName(unsafe.tools, name).description, /Asks a person/, name)
  }
  const safe = plan(writeGateRepo(tempDir(t, 'gate-plan-'), { cleans: 'dist' }))
  assert.equal(byName(safe.tools, 'make_clean').verdict.destructive, false)
  assert.doesNotMatch(byName(safe.tools, 'make_clean').description, /Asks a person/)
})

test('plan: the dispatcher marks exactly the tasks that ask', (t) => {
  const { tools } = plan(writeGateRepo(tempDir(t, 'gate-plan-')), { exposure: 'dispatcher' })
  assert.equal(tools.length, 1)
  assert.match(tools[0].description, /^- clean: Remove what the build made \[asks for approval\]$/m)
  assert.match(tools[0].description, /^- build: Write the build stamp$/m)
  assert.match(tools[0].description, /^- tidy: Remove one directory \(DIR, default dist\)$/m)
})

test('plan: a book is judged once, however often it is planned; a new book is judged again', (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-plan-'))
  const first = plan(root)
  const again = planTools(first.book, first.cfg, [], { root })
  for (const tool of first.tools) assert.equal(byName(again, tool.name).verdict, tool.verdict, `${tool.name}: the same verdict object`)
  const next = plan(root)
  assert.notEqual(byName(next.tools, 'make_clean').verdict, byName(first.tools, 'make_clean').verdict)
  assert.deepEqual(byName(next.tools, 'make_clean').verdict, byName(first.tools, 'make_clean').verdict)
})

// ---------------------------------------------------------------------------------------------
// Calls are words

test('a call\'s args are words: a list as given, a string split as a shell splits it, each quoted onto the line', (t) => {
  const { tools } = plan(writeGateRepo(tempDir(t, 'gate-words-')))
  const build = byName(tools, 'make_build')
  const listed = plannedCall(build, { args: ['VERSION=2', 'a b', "it's"] })
  assert.deepEqual(listed.words, ['VERSION=2', 'a b', "it's"])
  // What a shell makes of the line is the words again: no word was split, joined or run.
  const echoed = spawnSync('sh', ['-c', listed.command.replace(/^make build/, 'printf "%s\\n"')], { encoding: 'utf8' })
  assert.deepEqual(echoed.stdout.split('\n').slice(0, -1), ['VERSION=2', 'a b', "it's"])
  assert.deepEqual(plannedCall(build, { args: 'VERSION=2 "a b"' }).words, ['VERSION=2', 'a b'])
  assert.deepEqual(plannedCall(build, {}).words, [])
  assert.equal(plannedCall(build, {}).command, 'make build')
  for (const [what, injected] of Object.entries(INJECTIONS)) {
    if (typeof injected !== 'string') continue
    assert.throws(() => plannedCall(build, { args: injected }), (e) => e instanceof ArgsError && e.message.length > 0, what)
  }
})

test('the dispatcher\'s op is a task and words; an op holding an operator is refused the same way', (t) => {
  const { tools } = plan(writeGateRepo(tempDir(t, 'gate-words-')), { exposure: 'dispatcher' })
  const [recipe] = tools
  assert.deepEqual(plannedCall(recipe, { op: 'tidy DIR=src' }).words, ['DIR=src'])
  assert.deepEqual(plannedCall(recipe, { op: 'build', args: ['a b'] }).words, ['a b'])
  assert.throws(() => plannedCall(recipe, { op: 'build; rm -rf src' }), ArgsError)
  assert.throws(() => plannedCall(recipe, { op: 'build\nrm -rf src' }), ArgsError)
  assert.throws(() => plannedCall(recipe, { op: 'nope' }), /Unknown task `nope`/)
})

// ---------------------------------------------------------------------------------------------
// dsh: the tools, the dispatcher and bash, in a real Cordis context with dsh's tools service and shell

async function dshApp(t, root, { approve, config } = {}) {
  const app = await startApp({ root, config })
  t.after(() => app.stop())
  const asked = []
  if (approve) app.ctx.provide('approval', { request: async (req) => { asked.push(req); return approve } })
  const agent = { id: 'agent-1', ctx: app.ctx, session: { id: 'session-1', header: { cwd: root } } }
  return { app, asked, call: (name, args = {}) => app.call(name, args, approve ? { agent } : {}) }
}

test('dsh: a destructive clean is refused where no one can approve it, and the refusal says what, why and how to allow it', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'))
  const { call } = await dshApp(t, root)
  const refused = await call('make_clean')
  assert.equal(refused.isError, true)
  assert.match(text(refused), /`make clean` was not run/)
  assert.match(text(refused), /What it does: .*rm -rf src/)
  assert.match(text(refused), /How to allow it: a person approves the prompt/)
  assert.ok(sourcesKept(root), 'src survived')
  // Harmless calls never ask.
  assert.equal((await call('make_build')).isError, false)
  assert.equal((await call('make_tidy')).isError, false)
  assert.ok(!outputKept(root), 'tidy removed dist, the build output')
})

test('dsh: approved once, the destructive clean runs; the person was told the line', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'))
  const denied = await dshApp(t, root, { approve: 'rejected' })
  assert.equal((await denied.call('make_clean')).isError, true)
  assert.equal(denied.asked.length, 1)
  assert.match(denied.asked[0].reason, /`make clean` needs your approval: .*rm -rf src/)
  assert.ok(sourcesKept(root))
  const allowed = await dshApp(t, root, { approve: 'allowed-once' })
  const ran = await allowed.call('make_clean')
  assert.equal(ran.isError, false, text(ran))
  assert.ok(!sourcesKept(root), 'the approved clean deleted src')
})

test('dsh: words that make a harmless tool destructive ask, and injected words never run', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'), { cleans: 'dist' })
  const { call } = await dshApp(t, root)
  const tidy = await call('make_tidy', { args: ['DIR=src'] })
  assert.equal(tidy.isError, true)
  assert.match(text(tidy), /`make tidy DIR=src` was not run/)
  const evaluated = await call('make_build', { args: INJECTIONS.evalWord })
  assert.equal(evaluated.isError, true, text(evaluated))
  await call('make_build', { args: [INJECTIONS.chained] })
  // Shell syntax in a word stays in the word: make is asked for a target of that name.
  const probe = await call('make_build', { args: [PROBE_WORD] })
  assert.equal(probe.isError, false, text(probe))
  assert.match(probe.value.stderr, /No rule to make target '; touch injected'/)
  assert.ok(!probeRan(root), 'the word never reached a shell as text')
  assert.ok(sourcesKept(root), 'src survived every injection')
})

test('dsh: the dispatcher asks the same, with the words of its op', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'), { cleans: 'dist' })
  const { call, asked } = await dshApp(t, root, { approve: 'rejected', config: { exposure: 'dispatcher' } })
  assert.equal((await call('recipe', { op: 'clean' })).isError, false, 'a clean of build output does not ask')
  assert.equal(asked.length, 0)
  const tidy = await call('recipe', { op: 'tidy DIR=src' })
  assert.equal(tidy.isError, true)
  assert.equal(asked.length, 1)
  const injected = await call('recipe', { op: 'build; rm -rf src' })
  assert.equal(injected.isError, true)
  assert.equal(asked.length, 1, 'an op that is not words is refused before anyone is asked')
  assert.ok(sourcesKept(root))
})

test('dsh: bash is held to the same gate, by the line and by the recipe it invokes', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'))
  const { app, call } = await dshApp(t, root)
  // dsh's bash tool is not part of this minimal tree: a stand-in of the same name runs the line in the shell.
  app.ctx.tools.register({
    name: 'bash', description: 'runs a command line', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    output: { schema: { type: 'null' }, render: () => [] },
    execute: async (args) => {
      await runInHarnessShell(app.ctx, { command: args.command, cwd: root, timeoutMs: 10_000 })
      return null
    },
  })
  for (const command of ['rm -rf src', 'make clean', 'true && make clean']) {
    const r = await call('bash', { command })
    assert.equal(r.isError, true, command)
    assert.match(text(r), new RegExp(`\`${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` was not run`), command)
  }
  assert.ok(sourcesKept(root), 'src survived')
  assert.equal((await call('bash', { command: 'make build' })).isError, false)
  assert.ok(existsSync(join(root, 'build-stamp.txt')), 'a harmless line still runs')
})

test('dsh: a destructive call that reaches execute without its ask (a listener short-circuited the gate) is refused', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-dsh-'))
  const { app, call } = await dshApp(t, root)
  app.ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }), { prepend: true })
  const r = await call('make_clean')
  assert.equal(r.isError, true)
  assert.match(text(r), /`make clean` was not run: no person was asked to approve this call/)
  assert.ok(sourcesKept(root))
  assert.equal((await call('make_build')).isError, false, 'a harmless call still runs')
})

// ---------------------------------------------------------------------------------------------
// MCP, in process

async function mcp(t, root, options = {}) {
  const { config, ...rest } = options
  const server = await createMcpServer({ root, config: normalizeConfig({ root, ...config }), version: 'test', watch: false, ...rest })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'gate-test', version: '1.0.0' })
  await client.connect(clientSide)
  t.after(async () => {
    await client.close()
    await server.close()
  })
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]))
  return { client, tools, call: (name, args = {}) => client.callTool({ name, arguments: args }) }
}

const mcpText = (result) => result.content.map((c) => c.text).join('\n')

test('MCP: hints and confirm follow the body; a destructive call without confirm is refused and runs once confirmed', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-mcp-'))
  const { tools, call } = await mcp(t, root)
  const clean = tools.get('make_clean')
  assert.deepEqual(clean.inputSchema.required, ['confirm'])
  assert.deepEqual(clean.annotations, { destructiveHint: true, readOnlyHint: false, openWorldHint: false })
  assert.deepEqual(clean.inputSchema.properties.args, { type: 'array', items: { type: 'string' }, description: clean.inputSchema.properties.args.description })
  assert.match(clean.inputSchema.properties.confirm.description, /rm -rf src/)
  for (const name of ['make_build', 'make_tidy']) {
    assert.equal(tools.get(name).inputSchema.required, undefined, name)
    assert.equal(tools.get(name).annotations.destructiveHint, false, name)
  }
  const refused = await call('make_clean')
  assert.equal(refused.isError, true)
  assert.match(mcpText(refused), /^Not run: `make clean` needs a person's yes: .*rm -rf src/)
  assert.match(mcpText(refused), /ask the user, and call again with "confirm": true/)
  assert.ok(sourcesKept(root), 'nothing was deleted')
  const done = await call('make_clean', { confirm: true })
  assert.equal(done.isError, undefined, mcpText(done))
  assert.ok(!sourcesKept(root), 'the confirmed clean deleted src')
})

test('MCP: a clean of build output runs without confirm; words that make a call destructive need it', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-mcp-'), { cleans: 'dist' })
  const { call } = await mcp(t, root)
  const tidy = await call('make_tidy', { args: ['DIR=src'] })
  assert.equal(tidy.isError, true)
  assert.match(mcpText(tidy), /^Not run: `make tidy DIR=src` needs a person's yes/)
  assert.ok(sourcesKept(root))
  const clean = await call('make_clean')
  assert.equal(clean.isError, undefined, mcpText(clean))
  assert.ok(!outputKept(root), 'dist is gone')
  assert.ok(sourcesKept(root), 'src is not')
})

test('MCP: injected args never run: a string with an operator, a newline or a substitution is refused, a word is one argument', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-mcp-'))
  const { call } = await mcp(t, root)
  for (const [what, injected] of Object.entries(INJECTIONS)) {
    const r = await call('make_build', { args: injected })
    assert.equal(r.isError, true, `${what}: ${mcpText(r)}`)
    assert.match(mcpText(r), /^Not run: /, what)
  }
  await call('make_build', { args: [INJECTIONS.chained] })
  const probe = await call('make_build', { args: [PROBE_WORD] })
  assert.match(mcpText(probe), /No rule to make target '; touch injected'/)
  assert.ok(!probeRan(root), 'the word never reached a shell as text')
  assert.ok(sourcesKept(root), 'src survived every injection')
})

test('MCP: the dispatcher judges each call with its op\'s words', async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-mcp-'), { cleans: 'dist' })
  const { call, tools } = await mcp(t, root, { config: { exposure: 'dispatcher' } })
  assert.deepEqual(tools.get('recipe').inputSchema.properties.args.type, 'array')
  assert.equal((await call('recipe', { op: 'tidy DIR=src' })).isError, true)
  assert.equal((await call('recipe', { op: 'build && rm -rf src' })).isError, true)
  assert.ok(sourcesKept(root))
  assert.equal((await call('recipe', { op: 'tidy DIR=src', confirm: true })).isError, undefined)
  assert.ok(!sourcesKept(root), 'confirmed, it ran')
})

test('MCP: curated git.undo_last_commit (risk medium) runs only with confirm: true', async (t) => {
  const root = tempDir(t, 'gate-curated-')
  const repo = gitWithTwoCommits(root)
  const before = repo.head()
  const { call } = await mcp(t, root, { allowRecipeRun: true })
  const refused = await call('curated_recipe_run', { id: 'git.undo_last_commit' })
  assert.equal(refused.isError, true)
  assert.match(mcpText(refused), /^Not run: this recipe needs a person's yes, because its risk is medium/)
  assert.match(mcpText(refused), /git reset --soft HEAD~1/)
  assert.equal(repo.head(), before, 'the branch did not move')
  const confirmed = await call('curated_recipe_run', { id: 'git.undo_last_commit', confirm: true })
  assert.equal(confirmed.isError, undefined, mcpText(confirmed))
  assert.equal(repo.head(), repo.first, 'confirmed, the last commit was undone')
})

// ---------------------------------------------------------------------------------------------
// The curated rule, and the dsh curated tool

test('curated: a recipe of risk medium or above, or marked, needs a yes; read-only and low ones do not', () => {
  const library = loadLibrary([SHIPPED_RECIPES_DIR])
  const counts = { asks: 0, runs: 0 }
  for (const recipe of library.recipes) {
    let rendered
    try {
      rendered = renderRecipe(library, recipe.id, { platform: Object.keys(recipe.platforms)[0], params: {} })
    } catch {
      continue // a required parameter without a default: it does not render with none
    }
    const medium = ['medium', 'destructive'].includes(recipe.risk)
    assert.equal(needsConfirmation(rendered), medium || recipe.requires_confirmation, recipe.id)
    counts[needsConfirmation(rendered) ? 'asks' : 'runs']++
  }
  assert.ok(counts.asks > 0 && counts.runs > 0, JSON.stringify(counts))
  const need = confirmationNeed(library, { id: 'git.undo_last_commit' }, 'linux')
  assert.equal(need.command, 'git log --oneline -n 3 && git reset --soft HEAD~1 && git status --short')
  assert.match(need.why, /its risk is medium/)
  assert.match(need.ask, /\(git\.undo_last_commit, risk: medium\)\? It runs:\n {2}git log/)
})

test('curated in dsh: git.undo_last_commit asks through dsh\'s approval, and does not run without it', async (t) => {
  const root = tempDir(t, 'gate-curated-')
  const repo = gitWithTwoCommits(root)
  const before = repo.head()
  const mount = async (approve) => {
    const app = await startApp({ root, collectors: [] })
    t.after(() => app.stop())
    const asked = []
    if (approve) app.ctx.provide('approval', { request: async (req) => { asked.push(req); return approve } })
    await app.ctx.plugin({
      name: 'curated-under-test', inject: ['tools'],
      apply: (c) => curated.mountCuratedTools(c, {
        config: { dirs: [], timeoutMs: 20_000, searchLimit: 20 }, cwd: root, platform: 'linux',
        runCommand: (command, { cwd, exec }) => runInHarnessShell(c, { command, cwd, timeoutMs: 20_000, signal: exec.signal, exec }),
      }),
    })
    const agent = { id: 'agent-1', ctx: app.ctx, session: { id: 's', header: { cwd: root } } }
    return { asked, run: () => app.call(curated.TOOL_NAMES.run, { id: 'git.undo_last_commit' }, approve ? { agent } : {}) }
  }
  const nobody = await mount()
  const refused = await nobody.run()
  assert.equal(refused.isError, true)
  assert.match(text(refused), /Why it needs approval: its risk is medium/)
  assert.equal(repo.head(), before)
  const person = await mount('allowed-once')
  const ran = await person.run()
  assert.equal(ran.isError, false, text(ran))
  assert.equal(person.asked.length, 1)
  assert.match(person.asked[0].reason, /git reset --soft HEAD~1/)
  assert.equal(repo.head(), repo.first)
})

// ---------------------------------------------------------------------------------------------
// command-scout run

function cli(args, { input } = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'] })
}

test('run: without a terminal a destructive command is refused with the reason (exit 2); --yes runs it', (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-cli-'))
  const refused = cli(['run', 'make_clean', '--root', root, '--no-cache'], { input: 'y\n' })
  assert.equal(refused.status, 2, refused.stderr)
  assert.match(refused.stderr, /^command-scout: `make clean` was not run: it needs a person's yes, because .*rm -rf src/)
  assert.match(refused.stderr, /answer y, or pass --yes/)
  assert.ok(sourcesKept(root), 'a yes on a pipe is no yes')
  const yes = cli(['run', 'make_clean', '--root', root, '--no-cache', '--yes'])
  assert.equal(yes.status, 0, yes.stderr)
  assert.ok(!sourcesKept(root), '--yes ran it')
})

test('run: a clean of build output runs without a question; words that delete sources are refused; injected words are one argument', (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-cli-'), { cleans: 'dist' })
  const tidy = cli(['run', 'make_tidy', '--root', root, '--no-cache', '--', 'DIR=src'])
  assert.equal(tidy.status, 2, tidy.stderr)
  assert.match(tidy.stderr, /`make tidy DIR=src` was not run/)
  const evaluated = cli(['run', 'make_build', '--root', root, '--no-cache', '--', ...INJECTIONS.evalWord])
  assert.equal(evaluated.status, 2, evaluated.stderr)
  assert.match(evaluated.stderr, /was not run: it needs a person's yes/)
  cli(['run', 'make_build', '--root', root, '--no-cache', '--', INJECTIONS.chained])
  const probe = cli(['run', 'make_build', '--root', root, '--no-cache', '--', PROBE_WORD])
  assert.match(probe.stderr, /No rule to make target '; touch injected'/)
  assert.ok(!probeRan(root), 'the word never reached a shell as text')
  assert.ok(sourcesKept(root), 'src survived')
  const clean = cli(['run', 'make_clean', '--root', root, '--no-cache'])
  assert.equal(clean.status, 0, clean.stderr)
  assert.ok(!outputKept(root), 'dist is gone')
})

test('run --help says how a destructive command is asked and allowed', () => {
  const help = cli(['run', '--help']).stdout
  assert.match(help, /-y, --yes/)
  assert.match(help, /refused \(exit 2\)/)
})

/** Runs the CLI on a pseudo-terminal, answers `answer` once the question is shown; resolves { code, output }. */
async function inTerminal(args, answer) {
  let pty
  try {
    pty = (await import('node-pty')).default
  } catch {
    return undefined
  }
  const child = pty.spawn(process.execPath, [BIN, ...args], { cols: 200, rows: 30, env: process.env })
  let output = ''
  let exit
  child.onData((data) => { output += data })
  child.onExit((e) => { exit = e })
  await waitUntil(() => /Run it\? \[y\/N\] /.test(output) || exit, { what: 'the question' })
  if (!exit) child.write(`${answer}\r`)
  await waitUntil(() => exit, { what: 'the command to end' })
  return { code: exit.exitCode, output }
}

const ptySkip = await import('node-pty').then(() => false, () => 'node-pty is not installed')

test('run on a terminal: the question shows the reason; y runs it, n does not', { skip: ptySkip }, async (t) => {
  const root = writeGateRepo(tempDir(t, 'gate-tty-'))
  const no = await inTerminal(['run', 'make_clean', '--root', root, '--no-cache'], 'n')
  assert.equal(no.code, 1, no.output)
  assert.match(no.output, /`make clean` needs your yes before it runs: .*rm -rf src/)
  assert.match(no.output, /not run \(answer y, or pass --yes, to run it\)/)
  assert.ok(sourcesKept(root), 'no means no')
  const yes = await inTerminal(['run', 'make_clean', '--root', root, '--no-cache'], 'y')
  assert.equal(yes.code, 0, yes.output)
  assert.ok(!sourcesKept(root), 'y ran it')
  const safe = await inTerminal(['run', 'make_build', '--root', root, '--no-cache'], 'n')
  assert.equal(safe.code, 0, safe.output)
  assert.doesNotMatch(safe.output, /Run it\?/, 'a harmless command asks nothing')
})
