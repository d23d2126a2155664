// The three ways in, end to end in the real dsh against a fake model: the packed bundle, a
// file: directory, and a --patch overlay with no packaging. Each headless run must offer the
// discovered tools in its first model request.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  COLLECTOR_ROWS,
  REPO_ROOT, dshAvailable, dshPlugin, makeHome, packPackage, run, runDsh, startScriptedModel,
  toolNames, toolResults,
} from './harness.mjs'

const skip = dshAvailable()
const FIXTURE = join(REPO_ROOT, 'test/fixtures/plugin/repo')
const MAKE_TOOLS = ['make_build', 'make_clean', 'make_deploy', 'make_slow', 'make_test']
let scratch
let tarball

before(async () => {
  if (skip) return
  scratch = await mkdtemp(join(tmpdir(), 'cs-e2e-install-'))
  tarball = await packPackage(scratch)
})
after(async () => { if (scratch) await rm(scratch, { recursive: true, force: true }) })

async function workspace() {
  const dir = await mkdtemp(join(scratch, 'ws-'))
  await cp(FIXTURE, dir, { recursive: true })
  return dir
}

/** A headless run whose model calls make_build once; returns the run. */
async function buildRun(home, extraArgs = []) {
  const ws = await workspace()
  const model = await startScriptedModel([{ tool: 'make_build', args: { args: ['VERSION=7.0'] } }, { text: 'built' }])
  try {
    const r = await runDsh({ home, model, cwd: ws, args: ['--profile', 'headless', '--patch', home.deterministicPatch, ...extraArgs, 'build the project'] })
    return { ...r, ws }
  } finally {
    await model.close()
  }
}

function assertBuilt(r) {
  assert.equal(r.code, 0, r.stderr)
  const names = toolNames(r.requests[0])
  for (const tool of MAKE_TOOLS) assert.ok(names.includes(tool), `${tool} is offered (got ${names.join(', ')})`)
  assert.ok(names.includes('bash'), 'the built-in tools are there too')
  const [result] = toolResults(r.requests[1])
  assert.ok(result, 'the tool result reached the next request')
  assert.match(result.content, /^\$ make build VERSION=7\.0\n\[exit code: 0\]/)
  assert.equal(r.stdout.trim(), 'built')
}

test('bundle: `dsh plugin --profile P add <packed .tgz>` puts the layer in the profile and the tools in a run', { skip }, async (t) => {
  const home = await makeHome()
  t.after(home.cleanup)
  const added = await dshPlugin({ home, profile: 'headless', args: ['add', tarball] })
  assert.equal(added.code, 0, added.stderr + added.stdout)
  const profile = JSON.parse(await readFile(join(home.dshHome, 'profiles/headless/package.json'), 'utf8'))
  assert.deepEqual(profile.dsh.profile.bundles, ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless', 'dsh-command-scout'])
  const dump = await runDsh({ home, args: ['--profile', 'headless', '--dump-config'], cwd: scratch })
  assert.equal(dump.code, 0, dump.stderr)
  assert.match(dump.stdout, /# == dsh-command-scout\n- id: command-scout\n  name: dsh-command-scout\/adapter\n/)
  for (const c of COLLECTOR_ROWS) {
    assert.match(dump.stdout, new RegExp(`- id: command-scout-${c}\\n  name: dsh-command-scout/collectors/${c}\\n`))
  }
  const r = await buildRun(home)
  assertBuilt(r)
  assert.equal((await readFile(join(r.ws, 'build-stamp.txt'), 'utf8')).trim(), 'building 7.0')
})

test('bundle: `dsh plugin --profile P add file:<dir>` installs the checkout the same way', { skip }, async (t) => {
  const home = await makeHome()
  t.after(home.cleanup)
  const added = await dshPlugin({ home, profile: 'headless', args: ['add', `file:${REPO_ROOT}`] })
  assert.equal(added.code, 0, added.stderr + added.stdout)
  const dump = await runDsh({ home, args: ['--profile', 'headless', '--dump-config'], cwd: scratch })
  assert.match(dump.stdout, /# == dsh-command-scout\n/)
  assertBuilt(await buildRun(home))
})

/**
 * A checkout as a user has it after `npm install --omit=dev` and a build: the packed files, and
 * runtime dependencies linked from this checkout's node_modules (the versions an install would
 * fetch), without any @deepseek-ai package of its own.
 */
async function productionCheckout() {
  const checkout = join(scratch, 'checkout')
  if (existsSync(checkout)) return checkout
  await mkdir(checkout)
  const unpack = await run('tar', ['xzf', tarball, '-C', checkout, '--strip-components=1'])
  assert.equal(unpack.code, 0, unpack.stderr)
  await mkdir(join(checkout, 'node_modules'))
  for (const name of await readdir(join(REPO_ROOT, 'node_modules'))) {
    if (name === '@deepseek-ai' || name.startsWith('.')) continue
    await symlink(join(REPO_ROOT, 'node_modules', name), join(checkout, 'node_modules', name))
  }
  return checkout
}

test('overlay: `dsh --patch overlay.yml` loads the checkout in place, sharing the harness\'s packages', { skip }, async (t) => {
  const home = await makeHome()
  t.after(home.cleanup)
  const checkout = await productionCheckout()
  // Naming the plain module fails there: its @deepseek-ai imports resolve from the checkout.
  const naive = join(scratch, 'naive.yml')
  await writeFile(naive, `- insert:\n    - id: command-scout\n      name: '${join(checkout, 'dist/src/dsh/adapter.js')}'\n`)
  const broken = await buildRun(home, ['--patch', naive])
  assert.notEqual(broken.code, 0)
  assert.match(broken.stderr, /plugin tree failed to load/)
  // The overlay the README tells people to make: `command-scout dsh overlay`, from the checkout itself.
  const overlay = join(scratch, 'command-scout-patch.yml')
  const made = await run(process.execPath, [join(checkout, 'bin/command-scout'), 'dsh', 'overlay', '--output', overlay], { cwd: scratch })
  assert.equal(made.code, 0, made.stderr)
  const text = await readFile(overlay, 'utf8')
  // Every row of the bundle's own layer, each naming an absolute file of this checkout.
  const rows = [...(await readFile(join(checkout, 'cordis.patch.yml'), 'utf8')).matchAll(/^ {4}- id: (\S+)$/gm)].map((m) => m[1])
  assert.ok(rows.length >= 8, rows.join(', '))
  const names = [...text.matchAll(/^ {6}name: (\S+)$/gm)].map((m) => m[1])
  assert.equal(names.length, rows.length, text)
  for (const name of names) assert.ok(name.startsWith(`${checkout}/dist/`) && existsSync(name), name)
  // The README's claim: --dump-config shows the overlay as its own layer, every row in it.
  const dump = await runDsh({ home, args: ['--profile', 'headless', '--patch', overlay, '--dump-config'], cwd: scratch })
  assert.equal(dump.code, 0, dump.stderr)
  const layer = dump.stdout.slice(dump.stdout.indexOf(`# == ${overlay}\n`))
  assert.match(layer, new RegExp(`^# == ${overlay.replace(/[.]/g, '\\.')}\\n- id: command-scout\\n`))
  for (const id of rows) assert.match(layer, new RegExp(`^- id: ${id}\\n`, 'm'), id)
  // The harness entries resolve @deepseek-ai/* from the running harness.
  assertBuilt(await buildRun(home, ['--patch', overlay]))
})

test('bundle: `dsh plugin --profile P add ./checkout` (pnpm links it) also shares the harness\'s packages', { skip }, async (t) => {
  const home = await makeHome()
  t.after(home.cleanup)
  const checkout = await productionCheckout()
  const added = await dshPlugin({ home, profile: 'headless', args: ['add', './checkout'], cwd: scratch })
  assert.equal(added.code, 0, added.stderr + added.stdout)
  const profile = JSON.parse(await readFile(join(home.dshHome, 'profiles/headless/package.json'), 'utf8'))
  assert.equal(profile.dependencies['dsh-command-scout'], `link:${checkout}`)
  assertBuilt(await buildRun(home))
})
