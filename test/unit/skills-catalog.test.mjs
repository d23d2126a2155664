// The skills catalog the build writes (dist/src/skills/catalog.json) is exactly the skills the
// shipped library makes, and it is used only while the library folder is the one it was made
// from: a recipe edited, added, removed or renamed, or a link changed, and the reader reads the
// library instead. The dsh skills row, started in a fresh process, lists the catalog's skills
// without loading the library's reader (YAML and the rules).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tempDir } from '../support/temp.mjs'
import { SHIPPED_RECIPES_DIR } from '../../dist/src/curated/shipped.js'
import { loadLibrary } from '../../dist/src/curated/load.js'
import { CATALOG_FILE, catalogSkills, libraryFingerprint } from '../../dist/src/skills/catalog.js'
import { recipeSkills } from '../../dist/src/skills/write.js'

const DIST = new URL('../../dist/src/', import.meta.url).href

test('the built catalog holds exactly the skills the shipped library makes, and matches the shipped folder', () => {
  const built = JSON.parse(readFileSync(CATALOG_FILE, 'utf8'))
  assert.deepEqual(built.skills, recipeSkills(loadLibrary([SHIPPED_RECIPES_DIR])))
  assert.deepEqual(catalogSkills(SHIPPED_RECIPES_DIR), built.skills)
  assert.ok(built.skills.length >= 6, `one skill per category (${built.skills.length})`)
})

test('a library folder that changed in any way is not served from the catalog', (t) => {
  const dir = tempDir(t, 'cs-skills-catalog-')
  const copy = (name) => {
    const lib = join(dir, name)
    cpSync(SHIPPED_RECIPES_DIR, lib, { recursive: true })
    return lib
  }
  const catalog = join(dir, 'catalog.json')
  writeFileSync(catalog, JSON.stringify({ fingerprint: libraryFingerprint(SHIPPED_RECIPES_DIR), skills: [{ name: 'x' }] }))
  assert.deepEqual(catalogSkills(copy('same'), catalog), [{ name: 'x' }], 'an identical copy matches')
  const changes = {
    edited: (lib) => appendFileSync(join(lib, 'git/undo-last-commit.yaml'), '\n'),
    added: (lib) => writeFileSync(join(lib, 'git/new-one.yaml'), 'id: git.new_one\n'),
    removed: (lib) => rmSync(join(lib, 'git/undo-last-commit.yaml')),
    renamed: (lib) => renameSync(join(lib, 'git/undo-last-commit.yaml'), join(lib, 'git/undo-last-commit-2.yaml')),
    'a link added': (lib) => symlinkSync('/etc/hostname', join(lib, 'git/linked.yaml')),
    'a folder added': (lib) => cpSync(join(lib, 'git'), join(lib, 'git2'), { recursive: true }),
    // Never read (it would block the session's start): it changes the fingerprint all the same.
    'a FIFO added': (lib) => execFileSync('mkfifo', [join(lib, 'git/pipe.yaml')]),
  }
  for (const [what, change] of Object.entries(changes)) {
    const lib = copy(what.replace(/ /g, '-'))
    change(lib)
    assert.equal(catalogSkills(lib, catalog), undefined, what)
  }
  assert.equal(catalogSkills(join(dir, 'missing'), catalog), undefined, 'a folder that is gone')
  writeFileSync(catalog, '{not json')
  assert.equal(catalogSkills(copy('bad-catalog'), catalog), undefined, 'a catalog that does not parse')
})

const HOOKS = `let port
export function initialize(data) { port = data.port }
export async function resolve(spec, ctx, next) { const r = await next(spec, ctx); port.postMessage(r.url); return r }
`

const PROGRAM = `
  import { register } from 'node:module'
  import { MessageChannel } from 'node:worker_threads'
  const [hooks, dist] = process.argv.slice(2)
  const seen = []
  const { port1, port2 } = new MessageChannel()
  port1.on('message', (url) => seen.push(url))
  port1.unref()
  register(hooks, { data: { port: port2 }, transferList: [port2] })
  const { default: plugin } = await import(dist + 'dsh/skills.js')
  let provider
  plugin.apply({ skills: { registerProvider: (create) => { provider = create(); return () => {} } }, effect: (fn) => fn() })
  const listed = await provider.list()
  const body = await provider.get(listed[0])
  await new Promise((resolve) => setTimeout(resolve, 50)) // the hooks' last messages
  const library = seen.filter((u) => u.includes('/node_modules/yaml/') || u.endsWith('/curated/load.js') || u.endsWith('/curated/rules.js'))
  process.stdout.write(JSON.stringify({ seen: seen.length, listed, body, library }))
`

test('the skills row lists the catalog and returns its bodies without loading the library reader', (t) => {
  const dir = tempDir(t, 'cs-skills-row-')
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS)
  writeFileSync(join(dir, 'program.mjs'), PROGRAM)
  const r = spawnSync(process.execPath, [join(dir, 'program.mjs'), pathToFileURL(join(dir, 'hooks.mjs')).href, DIST], { encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.ok(out.seen > 2, `the hooks saw the row's modules load (${out.seen})`)
  const skills = recipeSkills(loadLibrary([SHIPPED_RECIPES_DIR]))
  assert.deepEqual(out.listed.map((s) => [s.name, s.description, s.whenToUse]), skills.map((s) => [s.name, s.description, s.whenToUse]))
  assert.equal(out.body.content, skills[0].body)
  assert.deepEqual(out.library, [], 'no yaml, no library loader, no rules')
})
