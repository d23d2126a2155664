// What the chef sees before it merges, with the kitchen's real code, real git and the fake cook: the
// open tasks that change the same files (in each wake and in a dispatch's answer), and result's diff
// of a branch against its base, bounded, escaped, with the way to the rest.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DIFF_LINES } from '../../dist/src/kitchen/index.js'
import { FAST_CONFIG, git, makeRepo, ownerKitchen, settled, tempDir, until, writeConfig } from './support.mjs'

async function setup(t) {
  const dir = tempDir('merge-seen-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const k = await ownerKitchen(root)
  t.after(() => k.kitchen.shutdown())
  await k.kitchen.addProject({ path: api })
  return { dir, root, api, ...k }
}

const OVERLAP = /^- Tasks api-1 and api-2 both change shared\.txt: merge one, then the other will need a rebase\.$/m

test('open tasks that change the same file are named in the wake and in the next dispatch\'s answer; one apart is not', async (t) => {
  const { kitchen, wakes } = await setup(t)
  await kitchen.dispatch({ project: 'api', tasks: [
    { title: 'one', brief: '@fake: commit=shared.txt done' },
    { title: 'two', brief: '@fake: commit=shared.txt commit=two.txt done' },
    { title: 'apart', brief: '@fake: commit=apart.txt done' },
  ] })
  for (const id of ['api-1', 'api-2', 'api-3']) await settled(kitchen, id)
  // read from the cooks' clones: nothing was brought back into the project yet
  const wake = await until(() => wakes.find((w) => OVERLAP.test(w.text)), 'a wake naming the overlap')
  assert.match(wake.text, /\nOverlapping changes:\n- Tasks api-1 and api-2 both change shared\.txt/)
  assert.doesNotMatch(wake.text, /api-3 .*both change|and api-3 both/)
  const d = await kitchen.dispatch({ project: 'api', title: 'four', brief: '@fake: done' })
  assert.match(d.text, /^api-4 is cooking on branch issue\/api-4/)
  assert.match(d.text, OVERLAP)
  // once one of them is closed, the pair is no longer open
  await kitchen.close('api-1', { discard: true })
  await settled(kitchen, 'api-4')
  const later = await kitchen.dispatch({ project: 'api', title: 'five', brief: '@fake: done' })
  assert.doesNotMatch(later.text, /both change/)
})

test(`result's diff shows the first ${DIFF_LINES} lines, escaped, then how many more and where to see them all`, async (t) => {
  const { root, api, kitchen } = await setup(t)
  // 500 lines, one with an escape sequence a terminal would act on
  const script = 'seq 1 499 > big.txt && printf "\\033]52;c;aGk=\\007 evil\\n" >> big.txt && git add big.txt && git commit -q -m big'
  await kitchen.dispatch({ project: 'api', title: 'big', brief: `@fake: sh=${Buffer.from(script).toString('base64')} done` })
  await settled(kitchen, 'api-1')
  // before the branch is brought back, the diff is the clone's
  const early = await kitchen.diff('api-1')
  assert.match(early[0], /^Diff of issue\/api-1 against main \(git diff main\.\.\.issue\/api-1, read from the cook's clone\), \d+ lines:$/)
  await kitchen.result('api-1')
  const lines = await kitchen.diff('api-1')
  const total = git(api, 'diff', 'main...issue/api-1').trimEnd().split('\n').length
  assert.equal(lines[0], `Diff of issue/api-1 against main (git diff main...issue/api-1), ${total} lines:`)
  assert.equal(lines.length, 1 + DIFF_LINES + 1)
  assert.equal(lines[1], '  diff --git a/big.txt b/big.txt')
  assert.ok(lines.slice(1, -1).every((l) => l.startsWith('  ')), 'every diff line is indented under the kitchen\'s')
  assert.equal(lines.at(-1), `… ${total - DIFF_LINES} more lines. The whole diff: command-scout serve --kitchen ${root}, then /kitchen/tasks/api-1; or git -C ${api} diff main...issue/api-1`)
  // the whole of it, asked for: the escape is shown, never sent
  const all = await kitchen.diff('api-1', 1000)
  assert.equal(all.length, 1 + total)
  assert.ok(all.includes('  +\\x1b]52;c;aGk=\\x07 evil'), all.slice(-3).join('\n'))
  assert.ok(!all.some((l) => l.includes('\x1b')))
})
