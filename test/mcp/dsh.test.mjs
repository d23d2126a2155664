// In the real pinned dsh against a fake model: `command-scout mcp` through dsh's own MCP client row
// (the model calls mcp__command-scout__... and the command really runs; a destructive one is refused
// with the reason), and the bundle's skills row (the catalog reaches the model, the `skill` tool
// returns a body).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { parse } from 'yaml'
import { REPO_ROOT, dshAvailable, makeHome, runDsh, startScriptedModel, toolNames, toolResults } from '../e2e/harness.mjs'

const skip = dshAvailable()
let scratch
let home

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-mcp-dsh-'))
  home = await makeHome()
})
after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await home?.cleanup()
})

async function session({ overlay, steps, ws }) {
  const file = join(scratch, `overlay-${Math.random().toString(36).slice(2)}.yml`)
  await writeFile(file, overlay)
  const model = await startScriptedModel(steps)
  try {
    return await runDsh({ home, model, cwd: ws, args: ['--profile', 'headless', '--patch', home.deterministicPatch, '--patch', file, 'do the task'], timeoutMs: 120_000 })
  } finally {
    await model.close()
  }
}

/** The file the bundle's own row loads (cordis.patch.yml's name, through package.json's exports), so the row itself is what runs. */
async function bundleRowEntry(id) {
  const rows = parse(await readFile(join(REPO_ROOT, 'cordis.patch.yml'), 'utf8'))[0].insert
  const row = rows.find((r) => r.id === id)
  assert.ok(row, `the bundle has a ${id} row`)
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8'))
  const target = pkg.exports[row.name.replace(pkg.name, '.')]?.default
  assert.ok(target, `${row.name} is exported`)
  return join(REPO_ROOT, target)
}

const lastResult = (r, i) => toolResults(r.requests[i]).at(-1)?.content ?? ''

test("dsh's MCP client row runs `command-scout mcp`: the model's call really runs the command; a destructive one is refused", { skip }, async () => {
  const ws = await mkdtemp(join(scratch, 'ws-'))
  await writeFile(join(ws, 'Makefile'), 'hello:\n\techo hello via mcp > ran.txt\n\nwipe:\n\trm -rf src\n')
  await mkdir(join(ws, 'src'))
  await writeFile(join(ws, 'src', 'keep.txt'), 'keep')
  const config = {
    serverName: 'command-scout', transport: 'stdio', command: process.execPath,
    args: [join(REPO_ROOT, 'bin/command-scout'), 'mcp', '--root', ws], failOnStartupError: true,
  }
  const r = await session({
    ws,
    overlay: `- insert:\n    - id: mcp-command-scout\n      name: '@deepseek-ai/dsh-mcp-client'\n      config: ${JSON.stringify(config)}\n`,
    steps: [
      { tool: 'mcp__command-scout__make_hello', args: {} },
      { tool: 'mcp__command-scout__make_wipe', args: {} },
      { tool: 'mcp__command-scout__curated_recipe_render', args: { id: 'network.find_process_on_port', params: { port: '8080' }, platform: 'linux' } },
      { text: 'done' },
    ],
  })
  assert.equal(r.code, 0, r.stderr)
  const names = toolNames(r.requests[0])
  for (const name of ['mcp__command-scout__make_hello', 'mcp__command-scout__make_wipe', 'mcp__command-scout__curated_recipe_search', 'mcp__command-scout__curated_recipe_render']) {
    assert.ok(names.includes(name), `${name} offered (got ${names.filter((n) => n.startsWith('mcp__')).join(', ')})`)
  }
  assert.match(lastResult(r, 1), /\$ make hello\n\[exit code: 0\]/)
  assert.equal(await readFile(join(ws, 'ran.txt'), 'utf8'), 'hello via mcp\n')
  assert.match(lastResult(r, 2), /Not run: `make wipe` needs a person's yes: `rm -rf src`[\s\S]*"confirm": true/)
  assert.ok(existsSync(join(ws, 'src', 'keep.txt')), 'the destructive command did not run')
  assert.match(lastResult(r, 3), /lsof -nP -iTCP:8080 -sTCP:LISTEN/)
  assert.equal(r.stdout.trim(), 'done')
})

test("the bundle's skills row and `recipes skills --root` in the project: both reach the model's catalog and the skill tool returns their bodies", { skip }, async () => {
  const ws = await mkdtemp(join(scratch, 'shop-'))
  await writeFile(join(ws, 'Makefile'), '# Build the shop\nbuild:\n\techo built\n')
  const wrote = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), 'recipes', 'skills', '--root', ws, '--out', join(ws, '.dsh/skills')], { encoding: 'utf8' })
  assert.equal(wrote.status, 0, wrote.stderr)
  const project = `command-scout-${basename(ws).toLowerCase().replace(/[^a-z0-9]+/g, '-')}-make-commands`
  const r = await session({
    ws,
    overlay: `- insert:\n    - id: command-scout-skills\n      name: '${await bundleRowEntry('command-scout-skills')}'\n`,
    steps: [{ tool: 'skill', args: { name: 'command-scout-git-recipes' } }, { tool: 'skill', args: { name: project } }, { text: 'loaded' }],
  })
  assert.equal(r.code, 0, r.stderr)
  const catalog = JSON.stringify(r.requests[0].messages.filter((m) => m.role === 'user'))
  for (const category of ['git', 'docker', 'files', 'network', 'node', 'db']) assert.match(catalog, new RegExp(`command-scout-${category}-recipes`), `${category} skill in the catalog`)
  const body = lastResult(r, 1)
  assert.match(body, /# git recipes/)
  assert.match(body, /`git\.undo_last_commit` · medium risk/)
  assert.match(body, /curated_recipe_render/)
  assert.match(catalog, new RegExp(project), 'the project skill written to .dsh/skills is in the catalog')
  assert.match(lastResult(r, 2), /\| `make build` \| \. \| .* \| `make_build` \|/)
  assert.equal(r.stdout.trim(), 'loaded')
})
