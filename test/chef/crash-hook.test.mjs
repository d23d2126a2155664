// The kitchen's crash hook for chaos tests (src/chef/crash-hook.ts): off unless its variable is set;
// then it SIGKILLs the process at the point its file names, after the given number of passes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { crashHook, CRASH_FILE_ENV } from '../../dist/src/chef/crash-hook.js'

const HOOK = pathToFileURL(join(import.meta.dirname, '../../dist/src/chef/crash-hook.js')).href

/** Run the hook in a child over `points`; it prints each point it passed. */
function runHook(file, points) {
  const code = `const { crashHook } = await import(${JSON.stringify(HOOK)}); const f = crashHook(); for (const p of ${JSON.stringify(points)}) { f(p); console.log(p) }`
  return spawnSync(process.execPath, ['--input-type=module', '-e', code], { env: { ...process.env, [CRASH_FILE_ENV]: file }, encoding: 'utf8' })
}

test('the crash hook is off without its variable', () => {
  assert.equal(crashHook({}), undefined)
})

test('the crash hook SIGKILLs at the named point after its passes, and does nothing unarmed', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-crash-hook-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'crash')
  const unarmed = runHook(file, ['tick:read', 'send:written'])
  assert.equal(unarmed.status, 0)
  assert.deepEqual(unarmed.stdout.trim().split('\n'), ['tick:read', 'send:written'])
  writeFileSync(file, 'launch:claimed 1\n')
  const r = runHook(file, ['tick:read', 'launch:claimed', 'tick:read', 'launch:claimed', 'launch:spawned'])
  assert.equal(r.signal, 'SIGKILL')
  assert.deepEqual(r.stdout.trim().split('\n'), ['tick:read', 'launch:claimed', 'tick:read'])
})
