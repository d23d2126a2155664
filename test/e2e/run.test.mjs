// Discovered tools at work inside a headless dsh run: the fake model calls them, the commands
// really run in the workspace, and their results reach the model's next request.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable, makeHome, overlayYaml, runDsh, startScriptedModel, toolNames, toolResults, toolSchema } from './harness.mjs'

const skip = dshAvailable()
const FIXTURE = join(REPO_ROOT, 'test/fixtures/plugin/repo')
const APPROVER = join(REPO_ROOT, 'test/fixtures/e2e/approve-once.mjs')
let scratch
let home

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-run-'))
  home = await makeHome()
})
after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await home?.cleanup()
})

/** A fixture workspace, an overlay with `config`, and a headless run driven by `steps`. */
async function session({ steps, config, env, extraPatches = [], makefileExtra = '', prepare }) {
  const ws = await mkdtemp(join(scratch, 'ws-'))
  await cp(FIXTURE, ws, { recursive: true })
  if (makefileExtra) await appendFile(join(ws, 'Makefile'), makefileExtra)
  await prepare?.(ws)
  const overlay = join(ws, '.overlay.yml')
  await writeFile(overlay, overlayYaml({ config, collectors: ['make'] }))
  const model = await startScriptedModel(steps)
  try {
    const patches = [home.deterministicPatch, overlay, ...extraPatches].flatMap((p) => ['--patch', p])
    const r = await runDsh({ home, model, cwd: ws, env, args: ['--profile', 'headless', ...patches, 'work on the project'] })
    return { ...r, ws }
  } finally {
    await model.close()
  }
}

/** A target that deletes the sources, and sources for it to delete: what the gate stops. */
const NUKE = '\n## Start over\n.PHONY: nuke\nnuke:\n\trm -rf src\n'
const withSources = async (ws) => {
  await mkdir(join(ws, 'src'), { recursive: true })
  await writeFile(join(ws, 'src', 'keep.txt'), 'kept')
}
const sourcesKept = (ws) => existsSync(join(ws, 'src', 'keep.txt'))

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('a discovered tool runs its command in the workspace, and its result reaches the model', { skip }, async () => {
  const r = await session({ steps: [{ tool: 'make_build', args: { args: ['VERSION=4.2.0'] } }, { text: 'done' }] })
  assert.equal(r.code, 0, r.stderr)
  const schema = toolSchema(r.requests[0], 'make_build')
  assert.match(schema.description, /^Runs `make build` \(Makefile:7\)\.\nWrite the build stamp\n/)
  assert.deepEqual(Object.keys(schema.parameters.properties), ['args'])
  assert.equal((await readFile(join(r.ws, 'build-stamp.txt'), 'utf8')).trim(), 'building 4.2.0')
  const [result] = toolResults(r.requests[1])
  assert.equal(result.content, '$ make build VERSION=4.2.0\n[exit code: 0] (' + result.content.match(/\((\d+\.\d) s\)/)[1] + ' s)\nstdout:\nbuilt 4.2.0')
})

test('the same through the dispatcher: one `recipe` tool, op with arguments', { skip }, async () => {
  const r = await session({
    config: { exposure: 'dispatcher' },
    steps: [{ tool: 'recipe', args: { op: 'make:build VERSION=5.0.0' } }, { tool: 'recipe', args: { op: 'nope' } }, { text: 'done' }],
  })
  assert.equal(r.code, 0, r.stderr)
  const names = toolNames(r.requests[0])
  assert.ok(names.includes('recipe'))
  assert.equal(names.filter((n) => n.startsWith('make_')).length, 0)
  assert.match(toolSchema(r.requests[0], 'recipe').description, /- build: Write the build stamp/)
  assert.equal((await readFile(join(r.ws, 'build-stamp.txt'), 'utf8')).trim(), 'building 5.0.0')
  assert.match(toolResults(r.requests[1])[0].content, /^\$ make build VERSION=5\.0\.0\n\[exit code: 0\]/)
  assert.match(toolResults(r.requests[2])[1].content, /Unknown task `nope`\. Available tasks:\nmake: \.DEFAULT_GOAL, build, test, deploy, clean, slow/)
})

test('a command past execution.timeoutMs is killed with its children', { skip }, async () => {
  const r = await session({ config: { execution: { timeoutMs: 1500 } }, steps: [{ tool: 'make_slow', args: {} }, { text: 'done' }] })
  assert.equal(r.code, 0, r.stderr)
  const [result] = toolResults(r.requests[1])
  assert.match(result.content, /\[killed: timed out\]/)
  assert.match(result.content, /\[killed: timed out after 1500 ms\]/)
  const child = Number(await readFile(join(r.ws, 'slow-child.pid'), 'utf8'))
  assert.ok(child > 0)
  const deadline = Date.now() + 5_000
  while (alive(child) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(alive(child), false, `the background child ${child} was killed too`)
})

test('a destructive recipe is refused in headless mode, where no one can approve it', { skip }, async () => {
  const r = await session({ makefileExtra: NUKE, prepare: withSources, steps: [{ tool: 'make_nuke', args: {} }, { text: 'done' }] })
  assert.equal(r.code, 0, r.stderr)
  assert.match(toolSchema(r.requests[0], 'make_nuke').description, /Asks a person for approval first: `rm -rf src` deletes `src`/)
  // The gate reads what a target runs, not its name: `deploy` only writes a file here.
  assert.doesNotMatch(toolSchema(r.requests[0], 'make_deploy').description, /Asks a person/)
  const refusal = toolResults(r.requests[1])[0].content
  assert.match(refusal, /^Error: tool "make_nuke" requires approval, but no approval channel is available/)
  // The model learns what the command does, why it is gated and how a person allows it.
  assert.match(refusal, /`make nuke` was not run/)
  assert.match(refusal, /What it does: `rm -rf src` deletes `src`, .*\(Makefile:\d+/)
  assert.match(refusal, /Why it needs approval: it is destructive/)
  assert.match(refusal, /How to allow it: a person approves the prompt in an interactive dsh session, or runs `make nuke` themselves/)
  assert.ok(sourcesKept(r.ws), 'src survived')
})

test('bash is held to the same check: a destructive recipe by its runner command, or a destructive command line', { skip }, async () => {
  const r = await session({
    makefileExtra: NUKE,
    prepare: withSources,
    steps: [
      { tool: 'bash', args: { command: 'make nuke', description: 'clean up' } },
      { tool: 'bash', args: { command: 'true && rm -rf src', description: 'clean up' } },
      { tool: 'bash', args: { command: 'make build', description: 'build' } },
      { text: 'done' },
    ],
  })
  assert.equal(r.code, 0, r.stderr)
  const results = r.requests.slice(1, 4).map((q) => toolResults(q).at(-1).content)
  assert.match(results[0], /requires approval[\s\S]*`make nuke` was not run[\s\S]*What it does: `rm -rf src` deletes `src`[\s\S]*through `make nuke`/)
  assert.match(results[1], /requires approval[\s\S]*`true && rm -rf src` was not run[\s\S]*deletes/)
  assert.doesNotMatch(results[2], /requires approval/)
  assert.equal(await readFile(join(r.ws, 'src', 'keep.txt'), 'utf8'), 'kept', 'src survived')
  assert.ok(existsSync(join(r.ws, 'build-stamp.txt')), 'a harmless bash command still runs')
})

test('danger-full-access turns approval prompts off, so a destructive recipe is still refused', { skip }, async () => {
  const r = await session({ env: { DSH_PERMISSION_MODE: 'danger-full-access' }, makefileExtra: NUKE, prepare: withSources, steps: [{ tool: 'make_nuke', args: {} }, { text: 'done' }] })
  assert.match(toolResults(r.requests[1])[0].content, /^Error: the user rejected tool "make_nuke"[\s\S]*How to allow it/)
  assert.ok(sourcesKept(r.ws), 'src survived')
})

test('where an approver answers, the ask carries the reason and the destructive recipe runs', { skip }, async () => {
  const approver = join(scratch, 'approver.yml')
  await writeFile(approver, `- insert:\n    - id: test-approver\n      name: '${APPROVER}'\n`)
  const r = await session({ extraPatches: [approver], makefileExtra: NUKE, prepare: withSources, steps: [{ tool: 'make_nuke', args: {} }, { text: 'done' }] })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /\[approval\] make_nuke: `make nuke` needs your approval: `rm -rf src` deletes `src`/)
  assert.match(toolResults(r.requests[1])[0].content, /^\$ make nuke\n\[exit code: 0\]/)
  assert.equal(existsSync(join(r.ws, 'src')), false, 'approved, it ran')
})

// workspace-write also allows the temp dirs, so the probe needs a checkout that is not in one.
const probeSkip = skip ?? ([tmpdir(), '/tmp'].some((t) => REPO_ROOT.startsWith(`${t}/`)) ? `the checkout is under a temp dir the sandbox lets commands write to (${REPO_ROOT})` : undefined)

test('recipe commands run inside the harness sandbox, like bash: no writes outside the workspace', { skip: probeSkip }, async () => {
  // Outside the workspace and outside the temp dirs workspace-write also allows.
  const outsideDir = join(REPO_ROOT, '.cache', 'sandbox-probe')
  await mkdir(outsideDir, { recursive: true })
  const outside = join(outsideDir, `escape-${process.pid}.txt`)
  const r = await session({
    // `touch` creates a file and overwrites nothing, so the destructive gate lets it through: the sandbox is what stops it.
    makefileExtra: `\n.PHONY: escape\nescape:\n\t@touch ${outside}\n`,
    steps: [{ tool: 'make_escape', args: {} }, { tool: 'bash', args: { command: `touch ${outside}`, description: 'write outside' } }, { text: 'done' }],
  })
  assert.equal(r.code, 0, r.stderr)
  assert.match(toolResults(r.requests[1])[0].content, /\[exit code: 2\][\s\S]*Permission denied/)
  assert.match(toolResults(r.requests[2])[1].content, /Permission denied/, 'bash is confined the same way')
  assert.equal(existsSync(outside), false)
})

test('names against the real registry: the built-ins are the ones the book reserves, and a target named like one gets a suffix', { skip }, async () => {
  const r = await session({
    config: { naming: { style: 'flat' } },
    makefileExtra: '\n.PHONY: read bash\nread:\n\t@echo own-read\nbash:\n\t@echo own-bash\n',
    steps: [{ tool: 'read_2', args: {} }, { text: 'done' }],
  })
  assert.equal(r.code, 0, r.stderr)
  const names = toolNames(r.requests[0])
  assert.equal(new Set(names).size, names.length, 'every tool name is unique')
  const ours = ['default_goal', 'build', 'test', 'deploy', 'clean', 'slow', 'read_2', 'bash_2']
  for (const name of ours) assert.ok(names.includes(name), `${name} offered`)
  const builtins = names.filter((n) => !ours.includes(n))
  const { RESERVED_TOOL_NAMES } = await import('../../dist/src/book/recipe-book.js')
  assert.deepEqual(builtins.filter((n) => !RESERVED_TOOL_NAMES.has(n)), [], 'the reserved list covers every built-in of the headless tree')
  assert.match(toolResults(r.requests[1])[0].content, /^\$ make read\n\[exit code: 0\][\s\S]*own-read/)
})

test('a third-party collector is one more row: its tools join the book in dsh', { skip }, async () => {
  const collector = join(scratch, 'gradle.yml')
  await writeFile(collector, `- insert:\n    - id: gradle-collector\n      name: '${join(REPO_ROOT, 'test/fixtures/e2e/gradle-collector.mjs')}'\n`)
  const r = await session({
    extraPatches: [collector],
    steps: [(request) => (toolNames(request).includes('gradle_assemble') ? { tool: 'gradle_assemble', args: {} } : { text: 'no gradle tool' }), { text: 'done' }],
    prepare: async (dir) => writeFile(join(dir, 'build.gradle'), 'task assemble\n'),
  })
  assert.equal(r.code, 0, r.stderr)
  assert.ok(toolNames(r.requests[0]).includes('make_build'))
  assert.match(toolResults(r.requests[1])[0].content, /^\$ echo gradle assemble\n\[exit code: 0\][\s\S]*gradle assemble/)
})
