// A kitchen on a real small file system: a disk that fills up half-way through a batch, and a disk
// that is read-only. Needs to mount a tmpfs (root, or a system that lets the test mount); skipped
// with the reason otherwise. The same cases run everywhere through injected write failures
// (trust.test.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openKitchen } from '../../dist/src/kitchen/index.js'
import { COOK_COMMAND, FAST_CONFIG, diskDir, hostConfig, makeRepo, settled, writeConfig } from './support.mjs'

function canMount() {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'mounting a tmpfs needs root on Linux'
  const probe = diskDir('kitchen-mount-probe-')
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('umount', [probe], { stdio: 'ignore' })
    return false
  } catch {
    return 'this system does not let the test mount a tmpfs'
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}
const skip = canMount()

/** A kitchen root on its own tmpfs of `size`, unmounted after the test. */
function smallDisk(t, size) {
  const dir = diskDir('kitchen-small-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', root])
  t.after(() => {
    try {
      execFileSync('umount', [root], { stdio: 'ignore' })
    } catch {
      execFileSync('umount', ['-l', root], { stdio: 'ignore' })
    }
  })
  return { dir, root }
}

const owner = async (root) => {
  const o = await openKitchen(root, { cookCommand: COOK_COMMAND, config: hostConfig(root), tickMs: 0 })
  assert.equal(o.kind, 'owner')
  return o.kitchen
}

test('a disk that fills up half-way through a batch: nothing is created, the answer says why; after space frees, the same batch creates each task once', { skip }, async (t) => {
  const { dir, root } = smallDisk(t, '1m')
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const k = await owner(root)
  t.after(() => k.shutdown())
  await k.addProject({ path: api })
  // Fill the disk but for about 100 KB: the first task's task.json (a 60 KB brief) fits, the second's does not.
  const filler = join(root, 'filler')
  const free = () => Number(execFileSync('df', ['--output=avail', '-B1', root], { encoding: 'utf8' }).trim().split('\n')[1])
  writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 100 * 1024)))
  const brief = `@fake: done\n${'x'.repeat(60 * 1024)}`
  const batch = { project: 'api', tasks: [{ title: 'one', brief }, { title: 'two', brief }, { title: 'three', brief }] }
  await assert.rejects(k.dispatch(batch), (e) => {
    assert.equal(e.code, 'KITCHEN_DISPATCH_FAILED', e.message)
    assert.match(e.message, /^Nothing was dispatched: ENOSPC: no space left on device/)
    return true
  })
  assert.deepEqual(readdirSync(join(root, 'tasks')), [], 'no orphan folder')
  // a message to nobody and a second try while still full: refused cleanly again, nothing lost
  await assert.rejects(k.dispatch(batch), /Nothing was dispatched/)
  rmSync(filler)
  const d = await k.dispatch(batch)
  assert.deepEqual(d.tasks.map((x) => x.task), ['api-1', 'api-2', 'api-3'])
  assert.deepEqual((await k.dispatch(batch)).tasks.map((x) => x.again), [true, true, true])
  for (const id of ['api-1', 'api-2', 'api-3']) await settled(k, id)
})

test('a read-only disk: the kitchen opens read-only and its board, views and results read', { skip }, async (t) => {
  const { dir, root } = smallDisk(t, '4m')
  writeConfig(root, FAST_CONFIG)
  const api = makeRepo(dir, 'api')
  const k = await owner(root)
  await k.addProject({ path: api })
  await k.dispatch({ project: 'api', title: 'Before the disk went read-only', brief: '@fake: commit=a.txt done=ok' })
  await settled(k, 'api-1')
  await k.result('api-1')
  await k.shutdown()
  execFileSync('mount', ['-o', 'remount,ro', root])
  try {
    const o = await openKitchen(root, { cookCommand: COOK_COMMAND, tickMs: 0 })
    assert.equal(o.kind, 'read-only')
    assert.match(o.reason, /EROFS|read-only/i)
    assert.match(await o.reader.board(), /api-1 "Before the disk went read-only" done: ok/)
    assert.match((await o.reader.result('api-1')).text, /1 commit ahead of main/)
    assert.equal(await o.reader.tick(), undefined)
    o.reader.dispose()
  } finally {
    execFileSync('mount', ['-o', 'remount,rw', root])
  }
})
