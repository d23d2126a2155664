// One long-lived dsh session: a Makefile edited mid-session and a config change in the
// profile's patch layer both change the tool set the model sees, with no restart. The fake model
// drives it: it reads each request's tool list, makes the change, then keeps calling a cheap tool
// until the next request shows the new tool set.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT, dshAvailable, dshPlugin, makeHome, runDsh, startScriptedModel, toolNames, toolResults } from './harness.mjs'

const skip = dshAvailable()
const FIXTURE = join(REPO_ROOT, 'test/fixtures/plugin/repo')
let scratch

before(async () => { if (!skip) scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-live-')) })
after(async () => { if (scratch) await rm(scratch, { recursive: true, force: true }) })

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

test('editing the Makefile and the profile\'s patch layer mid-session changes the tools without a restart', { skip, timeout: 120_000 }, async (t) => {
  const home = await makeHome()
  t.after(home.cleanup)
  const added = await dshPlugin({ home, profile: 'headless', args: ['add', `file:${REPO_ROOT}`] })
  assert.equal(added.code, 0, added.stderr + added.stdout)
  const ws = await mkdtemp(join(scratch, 'ws-'))
  await cp(FIXTURE, ws, { recursive: true })
  // What the targets write is output, as a project's .gitignore says: `package` runs twice, and writing its file again does not ask.
  await writeFile(join(ws, '.gitignore'), 'build-stamp.txt\npackage.txt\n')
  const profilePatch = join(home.dshHome, 'profiles/headless/cordis.patch.yml')

  const seen = [] // [phase, request index] marks for the assertions
  let phase = 'start'
  let polls = 0
  const driver = async (request, index) => {
    const names = toolNames(request)
    const poll = async (why) => {
      if (++polls > 60) return { text: `gave up waiting for ${why}` }
      await pause(150)
      return { tool: names.includes('make_test') ? 'make_test' : 'recipe', args: names.includes('make_test') ? {} : { op: 'test' } }
    }
    switch (phase) {
      case 'start':
        seen.push(['start', index])
        await appendFile(join(ws, 'Makefile'), '\n## Package the app\npackage:\n\t@echo packaged > package.txt\n')
        phase = 'await-package'
        return { tool: 'make_build', args: {} }
      case 'await-package':
        if (!names.includes('make_package')) return poll('make_package')
        seen.push(['package-offered', index])
        phase = 'switch-exposure'
        return { tool: 'make_package', args: {} }
      case 'switch-exposure':
        seen.push(['package-ran', index])
        await writeFile(profilePatch, '- id: command-scout\n  config:\n    exposure: dispatcher\n')
        phase = 'await-dispatcher'
        return poll('the dispatcher')
      case 'await-dispatcher':
        if (!(names.includes('recipe') && !names.some((n) => n.startsWith('make_')))) {
          // dsh's launcher starts watching the profile's patch only after boot, and a change made
          // while its watcher is still starting goes unseen: write it again now and then.
          if (polls % 5 === 0) await writeFile(profilePatch, '- id: command-scout\n  config:\n    exposure: dispatcher\n')
          return poll('the dispatcher')
        }
        seen.push(['dispatcher-offered', index])
        phase = 'done'
        return { tool: 'recipe', args: { op: 'package' } }
      default:
        seen.push(['end', index])
        return { text: 'all done' }
    }
  }
  const model = await startScriptedModel(Array.from({ length: 80 }, () => driver))
  t.after(() => model.close())
  const r = await runDsh({ home, model, cwd: ws, timeoutMs: 100_000, args: ['--profile', 'headless', '--patch', home.deterministicPatch, 'package the app'] })
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout.trim(), 'all done', `phases: ${JSON.stringify(seen)}; last tools: ${toolNames(r.requests.at(-1)).join(',')}\nstderr:\n${r.stderr}`)
  const at = Object.fromEntries(seen)
  // before the edit: the fixture's targets only
  assert.ok(toolNames(r.requests[at.start]).includes('make_build'))
  assert.equal(toolNames(r.requests[at.start]).includes('make_package'), false)
  // after the edit: the new target is a tool, and it ran
  assert.ok(toolNames(r.requests[at['package-offered']]).includes('make_package'))
  assert.match(toolResults(r.requests[at['package-ran']]).at(-1).content, /^\$ make package\n\[exit code: 0\]/)
  assert.equal((await readFile(join(ws, 'package.txt'), 'utf8')).trim(), 'packaged')
  // after the patch-layer change: one dispatcher tool, and the edited Makefile's task through it
  assert.match(toolResults(r.requests[at.end]).at(-1).content, /^\$ make package\n\[exit code: 0\]/)
})
