// The shared readers' fast paths give the answers of what they stand in for, checked against that
// very thing as the oracle on generated inputs: joinPath against node:path's join, segmentMatcher
// against picomatch, locateKeys against jsonc-parser's syntax tree, and tooDeep's length shortcut
// against counting the components.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { parseTree } from 'jsonc-parser'
import { joinPath } from '../../dist/src/collectors/shared/fs.js'
import { segmentMatcher } from '../../dist/src/collectors/shared/workspace-patterns.js'
import { locateKeys } from '../../dist/src/collectors/shared/json-text.js'
import { MAX_DEPTH, tooDeep } from '../../dist/src/collectors/shared/guard.js'
import { rng } from '../support/random.mjs'

test('joinPath joins as path.join does, for every mix of plain, dot, empty and separator parts', () => {
  const parts = ['', '.', '..', 'a', 'b.c', '.x', '..y', '/', '//', 'a/', '/a', 'a/./b', 'a/../b', 'x//y', 'é', 'with space']
  let compared = 0
  for (const a of parts) for (const b of parts) for (const c of parts) for (const d of parts) {
    const base = `/${a}${b ? `/${b}` : ''}`
    const rel = `${c}${d ? `/${d}` : ''}`
    assert.equal(joinPath(base, rel), join(base, rel), `joinPath(${JSON.stringify(base)}, ${JSON.stringify(rel)})`)
    compared++
  }
  assert.equal(joinPath('/', 'pkg/package.json'), '/pkg/package.json')
  assert.ok(compared > 60_000)
})

test('segmentMatcher matches as picomatch does, and leaves patterns with more glob syntax to it', () => {
  const random = rng(22)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const segments = ['*', 'a', 'b', '.a', 'a.b', 'pkg-1', 'x y', '~t', '_u', 'é', '$x', '|', '^', '#']
  const names = ['', '.', '..', 'a', 'b', '.a', 'a.b', 'pkg-1', 'x y', '~t', '_u', 'é', '$x', '|', '^', '#', 'package.json']
  let fast = 0
  let compared = 0
  for (let i = 0; i < 20_000; i++) {
    const patterns = Array.from({ length: 1 + Math.floor(random() * 2) }, () => {
      const p = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(segments)).join('/')
      return random() < 0.5 ? `${p}/package.json` : p
    })
    const matcher = segmentMatcher(patterns)
    if (!matcher) {
      assert.ok(patterns.some((p) => /[$|^#é]/.test(p)), `only a pattern with other syntax is left to picomatch: ${patterns}`)
      continue
    }
    fast++
    const oracle = picomatch(patterns)
    for (let k = 0; k < 8; k++) {
      const path = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(names)).join('/')
      assert.equal(matcher.match(path), oracle(path), `${JSON.stringify(patterns)} on ${JSON.stringify(path)}`)
      compared++
    }
    for (const odd of ['/', '//', 'a/', '/a', 'a//b', '']) assert.equal(matcher.match(odd), oracle(odd), `${JSON.stringify(patterns)} on ${JSON.stringify(odd)}`)
  }
  assert.ok(fast > 5_000 && compared > 40_000)
  assert.equal(segmentMatcher(['packages/**']), undefined)
  assert.equal(segmentMatcher(['a/{b,c}']), undefined)
  assert.equal(segmentMatcher([`${'x'.repeat(5000)}/*`]), undefined, 'a pattern the glob library refuses as too long is left to it')
})

/** Every property key's offset under the top-level object and under its `inner` member, from jsonc-parser. */
function oracleKeys(text, inner) {
  const root = parseTree(text)
  const top = []
  const innerKeys = []
  for (const prop of root.children ?? []) {
    const [key, value] = prop.children
    top.push({ key: key.value, offset: key.offset })
    if (key.value === inner && value.type === 'object') for (const p of value.children ?? []) innerKeys.push({ key: p.children[0].value, offset: p.children[0].offset })
  }
  return { top, inner: innerKeys }
}

test('locateKeys finds the keys and offsets jsonc-parser finds, in any JSON layout and with escapes', () => {
  const random = rng(7)
  const int = (n) => Math.floor(random() * n)
  const word = () => ['a', 'b"q', 'c\\\\', 'scripts', '{', '}', '[', ',', 'ü', '\u{1F600}', ' ', ':'][int(12)] + int(100)
  const value = (depth) => {
    const kind = int(depth > 2 ? 3 : 6)
    if (kind === 0) return word()
    if (kind === 1) return int(1000) - 500
    if (kind === 2) return random() < 0.5 ? null : true
    if (kind === 3) return Array.from({ length: int(4) }, () => value(depth + 1))
    const o = {}
    for (let i = 0; i < int(5); i++) o[int(3) ? word() : 'scripts'] = value(depth + 1)
    return o
  }
  for (let i = 0; i < 3_000; i++) {
    const o = {}
    for (let k = 0; k < int(8); k++) o[int(4) ? word() : 'scripts'] = value(1)
    const text = JSON.stringify(o, null, [undefined, 2, '\t'][int(3)])
    assert.deepEqual(locateKeys(text, 'scripts'), oracleKeys(text, 'scripts'), text)
  }
})

test('tooDeep refuses a path of more components than the limit however it is written, and no shorter one', () => {
  const limit = MAX_DEPTH + 32 // outside a collector's guard
  assert.equal(tooDeep(`/${Array(limit).fill('a').join('/')}`), false)
  assert.equal(tooDeep(`/${Array(limit + 1).fill('a').join('/')}`), true)
  assert.equal(tooDeep(`/${'x'.repeat(10_000)}`), false, 'a long name is one component')
  assert.equal(tooDeep('/'.repeat(limit)), false)
  assert.equal(tooDeep('/'.repeat(limit + 2)), true, 'every separator counts, as before')
})
