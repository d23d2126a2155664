// The board shows a task's verify result as the kitchen recorded it (its last `verified` event):
// before any verify the row says none; after the chef's verify passed (verify.ts with dsh's shell
// seam as a fake that really runs the command) the API's row and the task's log carry it, valid
// against the served document, and the board's page shows it, the command escaped.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { settled, until } from '../kitchen/support.mjs'
import { verifyTask } from '../../dist/src/chef/verify.js'
import { kitchenWorld, makeRepo } from './kitchen-support.mjs'

const require = createRequire(import.meta.url)
const Ajv2020 = require('ajv/dist/2020.js').default

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

test('the verify column and the task\'s log show the verify the chef ran', async (t) => {
  const w = await kitchenWorld(t, { prefix: 'serve-kitchen-verify-' })
  const repo = makeRepo(w.repos, 'api')
  writeFileSync(join(repo, 'Makefile'), '## Check the work\ntest:\n\ttest -f done.txt\n')
  execFileSync('git', ['add', 'Makefile'], { cwd: repo })
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'a test'], { cwd: repo })
  await w.kitchen.addProject({ path: repo })
  await w.kitchen.dispatch({ project: 'api', title: 'one', brief: '@fake: commit=done.txt done' })
  await settled(w.kitchen, 'api-1')

  const doc = await (await fetch(`${w.url}api/v1/openapi.json`)).json()
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema({ $id: 'doc', components: doc.components })
  const rowOf = async () => (await (await fetch(`${w.url}api/v1/kitchen/tasks`)).json()).tasks.find((r) => r.id === 'api-1')
  assert.equal((await rowOf()).verify, null)

  const r = await w.kitchen.result('api-1')
  const before = Date.now()
  const v = await verifyTask(shellCtx(), w.kitchen, r, { timeoutMs: 30_000 })
  assert.equal(v.verified?.ok, true, v.lines.join('\n'))

  const row = await until(async () => { const x = await rowOf(); return x?.verify && x }, 'the verify in the row')
  assert.equal(row.verify.passed, true)
  assert.equal(row.verify.command, 'make test')
  assert.ok(row.verify.at >= before && row.verify.at <= Date.now())

  const oneRes = await fetch(`${w.url}api/v1/kitchen/tasks/api-1`)
  const one = await oneRes.json()
  const paths = Object.entries(doc.paths).find(([p]) => p.endsWith('/tasks/{id}'))
  const ref = `doc${paths[1].get.responses['200'].content['application/json'].schema.$ref}`
  const validate = ajv.compile({ $ref: ref })
  assert.ok(validate(one), ajv.errorsText(validate.errors))
  assert.equal(one.task.verify.passed, true)
  assert.ok(one.log.some((e) => e.type === 'verified' && /^verified: `make test` passed at [0-9a-f]{10}$/.test(e.text)), JSON.stringify(one.log))

  const page = await (await fetch(`${w.url}kitchen`)).text()
  assert.match(page, /<span class="verify verify-passed">passed<\/span> <code>make test<\/code>/)
})
