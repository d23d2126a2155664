// `command-scout recipes skills`: SKILL.md folders in the loader's format (frontmatter name, description,
// whenToUse), one per category with every recipe exactly once, and with --root one per runner with the
// repository's commands; a rewrite replaces only this package's skills.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { REPO_ROOT } from './support.mjs'
import { loadLibrary, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'

const scratch = await mkdtemp(join(tmpdir(), 'cs-skills-'))
after(() => rm(scratch, { recursive: true, force: true }))
const cli = (...args) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin/command-scout'), ...args], { encoding: 'utf8' })

function readSkill(dir, name) {
  const text = readFileSync(join(dir, name, 'SKILL.md'), 'utf8')
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text)
  assert.ok(m, `${name}/SKILL.md starts with frontmatter`)
  return { meta: parse(m[1]), body: m[2] }
}

test('one skill per category; every shipped recipe appears in exactly one, with its risk and parameters', async () => {
  const out = join(scratch, 'recipes')
  await mkdir(join(out, 'someone-elses-skill'), { recursive: true })
  await mkdir(join(out, 'command-scout-stale-recipes'), { recursive: true })
  const r = cli('recipes', 'skills', '--out', out)
  assert.equal(r.status, 0, r.stderr)
  assert.ok(existsSync(join(out, 'someone-elses-skill')), 'other skills stay')
  assert.ok(!existsSync(join(out, 'command-scout-stale-recipes')), 'an earlier skill of ours is replaced')
  const library = loadLibrary([SHIPPED_RECIPES_DIR])
  const names = readdirSync(out).filter((n) => n.startsWith('command-scout-')).sort()
  assert.deepEqual(names, [...new Set(library.recipes.map((x) => x.category))].map((c) => `command-scout-${c}-recipes`).sort())
  const seen = new Map()
  for (const name of names) {
    const { meta, body } = readSkill(out, name)
    assert.equal(meta.name, name)
    assert.match(meta.name, /^[a-z0-9]+(-[a-z0-9]+)*$/)
    assert.ok(meta.description.length > 20 && meta.whenToUse.startsWith('When '), name)
    assert.match(body, /## How to use a recipe/)
    for (const id of body.matchAll(/^`([a-z]+\.[a-z0-9_]+)` · /gm)) seen.set(id[1], (seen.get(id[1]) ?? 0) + 1)
  }
  assert.deepEqual([...seen.keys()].sort(), library.recipes.map((x) => x.id).sort())
  assert.ok([...seen.values()].every((n) => n === 1))
  const { body } = readSkill(out, 'command-scout-network-recipes')
  assert.match(body, /`network\.find_process_on_port` · read-only · macos, linux\n\n.*\n\nParameters:\n- `port` \(a port number, 1 to 5 digits, default "3000"\)/)
})

test('--root writes one skill per runner listing the repository commands', async () => {
  const out = join(scratch, 'commands')
  const r = cli('recipes', 'skills', '--root', join(REPO_ROOT, 'test/fixtures/mixed'), '--out', out)
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /Wrote 4 skills/)
  const { meta, body } = readSkill(out, 'command-scout-mixed-make-commands')
  assert.match(meta.description, /^The 4 make commands the mixed repository declares \(\.DEFAULT_GOAL, build, clean, test\)/)
  assert.match(body, /\| `make build` \| \. \| Compile the release bundle \| clean \| `VERSION`, `CC` \| `make_build` \|/)
})

test('usage errors: --out is required, --root must exist', () => {
  const none = cli('recipes', 'skills')
  assert.equal(none.status, 2)
  assert.match(none.stderr, /--out DIR is required/)
  const missing = cli('recipes', 'skills', '--out', join(scratch, 'x'), '--root', join(scratch, 'no-such-dir'))
  assert.equal(missing.status, 2)
  assert.match(missing.stderr, /does not exist/)
  assert.match(cli('recipes', 'skills', '--help').stdout, /one skill per recipe category/)
})

test('a link planted where a skill goes is replaced, never written through', async () => {
  const out = join(scratch, 'planted')
  const outside = join(scratch, 'outside')
  await mkdir(out, { recursive: true })
  await mkdir(outside, { recursive: true })
  await writeFile(join(outside, 'SKILL.md'), 'not yours\n')
  symlinkSync(outside, join(out, 'command-scout-git-recipes'))
  const r = cli('recipes', 'skills', '--out', out)
  assert.equal(r.status, 0, r.stderr)
  assert.equal(readFileSync(join(outside, 'SKILL.md'), 'utf8'), 'not yours\n', 'the file the link pointed at is untouched')
  assert.ok(!lstatSync(join(out, 'command-scout-git-recipes')).isSymbolicLink(), 'the skill is a folder of its own')
  assert.equal(readSkill(out, 'command-scout-git-recipes').meta.name, 'command-scout-git-recipes')
})
