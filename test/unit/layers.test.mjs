// The product code keeps its layers (scripts/import-graph.mjs, drawn in ARCHITECTURE.md): no part
// imports one of a higher layer or another part of its own, and no parts import each other round a
// circle. The graph is read from the sources, so a new import that breaks a layer fails here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { check, imports, LAYERS } from '../../scripts/import-graph.mjs'

const edges = imports()

test('layers: the graph is read from the sources', () => {
  assert.ok(edges.length > 300, `read ${edges.length} imports`)
  for (const part of ['collectors', 'book', 'dsh', 'kitchen', 'cli']) {
    assert.ok(edges.some((e) => e.fromPart === part), `${part} has imports`)
  }
})

test('layers: every product file belongs to a layer', () => {
  assert.deepEqual(check(edges).loose, [], `files outside the layers ${JSON.stringify(LAYERS)}`)
})

test('layers: no import runs from a lower layer up or across one layer', () => {
  const { upward } = check(edges)
  assert.deepEqual(upward.map((e) => `${e.from} -> ${e.to}`), [])
})

test('layers: no parts import each other round a circle', () => {
  assert.deepEqual(check(edges).circles, [])
})

test('layers: the checker sees an import up and a circle', () => {
  const made = [
    ...edges,
    { from: 'src/base/x.ts', to: 'src/book/y.ts', fromPart: 'base', toPart: 'book' },
  ]
  const { upward, circles } = check(made)
  assert.ok(upward.some((e) => e.from === 'src/base/x.ts'))
  assert.ok(circles.some((c) => c.includes('base') && c.includes('book')))
})
