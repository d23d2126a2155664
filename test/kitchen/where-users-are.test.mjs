// Where users are: the project and the kitchen on a real disk (not the system temp directory, which
// the harness's sandbox lets every tool write), each cook's shell commands confined by the harness's
// own sandbox launcher as dsh confines its bash tool (the clone writable, /tmp, nothing else). A cook
// commits in its clone and the kitchen brings the commit back; a hostile cook can reach nothing of
// the project, another task or the kitchen. The temp directory runs the same honest flow as well.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FAST_CONFIG, PLACES, git, makeRepo, ownerKitchen, sandboxLauncher, settled, until, writeConfig } from './support.mjs'

const launcher = sandboxLauncher()
const skip = launcher ? false : 'the harness\'s sandbox launcher (Landlock) is not installed or does not enforce here: run npm test, whose setup installs dsh'
const b64 = (text) => Buffer.from(text).toString('base64')

async function setup(t, where) {
  const dir = where()
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const k = await ownerKitchen(root, { cookEnv: { FAKE_COOK_SANDBOX: launcher } })
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, ...k }
}

const shOut = (root, id, n) => JSON.parse(readFileSync(join(root, 'tasks', id, 'session', `sh-${n}.json`), 'utf8'))

for (const [place, where] of PLACES) {
  test(`${place}: a confined cook commits in its clone; result brings the commit back; close after the merge lands it`, { skip }, async (t) => {
    const { root, api, kitchen } = await setup(t, where)
    await kitchen.dispatch({ project: 'api', title: 'Add a.txt', brief: '@fake: commit=a.txt done=wrote_a' })
    const v = await settled(kitchen, 'api-1')
    assert.deepEqual(v.state.outcome, { kind: 'done', summary: 'wrote a', reported: true })
    const r = await kitchen.result('api-1')
    const head = git(api, 'log', '-1', '--format=%h %s', 'issue/api-1').trim()
    assert.equal(head.endsWith('add a.txt'), true, head)
    assert.match(r.text, /^Branch issue\/api-1 at [0-9a-f]{10}: 1 commit ahead of main, not landed\.$/m)
    assert.ok(r.text.includes(`  ${head}`), r.text)
    assert.match(r.text, /^Clone .*worktrees\/api-1: clean, on issue\/api-1\.$/m)
    // the project's checkout never saw the cook: only the branch came in
    assert.equal(git(api, 'status', '--porcelain').trim(), '')
    await assert.rejects(kitchen.close('api-1'), /1 commit on neither main nor a remote-tracking branch/)
    git(api, 'merge', '-q', '--ff-only', 'issue/api-1')
    const c = await kitchen.close('api-1')
    assert.match(c.text, /^Closed api-1: clone removed, branch issue\/api-1 deleted\.$/)
    assert.ok(!existsSync(join(root, 'worktrees', 'api-1')))
    assert.equal(git(api, 'show', 'main:a.txt').includes('a.txt from run of'), true)
  })
}

test('disk: a hostile confined cook reaches nothing: not another task\'s branch or clone, not main, not the kitchen', { skip }, async (t) => {
  const { root, api, kitchen, wakes } = await setup(t, PLACES[1][1])
  // api-1 is honest and done; its branch is back in the project
  await kitchen.dispatch({ project: 'api', title: 'Honest', brief: '@fake: commit=honest.txt done=honest' })
  await settled(kitchen, 'api-1')
  const before = await kitchen.result('api-1')
  const honestTip = git(api, 'rev-parse', 'issue/api-1').trim()
  const mainTip = git(api, 'rev-parse', 'main').trim()
  const clone1 = join(root, 'worktrees', 'api-1')
  const attacks = [
    // rewind the other task's branch to main, and reset its clone
    `git -C ${api} update-ref refs/heads/issue/api-1 ${mainTip}`,
    `git -C ${clone1} reset -q --hard main`,
    // fast-forward main to its own commit
    `git commit -q --allow-empty -m mine && git -C ${api} update-ref refs/heads/main $(git rev-parse HEAD)`,
    // a commit right in the person's checkout
    `echo x > ${api}/planted.txt && git -C ${api} add planted.txt && git -C ${api} commit -q -m planted`,
    // the kitchen's own files
    `echo '{"maxCooks": 99}' > ${root}/config.json`,
    `: > ${root}/tasks/api-1/runs/9.jsonl`,
    `rm -rf ${root}/lease`,
    `echo '{}' > ${root}/projects/api.json`,
  ]
  const brief = `@fake: ${attacks.map((a) => `sh=${b64(a)}`).join(' ')} done=all_good`
  await kitchen.dispatch({ project: 'api', title: 'Hostile', brief })
  await settled(kitchen, 'api-2')
  for (let n = 1; n <= attacks.length; n++) {
    const r = shOut(root, 'api-2', n)
    // the first step of the third attack (a commit in its own clone) is allowed; the update-ref is not
    assert.notEqual(r.code, 0, `attack ${n} was allowed: ${r.command}\n${r.output}`)
    assert.match(r.output, /Permission denied|Read-only|Operation not permitted|cannot|unable|fatal/i, r.output)
  }
  assert.equal(git(api, 'rev-parse', 'issue/api-1').trim(), honestTip)
  assert.equal(git(api, 'rev-parse', 'main').trim(), mainTip)
  assert.equal(git(api, 'status', '--porcelain').trim(), '')
  assert.ok(existsSync(join(root, 'lease')))
  assert.ok(!existsSync(join(root, 'tasks', 'api-1', 'runs', '9.jsonl')))
  assert.equal(git(clone1, 'rev-parse', 'HEAD').trim(), honestTip)
  const after = await kitchen.result('api-1')
  assert.equal(after.tipCommit, before.tipCommit)
  assert.match(after.text, /1 commit ahead of main, not landed/)
  // the hostile cook's own clone has its own commit; the kitchen brings only that branch back
  const r2 = await kitchen.result('api-2')
  assert.match(r2.text, /1 commit ahead of main/)
  assert.equal(readdirSync(join(root, 'tasks', 'api-1', 'runs')).filter((n) => n.endsWith('.jsonl')).length, 1)
  await until(() => wakes.flatMap((w) => w.runs).length >= 2, 'both wakes')
})
