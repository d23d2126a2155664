// The newer collectors' rows in the real dsh (headless, a fake model on 127.0.0.1): a workspace
// with a Go module, a composer.json and a .vscode/tasks.json gets their tools, and the model's
// calls run the real commands (composer from test/setup/40-tools.sh) in the workspace.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable, makeHome, overlayYaml, runDsh, startScriptedModel, toolNames, toolResults } from './harness.mjs'
import { toolBinary } from '../support/tool-binary.mjs'

const skip = dshAvailable() ?? (toolBinary('composer') ? undefined : 'composer is not on PATH; run `source test/setup/40-tools.sh` (npm test does)')
const FIXTURE = join(REPO_ROOT, 'test/fixtures/e2e/more-collectors')
let scratch
let home

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-more-'))
  home = await makeHome()
})
after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
  await home?.cleanup()
})

test('go, composer and vscode rows give their tools in dsh, and the calls run the commands', { skip }, async () => {
  const ws = await mkdtemp(join(scratch, 'ws-'))
  await cp(FIXTURE, ws, { recursive: true })
  const overlay = join(ws, '.overlay.yml')
  await writeFile(overlay, overlayYaml({ collectors: ['go', 'composer', 'vscode'] }))
  const model = await startScriptedModel([{ tool: 'composer_stamp', args: {} }, { tool: 'sh_stamp', args: {} }, { text: 'done' }])
  try {
    const r = await runDsh({ home, model, cwd: ws, env: { COMPOSER_HOME: join(ws, '.composer-home'), COMPOSER_ALLOW_SUPERUSER: '1' }, args: ['--profile', 'headless', '--patch', home.deterministicPatch, '--patch', overlay, 'work on the project'] })
    assert.equal(r.code, 0, r.stderr)
    const names = toolNames(r.requests[0])
    for (const name of ['go_build', 'go_test', 'go_vet', 'go_run_hello', 'composer_stamp', 'sh_stamp']) assert.ok(names.includes(name), `${name} is offered (got ${names.join(', ')})`)
    assert.equal((await readFile(join(ws, 'composer-stamp.txt'), 'utf8')).trim(), 'from-composer')
    assert.equal((await readFile(join(ws, 'vscode-stamp.txt'), 'utf8')).trim(), 'from-vscode')
    const results = [...toolResults(r.requests[1]), ...toolResults(r.requests[2])]
    assert.ok(results.some((x) => /\$ composer run-script stamp\n\[exit code: 0\]/.test(x.content)), JSON.stringify(results))
  } finally {
    await model.close()
  }
})
