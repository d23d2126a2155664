// chef_result's verify without a harness: a real kitchen with the fake cook, and the harness's shell
// seam as a recording fake. What runs is the base branch's test command by name, judged by the
// destructive gate on the base branch and on the task branch, in the clone with the cook's sandbox;
// uncommitted work is reported, never verified.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { verifyTask } from '../../dist/src/chef/verify.js'
import { FAST_CONFIG, git, ownerKitchen, settled, tempDir, writeConfig } from '../kitchen/support.mjs'

/** The shell seam as dsh mounts it with its sandbox: records what it was asked to run. */
function fakeShell({ sandbox = true, exitCode = 0, output = 'ok 1 - passes' } = {}) {
  const ran = []
  const shell = {
    sandboxMode: sandbox ? 'workspace-write' : undefined,
    resolve: (r) => r,
    run: async (spec) => {
      ran.push(spec)
      return { exitCode, stdout: { text: output, truncated: false }, stderr: { text: '', truncated: false }, timedOut: false, aborted: false, sandbox: { mode: 'workspace-write', denied: false } }
    },
  }
  return { ran, ctx: { get: (name) => (name === 'shell' ? shell : undefined) } }
}

function repoWith(dir, files) {
  const r = join(dir, 'api')
  mkdirSync(r)
  git(r, 'init', '-q', '-b', 'main')
  for (const [f, text] of Object.entries(files)) writeFileSync(join(r, f), text)
  git(r, 'add', '-A')
  git(r, 'commit', '-q', '-m', 'init')
  return r
}

async function setup(t, files) {
  const dir = tempDir('chef-verify-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = repoWith(dir, files)
  const k = await ownerKitchen(root)
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, kitchen: k.kitchen }
}

const PKG = (test) => JSON.stringify({ name: 'api', scripts: { test } })

test('the base branch\'s test command runs in the clone, confined to it; a cook\'s rewrite of it is judged and refused', async (t) => {
  const { root, kitchen } = await setup(t, { 'package.json': PKG('node --test'), 'src.js': 'x\n' })
  await kitchen.dispatch({ project: 'api', title: 'Honest', brief: '@fake: commit=a.txt done' })
  await settled(kitchen, 'api-1')
  const r = await kitchen.result('api-1')
  const { ran, ctx } = fakeShell()
  const v = await verifyTask(ctx, kitchen, r, { timeoutMs: 5000 })
  assert.equal(ran.length, 1)
  const clone = join(root, 'worktrees', 'api-1')
  assert.equal(ran[0].command, 'npm run test')
  assert.equal(ran[0].workdir, clone)
  assert.deepEqual(ran[0].sandboxPolicy, { mode: 'workspace-write', workspaceRoot: clone })
  assert.match(v.lines[0], /^Verify: `npm run test` \(package\.json:1 on main\) in the clone .*api-1, confined to it, passed in \d+\.\d s\.$/)
  assert.deepEqual(v.verified, { ok: true, command: 'npm run test', exitCode: 0, outcome: 'passed' })

  // the task branch rewrites its test to delete what git tracks and the person's keys
  const evil = '@fake: sh=' + Buffer.from(`printf '%s' '${PKG('rm -rf src.js ~/.ssh && echo ok')}' > package.json && git add package.json && git commit -q -m "faster tests"`).toString('base64') + ' done'
  await kitchen.dispatch({ project: 'api', title: 'Hostile', brief: evil })
  await settled(kitchen, 'api-2')
  const r2 = await kitchen.result('api-2')
  const f2 = fakeShell()
  const v2 = await verifyTask(f2.ctx, kitchen, r2, { timeoutMs: 5000 })
  assert.equal(f2.ran.length, 0, 'nothing ran')
  assert.match(v2.lines[0], /^Verify: not run: issue\/api-2's own `npm run test` needs a person: `rm -rf src\.js ~\/\.ssh` deletes/)
})

test('a destructive test on the base branch is not run: it needs a person', async (t) => {
  const { kitchen } = await setup(t, { Makefile: 'test:\n\trm -rf src && echo ok\n', 'src': 'keep\n' })
  await kitchen.dispatch({ project: 'api', title: 't', brief: '@fake: commit=a.txt done' })
  await settled(kitchen, 'api-1')
  const { ran, ctx } = fakeShell()
  const v = await verifyTask(ctx, kitchen, await kitchen.result('api-1'), { timeoutMs: 5000 })
  assert.equal(ran.length, 0)
  assert.match(v.lines[0], /^Verify: not run: main's `make test` needs a person: `rm -rf src` deletes/)
})

test('uncommitted changes are reported, not verified as if committed; no sandbox, no run', async (t) => {
  const { kitchen } = await setup(t, { 'package.json': PKG('node --test') })
  await kitchen.dispatch({ project: 'api', title: 'Dirty', brief: '@fake: dirty=wip.txt done' })
  await settled(kitchen, 'api-1')
  const { ran, ctx } = fakeShell()
  const v = await verifyTask(ctx, kitchen, await kitchen.result('api-1'), { timeoutMs: 5000 })
  assert.equal(ran.length, 0)
  assert.match(v.lines[0], /^Verify: not run: the clone has uncommitted changes \(\?\? wip\.txt\); verify runs only on what is committed/)
  await kitchen.dispatch({ project: 'api', title: 'Clean', brief: '@fake: commit=c.txt done' })
  await settled(kitchen, 'api-2')
  const bare = fakeShell({ sandbox: false })
  const v2 = await verifyTask(bare.ctx, kitchen, await kitchen.result('api-2'), { timeoutMs: 5000 })
  assert.equal(bare.ran.length, 0)
  assert.match(v2.lines[0], /without a sandbox, so the test can't be confined to the clone/)
})

test('a named test command is the base branch\'s command of that name; a failing run shows its tail, escaped', async (t) => {
  const { kitchen } = await setup(t, { Makefile: 'test:\n\ttrue\n\ncheck:\n\ttrue\n' })
  await kitchen.dispatch({ project: 'api', title: 't', brief: '@fake: commit=a.txt done' })
  await settled(kitchen, 'api-1')
  const { ran, ctx } = fakeShell({ exitCode: 2, output: 'FAIL \x1b[31mred\x1b[0m\nmake: *** [check] Error 1' })
  const v = await verifyTask(ctx, kitchen, await kitchen.result('api-1'), { named: 'check', timeoutMs: 5000 })
  assert.equal(ran[0].command, 'make check')
  assert.match(v.lines[0], /`make check` \(Makefile:4 on main\).* failed \(exit 2\)/)
  assert.deepEqual(v.lines.slice(1), ['Output tail:', '  FAIL \\x1b[31mred\\x1b[0m', '  make: *** [check] Error 1'])
})
