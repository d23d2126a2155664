// The curated recipe tools in the real dsh against a fake model: the model searches, renders and
// runs recipes through the tools; a destructive recipe is refused where no one can approve it and
// runs once an approver answers.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable, dshPlugin, makeHome, packPackage, runDsh, startScriptedModel, toolNames, toolResults, toolSchema } from './harness.mjs'

const skip = dshAvailable()
const RUNNABLE = join(REPO_ROOT, 'test/fixtures/curated/runnable')
const APPROVER = join(REPO_ROOT, 'test/fixtures/e2e/approve-once.mjs')
let scratch
let home

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-curated-'))
  home = await makeHome()
})
after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await home?.cleanup()
})

/** A workspace with a file and a directory, the curated overlay row, and a headless run driven by `steps`. */
async function session({ steps, extraPatches = [] }) {
  const ws = await mkdtemp(join(scratch, 'ws-'))
  await writeFile(join(ws, 'data.txt'), 'hello')
  await mkdir(join(ws, 'old build'))
  await writeFile(join(ws, 'old build', 'artifact.bin'), 'x')
  const overlay = join(ws, '.curated.yml')
  await writeFile(overlay, `- insert:\n    - id: command-scout-curated\n      name: '${join(REPO_ROOT, 'dist/src/dsh/entries/curated.js')}'\n      config: ${JSON.stringify({ dirs: [RUNNABLE] })}\n`)
  const model = await startScriptedModel(steps)
  try {
    const patches = [home.deterministicPatch, overlay, ...extraPatches].flatMap((p) => ['--patch', p])
    const r = await runDsh({ home, model, cwd: ws, args: ['--profile', 'headless', ...patches, 'clean up the workspace'] })
    return { ...r, ws }
  } finally {
    await model.close()
  }
}

test('the model searches, renders and runs curated recipes; a destructive one is refused without an approver', { skip }, async () => {
  const r = await session({
    steps: [
      { tool: 'curated_recipe_search', args: { query: 'directory tree' } },
      { tool: 'curated_recipe_render', args: { id: 'files.check_file', params: { path: 'data.txt' } } },
      { tool: 'curated_recipe_run', args: { id: 'files.check_file', params: { path: 'data.txt' } } },
      { tool: 'curated_recipe_run', args: { id: 'files.remove_tree', params: { dir: 'old build' } } },
      { text: 'done' },
    ],
  })
  assert.equal(r.code, 0, r.stderr)
  const names = toolNames(r.requests[0])
  for (const tool of ['curated_recipe_search', 'curated_recipe_render', 'curated_recipe_run']) assert.ok(names.includes(tool), `${tool} offered (got ${names.join(', ')})`)
  assert.match(toolSchema(r.requests[0], 'curated_recipe_run').description, /Recipes of risk medium or above, or marked for confirmation, ask the user first/)
  const results = (i) => toolResults(r.requests[i]).at(-1).content
  assert.match(results(1), /^files\.remove_tree \[destructive\] Delete a directory tree \(params: dir: string\)/m)
  const rendered = JSON.parse(results(2))
  assert.deepEqual(rendered.commands.map((c) => c.command), ['ls -l data.txt', 'wc -c data.txt'])
  assert.match(results(3), /^Show a file's details \(files\.check_file, linux, risk read_only\): done, verified\n/)
  assert.match(results(3), /\$ wc -c data\.txt\n\[exit 0, [\d.]+ s\]\n5 data\.txt/)
  assert.match(results(3), /verification:\n\$ test -r data\.txt && echo readable\n\[exit 0\] expect: readable\nreadable/)
  assert.match(results(4), /^Error: tool "curated_recipe_run" requires approval, but no approval channel is available/)
  // The model learns what would have run, what the recipe is, why it is gated and how a person allows it.
  assert.match(results(4), /`du -sh 'old build' && rm -r 'old build'` was not run: this session has no one to ask/)
  assert.match(results(4), /What it does: it is the curated recipe "Delete a directory tree" \(files\.remove_tree, risk destructive\), run as 2 commands; it cannot be undone/)
  assert.match(results(4), /Why it needs approval: it is destructive/)
  assert.match(results(4), /How to allow it: a person approves the prompt in an interactive dsh session/)
  assert.ok(existsSync(join(r.ws, 'old build', 'artifact.bin')), 'the destructive recipe did not run')
  assert.equal(r.stdout.trim(), 'done')
})

test('where an approver answers, the ask names the recipe and its risk, and the destructive recipe runs', { skip }, async () => {
  const approver = join(scratch, 'approver.yml')
  await writeFile(approver, `- insert:\n    - id: test-approver\n      name: '${APPROVER}'\n`)
  const r = await session({
    extraPatches: [approver],
    steps: [{ tool: 'curated_recipe_run', args: { id: 'files.remove_tree', params: { dir: 'old build' } } }, { text: 'removed' }],
  })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /\[approval\] curated_recipe_run: Run the curated recipe "Delete a directory tree" \(files\.remove_tree, risk: DESTRUCTIVE\)\? It runs:\n {2}du -sh 'old build'\n {2}rm -r 'old build'/)
  const [result] = toolResults(r.requests[1])
  assert.match(result.content, /^Delete a directory tree \(files\.remove_tree, linux, risk destructive\): done, verified\n/)
  assert.match(result.content, /\$ rm -r 'old build'\n\[exit 0/)
  assert.equal(existsSync(join(r.ws, 'old build')), false)
})

test('installed as a bundle, the tools search the library shipped inside the package', { skip }, async (t) => {
  const bundleHome = await makeHome()
  t.after(bundleHome.cleanup)
  const tarball = await packPackage(scratch)
  const added = await dshPlugin({ home: bundleHome, profile: 'headless', args: ['add', tarball] })
  assert.equal(added.code, 0, added.stderr + added.stdout)
  const ws = await mkdtemp(join(scratch, 'ws-'))
  const model = await startScriptedModel([
    { tool: 'curated_recipe_search', args: { query: 'undo commit', category: 'git' } },
    { tool: 'curated_recipe_render', args: { id: 'git.undo_last_commit' } },
    { text: 'found' },
  ])
  try {
    const r = await runDsh({ home: bundleHome, model, cwd: ws, args: ['--profile', 'headless', '--patch', bundleHome.deterministicPatch, 'how do I undo a commit'] })
    assert.equal(r.code, 0, r.stderr)
    assert.ok(toolNames(r.requests[0]).includes('curated_recipe_search'))
    assert.match(toolResults(r.requests[1])[0].content, /^git\.undo_last_commit \[\w+\] /m)
    const rendered = JSON.parse(toolResults(r.requests[2]).at(-1).content)
    assert.equal(rendered.id, 'git.undo_last_commit')
    assert.ok(rendered.commands.length > 0)
  } finally {
    await model.close()
  }
})
