// Holds the width limit on the lines of src/ (none over MAX_COLUMNS characters but for the literal they hold),
// with the reader of scripts/long-lines.mjs, and checks that the reader tells code, comments and literals apart.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_COLUMNS, fileLongLines, longLines } from '../../scripts/long-lines.mjs'
import { tempDir } from '../support/temp.mjs'

const shown = (l) => `${l.file}:${l.line}: ${l.kind}, ${l.width} characters`

test(`no line in src/ is wider than ${MAX_COLUMNS} characters, its longest literal aside`, () => {
  assert.deepEqual(longLines().map(shown), [],
    `rewrap these lines (list them with: node scripts/long-lines.mjs -v)`)
})

/** A line of exactly `width` characters: `start`, then `x` up to `end`. */
const fill = (start, width, end = '') => start + 'x'.repeat(width - start.length - end.length) + end

test('the reader counts code and comments over the limit, and lets a line keep one long literal', () => {
  const lines = [
    fill('const a = 1 // ', MAX_COLUMNS), //                                                1  at the limit: fine
    fill('const b = 1 // ', MAX_COLUMNS + 1), //                                            2  code with a wide comment
    fill('// ', MAX_COLUMNS + 1), //                                                        3  a comment
    '/**', //                                                                               4
    fill(' * ', MAX_COLUMNS + 1), //                                                        5  inside a JSDoc block
    ' */', //                                                                               6
    fill("throw new Error('", 400, "')"), //                                                7  one long message
    fill('const t = `${a} ', 300, '`'), //                                                  8  one long template
    fill('const r = /', 300, '/'), //                                                       9  one long regular expression
    fill(`const o = { a: 1, b: '`, 260, `', ${'c: 2, '.repeat(30)}}`), //                  10  a literal, and too much code beside it
    `const o2 = { ${Array.from({ length: 30 }, (_, i) => `k${i}: ${i}`).join(', ')} }`, //  11  code alone
    'const u = `', //                                                                      12
    fill('// inside a template, not a comment ', 300), //                                  13  text of a template
    '`', //                                                                                14
    fill("const s = '/* not a comment' + ", MAX_COLUMNS + 40), //                          15  code (the `/*` is in a string)
    fill('const h = 1 + ', MAX_COLUMNS + 1), //                                            16  code still
  ]
  const found = fileLongLines('/x/src/sample.ts', lines.join('\n'), '/x')
  assert.deepEqual(found.map((l) => [l.line, l.kind]), [
    [2, 'code'],
    [3, 'comment'],
    [5, 'comment'],
    [10, 'code'],
    [11, 'code'],
    [15, 'code'],
    [16, 'code'],
  ])
  assert.ok(found.every((l) => l.file === 'src/sample.ts'))
  assert.deepEqual(found.map((l) => l.width), [2, 3, 5, 10, 11, 15, 16].map((n) => lines[n - 1].length))
})

test('the reader reads every .ts file under src/ by file and line; declaration files, other files and links are left out', (t) => {
  const root = tempDir(t, 'long-lines-')
  mkdirSync(join(root, 'src', 'deep', 'er'), { recursive: true })
  const wide = `export const wide = [${Array.from({ length: 40 }, (_, i) => i * 1000).join(', ')}]`
  writeFileSync(join(root, 'src', 'narrow.ts'), 'export const narrow = 1\n')
  writeFileSync(join(root, 'src', 'deep', 'er', 'wide.ts'), `// one\n${wide}\nexport const ok = 2\n${wide}\n`)
  writeFileSync(join(root, 'src', 'b.ts'), `${wide}\n`)
  writeFileSync(join(root, 'src', 'types.d.ts'), `${wide}\n`)
  writeFileSync(join(root, 'src', 'notes.js'), `${wide}\n`)
  symlinkSync(join(root, 'src', 'b.ts'), join(root, 'src', 'linked.ts'))
  symlinkSync(join(root, 'src', 'deep'), join(root, 'src', 'linked-dir'))
  assert.ok(wide.length > MAX_COLUMNS)
  assert.deepEqual(longLines(root).map((l) => `${l.file}:${l.line}`), [
    'src/b.ts:1',
    'src/deep/er/wide.ts:2',
    'src/deep/er/wide.ts:4',
  ])
})
