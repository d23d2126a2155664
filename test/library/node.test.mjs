// The node recipes, run for real with npm against a registry this test serves on 127.0.0.1
// (fake-registry.mjs): install, ci, explain, outdated, audit and cache all work without other network.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdir, writeFile, readFile, access, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { render, runRecipe, sh, tempDir, assertBashSyntax } from './harness.mjs'
import { startRegistry } from './fake-registry.mjs'

const exists = (p) => access(p).then(() => true, () => false)
let registry
let registryDir

const PACKAGES = [
  { name: 'left', version: '1.0.0' }, { name: 'left', version: '2.0.0' },
  { name: 'mid', version: '1.0.0', dependencies: { tiny: '^1.0.0' } },
  { name: 'tiny', version: '1.1.0' },
]
const ADVISORIES = { tiny: [{ id: 4242, title: 'Prototype pollution in tiny', severity: 'high', vulnerable_versions: '<2.0.0' }] }

before(async () => {
  registryDir = (await sh('mktemp -d')).stdout.trim()
  registry = await startRegistry(registryDir, PACKAGES, ADVISORIES)
  await installTemplate()
})
after(async () => {
  await registry?.close()
  if (registryDir) await rm(registryDir, { recursive: true, force: true })
})

/** npm settings that keep each test to its own cache and to the local registry. */
function npmEnv(dir) {
  return {
    npm_config_registry: registry.url, npm_config_cache: join(dir, 'npm-cache'), npm_config_userconfig: join(dir, 'no-npmrc'),
    npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error',
  }
}

/** The installed app every test starts from: app/ (left@^1 and mid, which pulls in tiny) and its npm-cache/. */
let template

async function installTemplate() {
  template = join(registryDir, 'template')
  await mkdir(join(template, 'app'), { recursive: true })
  await writeFile(join(template, 'app/package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { left: '^1.0.0', mid: '1.0.0' } }, null, 2))
  const r = await sh('npm install --no-audit', { cwd: join(template, 'app'), env: npmEnv(template) })
  assert.equal(r.code, 0, r.stderr)
}

/** A copy of the installed app (or, with install: false, just its package.json) in a fresh directory. */
async function app(t, { install = true } = {}) {
  const dir = await tempDir(t, 'scout-node-')
  const cwd = join(dir, 'app')
  const env = npmEnv(dir)
  if (install) {
    const r = await sh(`cp -a '${template}/app' '${template}/npm-cache' '${dir}/'`)
    assert.equal(r.code, 0, r.stderr)
  } else {
    await mkdir(cwd)
    await writeFile(join(cwd, 'package.json'), await readFile(join(template, 'app/package.json')))
  }
  return { dir, cwd, env }
}

describe('node recipes', { concurrency: true }, () => {
  test('node.reinstall_node_modules rebuilds a damaged tree exactly from the lockfile', async (t) => {
    const { cwd, env } = await app(t)
    await rm(join(cwd, 'node_modules/tiny'), { recursive: true })
    await rm(join(cwd, 'node_modules/left/index.js'))
    await mkdir(join(cwd, 'node_modules/stray'))
    await writeFile(join(cwd, 'node_modules/stray/package.json'), '{"name":"stray","version":"0.0.1"}')
    assert.notEqual((await sh('npm ls --all', { cwd, env })).code, 0, 'the damaged tree fails npm ls')
    const r = render('node.reinstall_node_modules')
    assertBashSyntax(r)
    assert.equal(r.undo.possible, false)
    const { verified } = await runRecipe(r, { cwd, env })
    assert.equal(verified.trim(), 'dependency tree complete')
    assert.equal(await readFile(join(cwd, 'node_modules/left/index.js'), 'utf8'), 'module.exports = "left@1.0.0"\n')
    assert.equal(await exists(join(cwd, 'node_modules/tiny/package.json')), true)
    assert.equal(await exists(join(cwd, 'node_modules/stray')), false)
  })

  test('node.explain_why_package_installed shows the chain that brings in a transitive package', async (t) => {
    const { cwd, env } = await app(t)
    const r = render('node.explain_why_package_installed', { package: 'tiny' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env })
    assert.match(steps[0].stdout, /tiny@"\^1\.0\.0" from mid@1\.0\.0/)
    assert.match(steps[0].stdout, /mid@"1\.0\.0" from the root project/)
    assert.match(steps[1].stdout, /mid@1\.0\.0\n\s+[└`]-- tiny@1\.1\.0/)
    assert.equal(verified.trim(), join(cwd, 'node_modules/tiny'))
  })

  test('node.list_outdated_packages reports the newer major version (exit 1 is its answer)', async (t) => {
    const { cwd, env } = await app(t)
    const r = render('node.list_outdated_packages')
    assertBashSyntax(r)
    const { out, verified } = await runRecipe(r, { cwd, env, stepExits: [[1]], verifyExits: [[1]] })
    assert.match(out, /^left\s+1\.0\.0\s+1\.0\.0\s+2\.0\.0\s+node_modules\/left\s+app\s+dependencies/m)
    assert.doesNotMatch(out, /^(mid|tiny)\s/m)
    const json = JSON.parse(verified)
    assert.deepEqual(Object.keys(json), ['left'])
    assert.equal(json.left.latest, '2.0.0')
  })

  test('node.clear_npm_cache empties the cache', async (t) => {
    const { cwd, env } = await app(t)
    assert.match((await sh('npm cache ls', { cwd, env })).stdout, /tiny-1\.1\.0\.tgz/, 'the install filled the cache')
    const r = render('node.clear_npm_cache')
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env })
    assert.match(steps[0].stdout, /npm-cache$/m)
    assert.equal(verified.trim(), '')
    assert.equal(await exists(join(env.npm_config_cache, '_cacache/index-v5')), false)
  })

  test('node.audit_vulnerable_packages reports the advisory and fails at its level only', async (t) => {
    const { cwd, env } = await app(t)
    const r = render('node.audit_vulnerable_packages', { level: 'high' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env, stepExits: [[1], [1]], verifyExits: [[1]] })
    assert.match(steps[0].stdout, /Prototype pollution in tiny/)
    assert.match(steps[0].stdout, /Depends on vulnerable versions of tiny/)
    assert.equal(JSON.parse(verified).metadata.vulnerabilities.high, 2)
    const critical = render('node.audit_vulnerable_packages', { level: 'critical' })
    assert.equal((await sh(critical.commands[1].command, { cwd, env })).code, 0, 'no critical advisory, so the gate passes')
    assert.ok(registry.requests.some((q) => q.startsWith('POST /-/npm/v1/security/advisories/bulk')))
  })

  test('node.switch_node_version: syntax only, nvm is not installed and would download Node from nodejs.org', async (t) => {
    const r = render('node.switch_node_version', { version: '18.20' })
    assertBashSyntax(r)
    assert.deepEqual(r.commands.slice(1, 3).map((c) => c.command.replace(/'/g, '')), ['nvm install 18.20', 'nvm use 18.20'])
    const nvm = await sh('[ -s "${NVM_DIR:-$HOME/.nvm}/nvm.sh" ]')
    t.skip(nvm.code === 0 ? 'nvm is installed, but switching would download Node from nodejs.org, which tests never reach' : 'nvm is not installed here (and nodejs.org is not reachable); syntax checked with bash -n')
  })

  test('node.find_unused_dependencies lists exactly the packages no source file imports', async (t) => {
    const { cwd, env } = await app(t, { install: false })
    await writeFile(join(cwd, 'package.json'), JSON.stringify({
      name: 'app', version: '1.0.0',
      dependencies: { left: '1', lef: '1', mid: '1', tiny: '1', '@scope/x': '1' },
      devDependencies: { tester: '1', linter: '1' },
    }))
    await mkdir(join(cwd, 'src/lib'), { recursive: true })
    await writeFile(join(cwd, 'src/index.js'), "import left from 'left'\n")
    await writeFile(join(cwd, 'src/lib/b.cjs'), 'const sub = require("mid/sub")\n')
    await writeFile(join(cwd, 'src/lib/c.ts'), "export { x } from '@scope/x'\n")
    await writeFile(join(cwd, 'src/notes.md'), "tiny is mentioned 'tiny' only in docs\n")
    await mkdir(join(cwd, 'test'))
    await writeFile(join(cwd, 'test/a.test.mjs'), "import t from 'tester'\n")
    const r = render('node.find_unused_dependencies', {})
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env })
    assert.deepEqual(steps[0].stdout.trim().split('\n'), ['left', 'lef', 'mid', 'tiny', '@scope/x'])
    assert.deepEqual(steps[1].stdout.trim().split('\n'), ['lef', 'tiny'])
    assert.equal(verified.trim(), '2')
    const dev = render('node.find_unused_dependencies', { field: 'devDependencies', src_dir: 'test' })
    const { steps: devSteps } = await runRecipe(dev, { cwd, env })
    assert.equal(devSteps[1].stdout, 'linter\n')
  })

  test('node.run_script_in_all_workspaces runs the script where it exists and skips the rest', async (t) => {
    const { cwd, env } = await app(t, { install: false })
    await writeFile(join(cwd, 'package.json'), JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }))
    const ws = { a: { build: "node -e \"require('fs').writeFileSync('built.txt', 'a')\"" }, b: { build: "node -e \"require('fs').writeFileSync('built.txt', 'b')\"" }, c: { test: 'echo c' } }
    for (const [name, scripts] of Object.entries(ws)) {
      await mkdir(join(cwd, 'packages', name), { recursive: true })
      await writeFile(join(cwd, 'packages', name, 'package.json'), JSON.stringify({ name, version: '1.0.0', scripts }))
    }
    const r = render('node.run_script_in_all_workspaces', { script: 'build' })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env })
    assert.match(steps[0].stdout, /"a": "node -e/)
    assert.equal(await readFile(join(cwd, 'packages/a/built.txt'), 'utf8'), 'a')
    assert.equal(await readFile(join(cwd, 'packages/b/built.txt'), 'utf8'), 'b')
    assert.equal(await exists(join(cwd, 'packages/c/built.txt')), false)
    const got = JSON.parse(verified)
    assert.deepEqual(Object.keys(got).sort(), ['a', 'b', 'c'])
    assert.deepEqual(got.c, {})
  })

  test('node.find_largest_dependencies ranks installed packages, scoped ones included', async (t) => {
    const { cwd, env } = await app(t)
    await mkdir(join(cwd, 'node_modules/@big/blob'), { recursive: true })
    await writeFile(join(cwd, 'node_modules/@big/blob/data.bin'), Buffer.alloc(600_000, 1))
    const r = render('node.find_largest_dependencies', { count: 3 })
    assertBashSyntax(r)
    const { steps, verified } = await runRecipe(r, { cwd, env })
    const rows = steps[1].stdout.trim().split('\n').map((l) => l.split('\t')[1])
    assert.equal(rows.length, 3)
    assert.equal(rows[0], 'node_modules/@big/blob')
    assert.ok(!rows.includes('node_modules/@big'), 'the scope directory itself is not a package')
    assert.match(verified, /\tnode_modules$/m)
  })
})
