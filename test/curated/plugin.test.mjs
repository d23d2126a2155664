// The curated tools in a real Cordis context with the real tools service and the real shell executor
// (dsh-subprocess-local + dsh-bash-local): search, render, run, and the confirmation gate.
import { test } from 'node:test'
import '../support/process-tmp.mjs'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import Subprocess from '@deepseek-ai/dsh-subprocess-local'
import Bash from '@deepseek-ai/dsh-bash-local'
import * as curated from '../../dist/src/dsh/curated-tools.js'
import { runInHarnessShell } from '../../dist/src/dsh/shell-run.js'

const fixtures = new URL('../fixtures/curated/', import.meta.url).pathname
const DIRS = [join(fixtures, 'valid'), join(fixtures, 'runnable')]
const { search, render, run } = curated.TOOL_NAMES

/** A context with tools + shell, the curated tools over the fixture libraries, and optionally an approval service. */
async function app({ approve, workdir } = {}) {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime, {})
  await ctx.plugin(Subprocess, {})
  await ctx.plugin(Bash, {})
  const asked = []
  if (approve) {
    ctx.provide('approval')
    ctx.set('approval', { request: async (r) => { asked.push(r); return approve } })
  }
  const fiber = await ctx.plugin({
    name: 'curated-under-test',
    inject: ['tools'],
    apply: (c) => curated.mountCuratedTools(c, {
      config: { dirs: DIRS, timeoutMs: 20_000, searchLimit: 20 },
      shipped: false,
      cwd: workdir,
      platform: 'linux',
      runCommand: (command, { cwd, exec }) => runInHarnessShell(c, { command, cwd, timeoutMs: 20_000, signal: exec.signal, exec }),
    }),
  })
  let n = 0
  const call = (name, args) => ctx.tools.execute({ callId: `call-${++n}`, name, arguments: args, agent: { id: 'agent' }, signal: new AbortController().signal })
  return { ctx, fiber, asked, call, names: () => ctx.tools.schemas().map((s) => s.name) }
}

const textOf = (r) => r.content.map((c) => c.text).join('\n')

test('the three tools are registered, and disposed with the plugin', async () => {
  const a = await app()
  for (const name of [search, render, run]) assert.ok(a.names().includes(name), name)
  await a.fiber.dispose()
  for (const name of [search, render, run]) assert.ok(!a.names().includes(name), name)
})

test('search by words, category, tags and risk; the model sees ids, risks and parameters', async () => {
  const a = await app()
  const r = await a.call(search, { query: 'disk space' })
  assert.equal(r.isError, false)
  assert.deepEqual(r.value.recipes.map((x) => x.id), ['docker.prune_everything', 'files.find_large_files'])
  assert.match(textOf(r), /^docker\.prune_everything \[destructive\] Free disk space used by Docker \(params: volumes\?: boolean\)\n/)
  const d = await a.call(search, { category: 'files', risk: ['destructive'] })
  assert.deepEqual(d.value.recipes.map((x) => x.id), ['files.remove_tree'])
  assert.equal(d.value.recipes[0].requires_confirmation, true)
  const t = await a.call(search, { tags: ['git', 'undo'] })
  assert.deepEqual(t.value.recipes.map((x) => x.id), ['git.undo_last_commit'])
  assert.match(textOf(await a.call(search, { query: 'kubernetes' })), /No curated recipe matches/)
})

test('render returns the Specification JSON; bad input is a tool error with the reason', async () => {
  const a = await app()
  const r = await a.call(render, { id: 'files.append_line', params: { line: '$(whoami)' } })
  assert.equal(r.isError, false)
  assert.equal(r.value.commands[0].command, "printf '%s\\n' '$(whoami)' >> notes.txt")
  assert.deepEqual(JSON.parse(textOf(r)), r.value)
  const bad = await a.call(render, { id: 'network.check_port', params: { port: 'eighty' } })
  assert.equal(bad.isError, true)
  assert.match(bad.error.message, /parameter `port` of recipe `network\.check_port` must be a number/)
  const unknown = await a.call(render, { id: 'git.undo_last_comit' })
  assert.match(unknown.error.message, /did you mean `git\.undo_last_commit`/)
})

test('run: steps in order through the harness shell, then the verification', async () => {
  const work = mkdtempSync(join(tmpdir(), 'curated-run-'))
  try {
    writeFileSync(join(work, 'data.txt'), 'hello')
    const a = await app({ workdir: work })
    const r = await a.call(run, { id: 'files.check_file', params: { path: 'data.txt' } })
    assert.equal(r.isError, false, textOf(r))
    assert.equal(r.value.ok, true)
    assert.deepEqual(r.value.steps.map((s) => [s.command, s.exitCode]), [['ls -l data.txt', 0], ['wc -c data.txt', 0]])
    assert.match(r.value.steps[1].stdout, /^5 data\.txt/)
    assert.deepEqual(r.value.verification.map((v) => [v.command, v.ok, v.stdout.trim()]), [['test -r data.txt && echo readable', true, 'readable']])
    assert.equal(a.asked.length, 0, 'a read-only recipe does not ask')
    // A failing step stops the run: later steps and the verification do not run.
    const f = await a.call(run, { id: 'files.check_file', params: { path: 'missing.txt' } })
    assert.equal(f.value.ok, false)
    assert.equal(f.value.steps.length, 1)
    assert.deepEqual(f.value.skipped, ['wc -c missing.txt'])
    assert.deepEqual(f.value.verification, [])
    assert.match(textOf(f), /FAILED[\s\S]*not run \(an earlier step failed\): wc -c missing\.txt/)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('a destructive recipe without an approval service does not run, and the refusal says what, why and how to allow it', async () => {
  const work = mkdtempSync(join(tmpdir(), 'curated-confirm-'))
  try {
    mkdirSync(join(work, 'old build'))
    const a = await app({ workdir: work })
    const r = await a.call(run, { id: 'files.remove_tree', params: { dir: 'old build' } })
    assert.equal(r.isError, true)
    assert.match(r.error.message, /^`du -sh 'old build' && rm -r 'old build'` was not run: it needs a person's approval, and no approval service is loaded\.\n/)
    assert.match(r.error.message, /What it does: it is the curated recipe "Delete a directory tree" \(files\.remove_tree, risk destructive\), run as 2 commands; it cannot be undone \(Deleted files/)
    assert.match(r.error.message, /How to allow it: a person approves the prompt/)
    assert.ok(existsSync(join(work, 'old build')), 'nothing ran')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('a destructive recipe runs once the approval service allows it, and is refused when it denies', async () => {
  const work = mkdtempSync(join(tmpdir(), 'curated-approved-'))
  try {
    mkdirSync(join(work, 'old build'))
    const denied = await app({ workdir: work, approve: 'denied' })
    const d = await denied.call(run, { id: 'files.remove_tree', params: { dir: 'old build' } })
    assert.equal(d.isError, true)
    assert.equal(denied.asked.length, 1)
    assert.ok(existsSync(join(work, 'old build')))
    const a = await app({ workdir: work, approve: 'allowed-once' })
    const r = await a.call(run, { id: 'files.remove_tree', params: { dir: 'old build' } })
    assert.equal(r.isError, false, textOf(r))
    assert.equal(a.asked.length, 1)
    assert.match(a.asked[0].reason, /"Delete a directory tree" \(files\.remove_tree, risk: DESTRUCTIVE\)/)
    assert.equal(r.value.ok, true)
    assert.equal(r.value.verification[0].stdout.trim(), 'gone')
    assert.ok(!existsSync(join(work, 'old build')))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('a run that reaches execute without its ask (a listener short-circuited the gate) is refused', async () => {
  const work = mkdtempSync(join(tmpdir(), 'curated-bypass-'))
  try {
    mkdirSync(join(work, 'keep'))
    const ctx = new Context()
    await ctx.plugin(SystemPrompt, {})
    await ctx.plugin(ToolRuntime, {})
    // Registered first and never calling next(): our gate never sees the call.
    ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }), { prepend: true })
    let ran = 0
    await ctx.plugin({ name: 'curated-bypass', inject: ['tools'], apply: (c) => curated.mountCuratedTools(c, {
      config: { dirs: DIRS, timeoutMs: 1000, searchLimit: 5 }, shipped: false, cwd: work, platform: 'linux',
      runCommand: async () => { ran++; return { command: '', ok: true, exitCode: 0, stdout: '', stderr: '', killed: false, timedOut: false, durationMs: 0 } },
    }) })
    const r = await ctx.tools.execute({ callId: 'x1', name: run, arguments: { id: 'files.remove_tree', params: { dir: 'keep' } }, signal: new AbortController().signal })
    if (!r.isError) assert.fail('expected a refusal')
    assert.match(r.error.message, /requires confirmation, and no confirmation was asked for this call; it was not run/)
    assert.equal(ran, 0)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('the plugin module loads the shipped library plus configured dirs, with a schemastery Config', async () => {
  assert.equal(curated.name, 'command-scout-curated')
  assert.deepEqual(curated.inject, ['tools'])
  assert.deepEqual(curated.Config({}), { dirs: [], timeoutMs: 120000, searchLimit: 20 })
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime, {})
  await ctx.plugin(curated, { dirs: [join(fixtures, 'runnable')] })
  const r = await ctx.tools.execute({ callId: 'm1', name: search, arguments: { query: 'directory tree' }, signal: new AbortController().signal })
  assert.ok(r.value.recipes.some((x) => x.id === 'files.remove_tree'))
})

test('a change to a library file is seen by the next call', async () => {
  const lib = mkdtempSync(join(tmpdir(), 'curated-live-'))
  try {
    mkdirSync(join(lib, 'files'))
    const file = join(lib, 'files', 'remove-tree.yaml')
    const { readFileSync } = await import('node:fs')
    const original = readFileSync(join(fixtures, 'runnable/files/remove-tree.yaml'), 'utf8')
    writeFileSync(file, original)
    const ctx = new Context()
    await ctx.plugin(SystemPrompt, {})
    await ctx.plugin(ToolRuntime, {})
    await ctx.plugin({ name: 'curated-live', inject: ['tools'], apply: (c) => curated.mountCuratedTools(c, {
      config: { dirs: [lib], timeoutMs: 1000, searchLimit: 5 }, shipped: false, platform: 'linux', runCommand: async () => assert.fail('nothing runs'),
    }) })
    const titles = async () => (await ctx.tools.execute({ callId: `s${Math.random()}`, name: search, arguments: {}, signal: new AbortController().signal })).value.recipes.map((r) => r.title)
    assert.deepEqual(await titles(), ['Delete a directory tree'])
    writeFileSync(file, original.replace('title: Delete a directory tree', 'title: Remove a directory tree for good'))
    assert.deepEqual(await titles(), ['Remove a directory tree for good'])
  } finally {
    rmSync(lib, { recursive: true, force: true })
  }
})

test('search tells the model when recipe files were left out for failing validation', async () => {
  const ctx = new Context()
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime, {})
  await ctx.plugin({ name: 'curated-invalid', inject: ['tools'], apply: (c) => curated.mountCuratedTools(c, {
    config: { dirs: [join(fixtures, 'runnable'), join(fixtures, 'invalid', 'E_TITLE_TOO_LONG')], timeoutMs: 1000, searchLimit: 5 }, shipped: false, platform: 'linux', runCommand: async () => assert.fail('nothing runs'),
  }) })
  const r = await ctx.tools.execute({ callId: 'i1', name: search, arguments: { query: 'directory' }, signal: new AbortController().signal })
  assert.equal(r.value.invalidFiles, 1)
  assert.match(r.content[0].text, /\(1 recipe file failed validation and is left out; `command-scout recipes validate` names the problems\)$/)
})
