// The destructive gate in the real dsh, against a fake model that calls the tools: a repository in
// a home directory (on the disk, not only under the temp folder), whose `clean` deletes the sources
// or only the build output. Headless dsh has no one to ask, so a destructive call is refused and
// nothing is deleted; a clean of build output runs; injected arguments never run; dsh's own `bash`
// is held to the same gate. In `dsh web` a destructive call raises an approval prompt, and the
// person's answer decides.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { DETERMINISTIC_PATCH_TEXT, dshAvailable, dshInstall, makeHome, overlayYaml, runDsh, startScriptedModel, toolNames, toolResults, toolSchema } from './harness.mjs'
import { startWeb } from '../chef/web.mjs'
import { INJECTIONS, PROBE_WORD, outputKept, probeRan, sourcesKept, writeGateRepo } from '../gate/repos.mjs'
import { waitUntil } from '../support/temp.mjs'

const skip = dshAvailable()
let home

before(async () => {
  if (!skip) home = await makeHome('cs-e2e-gate-')
})
after(() => home?.cleanup())

/** A repository under the home's own folder, and the overlay with the make collector. */
async function project(options) {
  const dir = join(home.home, 'work', `project-${randomUUID().slice(0, 8)}`)
  await mkdir(dir, { recursive: true })
  writeGateRepo(dir, options)
  const overlay = join(home.root, `gate-${randomUUID().slice(0, 8)}.yml`)
  await writeFile(overlay, overlayYaml({ collectors: ['make'] }))
  return { dir, overlay }
}

async function headless(repo, steps) {
  const model = await startScriptedModel(steps)
  try {
    return await runDsh({ home, model, cwd: repo.dir, args: ['--profile', 'headless', '--patch', home.deterministicPatch, '--patch', repo.overlay, 'tidy up the project'] })
  } finally {
    await model.close()
  }
}

/** The content of the tool result the model got back for step `i` (its last tool result in the next request). */
const resultOf = (r, i) => toolResults(r.requests[i + 1]).at(-1)?.content ?? ''

test('headless: a clean that deletes the sources is refused, with what, why and how to allow it, and src/ survives', { skip }, async () => {
  const repo = await project()
  const r = await headless(repo, [{ tool: 'make_clean', args: {} }, { text: 'done' }])
  assert.equal(r.code, 0, r.stderr)
  assert.ok(toolNames(r.requests[0]).includes('make_clean'))
  assert.match(toolSchema(r.requests[0], 'make_clean').description, /\nAsks a person for approval first: .*rm -rf src/)
  const refusal = resultOf(r, 0)
  assert.match(refusal, /^Error: tool "make_clean" requires approval, but no approval channel is available/)
  assert.match(refusal, /`make clean` was not run/)
  assert.match(refusal, /What it does: .*rm -rf src/)
  assert.match(refusal, /How to allow it: a person approves the prompt in an interactive dsh session/)
  assert.ok(sourcesKept(repo.dir), 'src/ still exists')
})

test('headless: a clean of build output runs unasked and dist/ is gone', { skip }, async () => {
  const repo = await project({ cleans: 'dist' })
  const r = await headless(repo, [{ tool: 'make_clean', args: {} }, { text: 'done' }])
  assert.equal(r.code, 0, r.stderr)
  assert.doesNotMatch(toolSchema(r.requests[0], 'make_clean').description, /Asks a person/)
  assert.match(resultOf(r, 0), /^\$ make clean\n\[exit code: 0\]/)
  assert.ok(!outputKept(repo.dir), 'dist/ is gone')
  assert.ok(sourcesKept(repo.dir), 'src/ is kept')
})

test('headless: injected arguments never run, as a string, as a word, or as make\'s --eval', { skip }, async () => {
  const repo = await project({ cleans: 'dist' })
  const steps = [
    { tool: 'make_build', args: { args: INJECTIONS.chained } },
    { tool: 'make_build', args: { args: [INJECTIONS.chained] } },
    { tool: 'make_build', args: { args: [PROBE_WORD] } },
    { tool: 'make_build', args: { args: INJECTIONS.evalWord } },
    { tool: 'make_tidy', args: { args: ['DIR=src'] } },
    { text: 'done' },
  ]
  const r = await headless(repo, steps)
  assert.equal(r.code, 0, r.stderr)
  assert.deepEqual(toolSchema(r.requests[0], 'make_build').parameters.properties.args.type, 'array')
  assert.match(resultOf(r, 0), /^Error: /, 'a string is not a list of words')
  assert.doesNotMatch(resultOf(r, 1), /^\$ make build '; rm -rf src'\n\[exit code: 0\]/)
  assert.match(resultOf(r, 2), /No rule to make target '; touch injected'/)
  assert.ok(!probeRan(repo.dir), 'a word never reaches a shell as text')
  assert.match(resultOf(r, 3), /requires approval[\s\S]*was not run/)
  assert.match(resultOf(r, 4), /requires approval[\s\S]*`make tidy DIR=src` was not run/)
  assert.ok(sourcesKept(repo.dir), 'src/ survived every injection')
})

test('headless: bash is held to the same gate: `rm -rf src` and `make clean` are refused, `make build` runs', { skip }, async () => {
  const repo = await project()
  const r = await headless(repo, [
    { tool: 'bash', args: { command: 'rm -rf src', description: 'clean up' } },
    { tool: 'bash', args: { command: 'make clean', description: 'clean up' } },
    { tool: 'bash', args: { command: 'make build', description: 'build' } },
    { text: 'done' },
  ])
  assert.equal(r.code, 0, r.stderr)
  assert.match(resultOf(r, 0), /requires approval[\s\S]*`rm -rf src` was not run/)
  assert.match(resultOf(r, 1), /requires approval[\s\S]*`make clean` was not run[\s\S]*rm -rf src/)
  assert.doesNotMatch(resultOf(r, 2), /requires approval/)
  assert.ok(sourcesKept(repo.dir), 'src/ still exists')
  assert.ok(existsSync(join(repo.dir, 'build-stamp.txt')), 'a harmless bash command still runs')
})

/**
 * Listens on dsh web's event downlink (a WebSocket, as its UI listens; `ws` from the dsh install,
 * Node 20 has no WebSocket) and resolves with the first frame `match` accepts. Pending approvals
 * are sent again to every new listener, so none is missed by listening late.
 */
function nextFrame(base, match, ms = 60_000) {
  const WebSocket = createRequire(join(dshInstall().modules, 'noop.js'))('ws')
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/events.mux`)
  const frame = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching frame on the event downlink')), ms)
    socket.on('message', (data) => {
      const parsed = JSON.parse(String(data))
      if (!match(parsed)) return
      clearTimeout(timer)
      resolve(parsed)
    })
    socket.on('error', (error) => { clearTimeout(timer); reject(error) })
  })
  return { frame: frame.finally(() => socket.close()) }
}

async function answer(base, frame, outcome) {
  const { sessionId, approvalId } = frame.payload
  const res = await fetch(`${base}/api/respond`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'client-response', rpcId: frame.rpcId, result: { ok: true, value: { sessionId, approvalId, outcome } } }),
  })
  return res.json()
}

test('dsh web: a destructive call raises an approval prompt with the reason; rejected it does not run, allowed it does', { skip, timeout: 180_000 }, async (t) => {
  const repo = await project()
  const model = await startScriptedModel([{ tool: 'make_clean', args: {} }, { tool: 'make_clean', args: {} }, { text: 'done' }])
  t.after(() => model.close())
  const patch = join(home.root, `web-${randomUUID().slice(0, 8)}.yml`)
  await writeFile(patch, DETERMINISTIC_PATCH_TEXT + overlayYaml({ collectors: ['make'] }))
  const web = await startWeb({ home, model, patch, cwd: repo.dir })
  t.after(() => web.stop())
  const base = `http://127.0.0.1:${web.port}`
  const isAsk = (frame) => frame.payload?.type === 'approval/requested' && frame.payload.toolName === 'make_clean'
  const first = nextFrame(base, isAsk)
  const session = await web.createSession(repo.dir)
  await web.prompt(session, 'tidy up the project')
  const ask = await first.frame
  assert.match(ask.payload.reason, /`make clean` needs your approval: .*rm -rf src/)
  const second = nextFrame(base, (frame) => isAsk(frame) && frame.payload.approvalId !== ask.payload.approvalId)
  assert.deepEqual(await answer(base, ask, 'rejected'), { accepted: true })
  const again = await second.frame
  assert.ok(sourcesKept(repo.dir), 'rejected, src/ still exists')
  assert.match(toolResults(model.requests[1]).at(-1).content, /rejected[\s\S]*`make clean` was not run/)
  assert.deepEqual(await answer(base, again, 'allowed-once'), { accepted: true })
  await waitUntil(() => !sourcesKept(repo.dir), { what: 'the allowed clean to delete src/' })
  assert.ok(outputKept(repo.dir), 'it deleted only what it says')
})
