// A verify the chef runs is recorded on its task as a `verified` log event, through the store, by the
// lease owner: chef_result's verify (verify.ts with dsh's shell seam as a fake that really runs the
// command) and the merge queue's test. The event holds when, by what, passed or not, the command
// (bounded, stored as the project names it), the tip it ran on and the exit code; a read-only
// kitchen refuses to write one.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { verifyTask } from '../../dist/src/chef/verify.js'
import { mergeTester } from '../../dist/src/chef/merge-test.js'
import { parseLogLine } from '../../dist/src/kitchen/domain.js'
import { openKitchen } from '../../dist/src/kitchen/index.js'
import { COOK_COMMAND, FAST_CONFIG, git, hostConfig, makeRepo, ownerKitchen, settled, tempDir, writeConfig } from './support.mjs'

/** dsh's shell seam with its sandbox mode, running each command for real. */
function shellCtx() {
  const shell = {
    sandboxMode: 'workspace-write',
    resolve: (r) => r,
    run: async (spec) => {
      const r = spawnSync('sh', ['-c', spec.command], { cwd: spec.workdir, encoding: 'utf8', timeout: spec.timeoutMs })
      return {
        exitCode: r.status, stdout: { text: r.stdout ?? '', truncated: false }, stderr: { text: r.stderr ?? '', truncated: false },
        timedOut: false, aborted: false, sandbox: { mode: 'workspace-write', denied: false },
      }
    },
  }
  return { get: (name) => (name === 'shell' ? shell : undefined) }
}

const verifiedOf = (root, id) => readFileSync(join(root, 'tasks', id, 'log.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => parseLogLine(l)).filter((e) => e?.type === 'verified')

async function setup(t, check) {
  const dir = tempDir('verified-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  writeFileSync(join(api, 'Makefile'), `## Check the work\ntest:\n\t${check}\n`)
  git(api, 'add', 'Makefile')
  git(api, 'commit', '-q', '-m', 'a test')
  const ctx = shellCtx()
  const k = await ownerKitchen(root, { mergeTest: mergeTester(ctx, () => 30_000) })
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { root, api, ctx, ...k }
}

test('chef_result\'s verify writes a verified event: passed, the command, the tip it ran on, the exit code', async (t) => {
  const { root, kitchen, ctx } = await setup(t, 'test -f done.txt')
  await kitchen.dispatch({ project: 'api', tasks: [
    { title: 'one', brief: '@fake: commit=done.txt done' },
    { title: 'two', brief: '@fake: commit=other.txt done' },
  ] })
  await settled(kitchen, 'api-1')
  await settled(kitchen, 'api-2')
  assert.deepEqual(verifiedOf(root, 'api-1'), [])

  const r1 = await kitchen.result('api-1')
  const before = Date.now()
  const v1 = await verifyTask(ctx, kitchen, r1, { timeoutMs: 30_000 })
  assert.equal(v1.verified?.ok, true, v1.lines.join('\n'))
  const [e1] = verifiedOf(root, 'api-1')
  const want = { type: 'verified', at: undefined, by: 'result', passed: true, command: 'make test', tip: r1.tipCommit, exitCode: 0 }
  assert.deepEqual({ ...e1, at: undefined }, want)
  assert.match(r1.tipCommit, /^[0-9a-f]{40}$/)
  assert.ok(e1.at >= before && e1.at <= Date.now())

  // the other task's work has no done.txt: its verify fails, recorded as failed with make's exit code
  const r2 = await kitchen.result('api-2')
  const v2 = await verifyTask(ctx, kitchen, r2, { timeoutMs: 30_000 })
  assert.equal(v2.verified?.ok, false)
  const [e2] = verifiedOf(root, 'api-2')
  assert.equal(e2.passed, false)
  assert.equal(e2.exitCode, 2)
  assert.equal(e2.tip, r2.tipCommit)
  assert.equal(verifiedOf(root, 'api-1').length, 1, 'the other task\'s log is untouched')
})

test('the merge queue\'s test is recorded too, by "merge", on the result it tested', async (t) => {
  const { root, api, kitchen } = await setup(t, 'test -f done.txt')
  await kitchen.dispatch({ project: 'api', title: 'one', brief: '@fake: commit=done.txt done' })
  await settled(kitchen, 'api-1')
  await kitchen.result('api-1')
  const r = await kitchen.merge(['api-1'])
  assert.match(r.text, /1 of 1 task landed|api-1 landed/, r.text)
  const [e] = verifiedOf(root, 'api-1')
  assert.equal(e.by, 'merge')
  assert.equal(e.passed, true)
  assert.equal(e.command, 'make test')
  assert.equal(e.tip, git(api, 'rev-parse', 'main').trim(), 'the tip tested is what main was fast-forwarded to')
})

test('the command is stored as given, cut to its bound; a read-only kitchen writes nothing', async (t) => {
  const { root, kitchen } = await setup(t, 'true')
  await kitchen.dispatch({ project: 'api', title: 'one', brief: '@fake: done' })
  await settled(kitchen, 'api-1')
  const hostile = `make \u001b[31mtest\u001b[0m "x" ${'y'.repeat(2000)}`
  await kitchen.recordVerified('api-1', { by: 'result', passed: false, command: hostile, tip: 'not a commit', exitCode: -1 })
  const [e] = verifiedOf(root, 'api-1')
  assert.equal(e.command, hostile.slice(0, 500), 'the escape stays as given in the log, cut to 500 characters')
  assert.equal(e.tip, undefined)
  assert.equal(e.exitCode, undefined)
  await assert.rejects(kitchen.recordVerified('nope-9', { by: 'result', passed: true, command: 'make test' }), /there is no task nope-9/)

  // a second kitchen on the same root while the owner holds the lease is read-only: no recordVerified
  const other = await openKitchen(root, { cookCommand: COOK_COMMAND, config: hostConfig(root) }, {})
  t.after(() => (other.kind === 'owner' ? other.kitchen.shutdown() : other.reader?.dispose?.()))
  assert.equal(other.kind, 'read-only')
  assert.ok(other.reader, 'a reader')
  assert.equal(typeof other.reader.recordVerified, 'undefined', 'a reader has no way to record one')
  assert.equal(verifiedOf(root, 'api-1').length, 1)
})
