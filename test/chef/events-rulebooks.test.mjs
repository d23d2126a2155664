// Integration events and rulebooks in the real dsh. A recorder row records the cooks snapshots and,
// at each prompt assembly, the kitchen role of the agent. The shipped craft rulebook and a second
// one (strict, cooks only) are loaded in the chef's dsh and, through cookArgs, in every cook; the
// config selects craft by default and strict for one project.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable } from '../e2e/harness.mjs'
import { systemText } from '../support/fake-model.mjs'
import { chefResults, chefWorld, makeRepo, waitFor } from './support.mjs'

const skip = dshAvailable()
const CRAFT = join(REPO_ROOT, 'dist/src/chef/entries/rulebook-craft.js')
const STRICT = join(REPO_ROOT, 'test/chef/fixtures/strict-rulebook.mjs')
const RECORDER = join(REPO_ROOT, 'test/chef/fixtures/recorder.mjs')

const rulebookRows = [
  `    - id: command-scout-rulebook-craft`,
  `      name: '${CRAFT}'`,
  `    - id: command-scout-rulebook-strict`,
  `      name: '${STRICT}'`,
]

function records(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []
}

test('snapshots, role answers and rulebooks per role and per project', { skip, timeout: 300_000 }, async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'cs-chef-events-'))
  t.after(() => rmSync(scratch, { recursive: true, force: true }))
  const file = join(scratch, 'recorder.jsonl')
  // The cooks load both rulebooks through cookArgs, as a person adds a rulebook to every cook.
  const cookLayer = join(scratch, 'cook-rulebooks.yml')
  writeFileSync(cookLayer, `- insert:\n${rulebookRows.join('\n')}\n`)
  const config = { rulebook: { default: 'craft', projects: { beta: 'strict', gamma: 'nosuch' } }, cookArgs: ['--patch', cookLayer] }
  const w = await chefWorld(t, {
    config,
    chefOn: false,
    extraRows: [...rulebookRows, '    - id: kitchen-recorder', `      name: '${RECORDER}'`, `      config: ${JSON.stringify({ file })}`],
    cook: () => ({ tool: 'chef_report', args: { status: 'done', summary: 'nothing to do' } }),
  })

  // Before /chef on: the session has no role and no rulebook block.
  const before = w.model.default.requests.length
  await w.web.prompt(w.sessionId, 'hello')
  const [plainReq] = (await w.model.default.waitForRequests(before + 1)).slice(before)
  assert.doesNotMatch(systemText(plainReq.body), /# Rulebook:/)
  assert.equal(records(file).filter((r) => r.kind === 'role').at(-1).value.role, undefined)

  assert.equal((await w.web.command(w.sessionId, '/chef on')).kind, 'success')
  const alpha = makeRepo(w.repos, 'alpha')
  const beta = makeRepo(w.repos, 'beta')
  const turn = await w.say([
    { tool: 'chef_add_project', args: { path: alpha } },
    { tool: 'chef_add_project', args: { path: beta } },
    { tool: 'chef_dispatch', args: { tasks: [{ project: 'alpha', title: 'A', brief: 'a' }, { project: 'beta', title: 'B', brief: 'b' }] } },
    { tool: 'chef_board', args: {} },
  ])
  // The chef: its role is chef with the default rulebook; its prompt has the craft chef block only.
  const chefSystem = systemText(turn[0].body)
  assert.match(chefSystem, /# Rulebook: craft\n\nYou chose the craft rules for the kitchen\./)
  assert.doesNotMatch(chefSystem, /# Rulebook: strict/)
  const chefRole = records(file).filter((r) => r.kind === 'role' && r.value.agentId === w.sessionId).at(-1).value
  assert.equal(chefRole.role, 'chef')
  assert.equal(chefRole.rulebook, 'craft')
  assert.equal(chefRole.answeredRequest, true, 'a snapshot request is answered at once')
  const board = chefResults(turn).at(-1)
  assert.match(board, /Rulebook: craft\. Per project: beta strict, gamma nosuch\./)
  assert.match(board, /selects the rulebook "nosuch", but no installed package provides it\. Installed rulebooks: craft, strict\./)

  // The cooks: alpha gets the craft cook block after the contract; beta gets strict and no craft.
  await w.cookRoute.waitForRequests(2)
  const cookSystem = (id) => systemText(w.cookRoute.requests.find((r) => systemText(r.body).includes(`(${id})`)).body)
  assert.match(cookSystem('alpha-1'), /# Cook contract[\s\S]*# Rulebook: craft\n\nThe chef chose the craft rules for this task\./)
  assert.doesNotMatch(cookSystem('alpha-1'), /# Rulebook: strict/)
  assert.match(cookSystem('beta-1'), /# Rulebook: strict\n\nStrict rules: no new dependencies/)
  assert.doesNotMatch(cookSystem('beta-1'), /# Rulebook: craft/)

  // Snapshots: from no task through cooking to idle done, never two equal in a row, each task with its viewer.
  await waitFor(() => {
    const last = records(file).filter((r) => r.kind === 'snapshot').at(-1)?.value
    return last?.tasks.length === 2 && last.tasks.every((x) => x.state === 'idle')
  }, 'both tasks idle in a snapshot')
  const snaps = records(file).filter((r) => r.kind === 'snapshot').map((r) => r.value)
  assert.ok(snaps.some((s) => s.tasks.length === 0), 'a snapshot before the first task')
  assert.ok(snaps.some((s) => s.tasks.some((x) => x.state === 'cooking')), 'a snapshot with a task cooking')
  for (let i = 1; i < snaps.length; i++) assert.notDeepEqual(snaps[i], snaps[i - 1], `snapshot ${i} repeats the one before`)
  const last = snaps.at(-1)
  assert.equal(last.version, 1)
  assert.equal(last.role, 'owner')
  const a = last.tasks.find((x) => x.id === 'alpha-1')
  assert.equal(a.outcome.kind, 'done')
  assert.deepEqual(a.viewer, { command: join(REPO_ROOT, 'bin/command-scout'), args: ['watch', a.taskDir] })
  assert.equal(a.transcript, join(a.taskDir, 'runs/1.jsonl'))

  // /chef off: role off with no tasks, and the role query answers nothing.
  assert.equal((await w.web.command(w.sessionId, '/chef off')).kind, 'success')
  const off = records(file).filter((r) => r.kind === 'snapshot').at(-1).value
  assert.deepEqual({ role: off.role, tasks: off.tasks }, { role: 'off', tasks: [] })
  const b2 = w.model.default.requests.length
  await w.web.prompt(w.sessionId, 'plain again')
  const [afterOff] = (await w.model.default.waitForRequests(b2 + 1)).slice(b2)
  assert.doesNotMatch(systemText(afterOff.body), /# Rulebook:/)
  assert.equal(records(file).filter((r) => r.kind === 'role' && r.value.agentId === w.sessionId).at(-1).value.role, undefined)
})
