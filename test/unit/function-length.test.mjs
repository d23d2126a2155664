// Holds the size limit on functions in src/ (none over MAX_LINES lines), with the counter of
// scripts/function-lengths.mjs, and checks that the counter sees every kind of function.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileFunctionLengths, functionLengths } from '../../scripts/function-lengths.mjs'
import { tempDir } from '../support/temp.mjs'

const MAX_LINES = 150

test(`no function in src/ is longer than ${MAX_LINES} lines`, () => {
  const all = functionLengths()
  assert.ok(all.length > 100, `the counter found only ${all.length} functions in src/`)
  const over = all.filter((f) => f.lines > MAX_LINES)
  assert.deepEqual(over.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`), [],
    `split these into named steps (list them with: node scripts/function-lengths.mjs --over ${MAX_LINES})`)
})

test('the counter finds declarations, methods, accessors, arrows and nested functions, each with its own length', () => {
  const source = [
    '/** a comment above is not counted */',
    'export function outer(a: number): number {', //  2
    '  const inner = (b: number) => {', //              3
    '    return b + 1', //                              4
    '  }', //                                           5
    '  return inner(a)', //                             6
    '}', //                                             7
    'class Reader {', //                                8
    '  constructor(readonly x: number) {}', //          9
    '  get value(): number {', //                      10
    '    return this.x', //                            11
    '  }', //                                          12
    '  read(): number[] {', //                         13
    '    return [1, 2].map(function double(n) {', //   14
    '      return n * 2', //                           15
    '    })', //                                       16
    '  }', //                                          17
    '}', //                                            18
    'const table = { pick: (k: string) => k }', //     19
    'declare function bodiless(): void', //            20
  ].join('\n')
  const found = fileFunctionLengths('/x/src/sample.ts', source, '/x')
  const summary = found.map((f) => [f.name, f.line, f.lines])
  assert.deepEqual(summary, [
    ['outer', 2, 6],
    ['outer/inner', 3, 3],
    ['Reader.constructor', 9, 1],
    ['Reader.value', 10, 3],
    ['Reader.read', 13, 5],
    ['Reader.read/double', 14, 3],
    ['pick', 19, 1],
  ])
  assert.ok(found.every((f) => f.file === 'src/sample.ts'))
})

test('the counter reads every .ts file under src/, longest first, and leaves declaration files out', (t) => {
  const root = tempDir(t, 'function-lengths-')
  mkdirSync(join(root, 'src', 'deep', 'er'), { recursive: true })
  const body = (n) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
  writeFileSync(join(root, 'src', 'short.ts'), `export function short() {\n${body(1)}\n}\n`)
  writeFileSync(join(root, 'src', 'deep', 'er', 'long.ts'), `export const long = () => {\n${body(200)}\n}\n`)
  writeFileSync(join(root, 'src', 'types.d.ts'), `export function typed(): void\nexport const x = () => {\n${body(300)}\n}\n`)
  writeFileSync(join(root, 'src', 'notes.js'), `function js() {\n${body(400)}\n}\n`)
  const found = functionLengths(root)
  assert.deepEqual(found.map((f) => [f.file, f.name, f.lines]), [
    ['src/deep/er/long.ts', 'long', 202],
    ['src/short.ts', 'short', 3],
  ])
})
