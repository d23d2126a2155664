// One failing fixture per validation rule: test/fixtures/curated/invalid/<CODE>/ must report exactly
// that code, once, and nothing else.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { RULES, validateLibrary, loadLibrary } from '../../dist/src/curated/index.js'

const fixtures = new URL('../fixtures/curated/', import.meta.url).pathname
const invalid = join(fixtures, 'invalid')

/** The library dirs a fixture stands for: `lib-*` subfolders, a `not-a-directory` file, or the folder itself. */
function dirsOf(folder) {
  if (existsSync(join(folder, 'not-a-directory'))) return [join(folder, 'not-a-directory')]
  const libs = readdirSync(folder).filter((n) => n.startsWith('lib-')).sort()
  return libs.length ? libs.map((l) => join(folder, l)) : [folder]
}

test('the base fixture and the valid library pass every rule', () => {
  assert.deepEqual(validateLibrary([join(fixtures, 'base')]), [])
  assert.deepEqual(validateLibrary([join(fixtures, 'valid')]), [])
})

test('every rule has exactly one failing fixture folder, and every folder names a rule', () => {
  const folders = readdirSync(invalid).sort()
  assert.deepEqual(folders, Object.keys(RULES).sort())
})

for (const code of Object.keys(RULES).sort()) {
  test(`${code}: its fixture reports exactly ${code}`, () => {
    const issues = validateLibrary(dirsOf(join(invalid, code)))
    assert.deepEqual(issues.map((i) => `${i.severity} ${i.code}`), [`error ${code}`], JSON.stringify(issues, null, 1))
    const [issue] = issues
    assert.ok(issue.message.length > 20, 'the message explains the problem and the fix')
    if (!['E_DIR_UNREADABLE', 'E_FILE_LAYOUT'].includes(code)) {
      assert.ok(issue.line >= 1 && issue.column >= 1, `${code} carries a position`)
    }
  })
}

test('a file with an error is not served by loadLibrary, and loading never throws', () => {
  const lib = loadLibrary([join(invalid, 'E_TITLE_TOO_LONG')])
  assert.equal(lib.recipes.length, 0)
  assert.equal(lib.byId.size, 0)
  assert.equal(lib.issues[0].code, 'E_TITLE_TOO_LONG')
  for (const code of Object.keys(RULES)) assert.doesNotThrow(() => loadLibrary(dirsOf(join(invalid, code))))
})

test('a dangling link and a non-YAML file do not crash loading', async () => {
  const { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const dir = mkdtempSync(join(tmpdir(), 'curated-odd-'))
  try {
    mkdirSync(join(dir, 'files'))
    symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'files', 'gone.yaml'))
    writeFileSync(join(dir, 'files', 'README.md'), '# notes\n')
    const lib = loadLibrary([dir])
    assert.deepEqual(lib.issues.map((i) => i.code), ['E_YAML_SYNTAX'])
    assert.match(lib.issues[0].message, /cannot be read/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('SHIPPED_RECIPES_DIR is the package recipes/ folder', async () => {
  const { SHIPPED_RECIPES_DIR } = await import('../../dist/src/curated/index.js')
  assert.equal(SHIPPED_RECIPES_DIR, new URL('../../recipes', import.meta.url).pathname)
})

test('placeholder problems point at the placeholder itself', () => {
  const [quoted] = validateLibrary([join(invalid, 'E_PLACEHOLDER_QUOTED')])
  assert.deepEqual([quoted.line, quoted.column], [17, 22])
  const [undefinedParam] = validateLibrary([join(invalid, 'E_PARAM_UNDEFINED')])
  assert.deepEqual([undefinedParam.line, undefinedParam.column], [22, 38])
})

test('an alias bomb, an empty file and several documents are issues, not crashes', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const dir = mkdtempSync(join(tmpdir(), 'curated-yaml-'))
  try {
    mkdirSync(join(dir, 'files'))
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`)
    writeFileSync(join(dir, 'files', 'bomb.yaml'), levels.join('\n') + '\n')
    writeFileSync(join(dir, 'files', 'empty.yaml'), '')
    writeFileSync(join(dir, 'files', 'two-docs.yaml'), 'id: a\n---\nid: b\n')
    const issues = loadLibrary([dir]).issues.map((i) => `${i.file.split('/').pop()} ${i.code}`)
    assert.deepEqual(issues, ['bomb.yaml E_YAML_SYNTAX', 'empty.yaml E_NOT_A_MAPPING', 'two-docs.yaml E_YAML_SYNTAX'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
