// The context the bundle costs the agent: the tool definitions dsh really sends to the (fake)
// model, for repositories of every size, counted with a real BPE tokenizer (gpt-tokenizer's
// o200k_base; DeepSeek's own tokenizer is not published for JavaScript, and BPE vocabularies of
// this size count English and JSON within a few percent of each other). Budget: 2,000 tokens.
// Every command stays reachable: as its own tool, or through the dispatcher's `op`.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { REPO_ROOT, dshAvailable, makeHome, overlayYaml, runDsh, startScriptedModel, toolResults } from './harness.mjs'

const skip = dshAvailable()
const BUDGET = 2_000
let scratch
let home

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-budget-'))
  home = await makeHome()
})
after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await home?.cleanup()
})

const makefile = (n) => ['.PHONY: ' + Array.from({ length: n }, (_, i) => `t${i}`).join(' '),
  ...Array.from({ length: n }, (_, i) => `t${i}: ## Build part ${i} of the project with its own flags\n\t@echo t${i} $(FLAGS)`)].join('\n') + '\n'

/** Repositories shaped like real ones: a tiny Makefile, a 39-target one, a 60-package workspace with hooks. */
const REPOS = {
  'make-2': { Makefile: makefile(2) },
  'make-39': { Makefile: makefile(39) },
  'workspace-60': Object.fromEntries([
    ['package.json', JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts: { preinstall: 'node check.js', postinstall: 'node setup.js', build: 'tsc -b', prebuild: 'rm -rf dist', test: 'vitest', lint: 'eslint .' } })],
    ...Array.from({ length: 60 }, (_, i) => [`packages/p${i}/package.json`, JSON.stringify({ name: `@mono/p${i}`, scripts: { build: 'tsc', test: 'vitest run', dev: 'vite' } })]),
  ]),
  // The worst case: every runner at once, long names and long docs.
  'everything-300': Object.fromEntries([
    ['Makefile', makefile(100)],
    ['justfile', Array.from({ length: 60 }, (_, i) => `# Recipe number ${i} with a long description of what it does to the project\nrecipe-with-a-long-name-${i}:\n    echo ${i}\n`).join('\n')],
    ['deno.json', JSON.stringify({ tasks: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`deno-task-${i}`, `deno run -A scripts/task-${i}.ts --with --many --flags`])) })],
    ['package.json', JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts: { build: 'tsc -b' } })],
    ...Array.from({ length: 100 }, (_, i) => [`packages/some-long-package-name-${i}/package.json`, JSON.stringify({ name: `@an-organisation/some-long-package-name-${i}`, scripts: { build: 'tsc -p tsconfig.build.json', test: 'vitest run --coverage' } })]),
  ]),
}

const CURATED_ROW = `    - id: command-scout-curated\n      name: '${join(REPO_ROOT, 'dist/src/dsh/entries/curated.js')}'\n`

async function toolsSent(files, withBundle, steps = [{ text: 'done' }]) {
  const ws = await mkdtemp(join(scratch, 'ws-'))
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(ws, path, '..'), { recursive: true })
    await writeFile(join(ws, path), text)
  }
  const patches = [home.deterministicPatch]
  if (withBundle) {
    const overlay = join(ws, '.overlay.yml')
    await writeFile(overlay, overlayYaml() + CURATED_ROW)
    patches.push(overlay)
  }
  const model = await startScriptedModel(steps)
  try {
    const r = await runDsh({ home, model, cwd: ws, args: ['--profile', 'headless', ...patches.flatMap((p) => ['--patch', p]), 'work on the project'] })
    assert.equal(r.code, 0, r.stderr)
    const request = r.requests.find((b) => Array.isArray(b.tools) && b.tools.length > 0)
    assert.ok(request, 'dsh sent the model a tool list')
    return Object.assign(request.tools, { requests: r.requests })
  } finally {
    await model.close()
  }
}

test('the bundle\'s tool definitions cost at most 2,000 tokens in any repository, and every command stays reachable', { skip }, async () => {
  const builtIn = new Set((await toolsSent({}, false)).map((t) => t.function?.name ?? t.name))
  const report = []
  for (const [name, files] of Object.entries(REPOS)) {
    // The last target, called by name: through its own tool or through the dispatcher.
    const last = name.startsWith('make') ? `t${Number(name.slice(5)) - 1}` : name === 'everything-300' ? 'make:t99' : '@mono/p59/dev'
    const sent = await toolsSent(files, true, [{ tool: 'recipe', args: { op: last } }, { text: 'done' }])
    const tools = sent.filter((t) => !builtIn.has(t.function?.name ?? t.name))
    const tokens = tools.reduce((sum, t) => sum + countTokens(JSON.stringify(t)), 0)
    const names = tools.map((t) => t.function?.name ?? t.name)
    report.push(`${name}: ${tools.length} tools, ${tokens} tokens (${names.slice(0, 6).join(', ')}${names.length > 6 ? ', ...' : ''})`)
    assert.ok(tokens <= BUDGET, `${name}: ${tokens} tokens > ${BUDGET}\n${report.join('\n')}`)
    if (names.includes('recipe')) {
      const result = JSON.stringify(toolResults(sent.requests.at(-1)))
      assert.match(result, name === 'workspace-60' ? /\$ npm run dev/ : /\$ make t\d+/, `${last} ran through the dispatcher: ${result}`)
      if (name === 'make-39') for (let i = 0; i < 39; i++) assert.match(JSON.stringify(tools), new RegExp(`\\bt${i}\\b`), `t${i} is named in the tool list`)
    }
  }
  console.log(report.join('\n'))
})
