// Each folder under test/fixtures/go is one rule of the go collector (see expected-fixtures.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { goCollector } from '../../dist/src/collectors/go/collect.js'
import { evalBuildExpr, fileHeader } from '../../dist/src/collectors/go/packages.js'
import { parseGoMod, parseGoWork } from '../../dist/src/collectors/go/mod.js'
import { fixtureTests } from '../support/expected-fixtures.mjs'

fixtureTests(goCollector, new URL('../fixtures/go/', import.meta.url).pathname)

test('go collector: its manifests and config key', () => {
  assert.deepEqual([...goCollector.manifestNames], ['go.mod', 'go.work'])
})

test('build expressions: precedence, negation, parentheses, malformed is false', () => {
  assert.equal(evalBuildExpr(' linux && amd64 || windows'), process.platform === 'linux' && process.arch === 'x64')
  assert.equal(evalBuildExpr(' !windows'), process.platform !== 'win32')
  assert.equal(evalBuildExpr(' ignore'), false)
  assert.equal(evalBuildExpr(' (linux'), false)
  assert.equal(evalBuildExpr(' linux &&'), false)
  assert.equal(evalBuildExpr(' go1.21 && !go1.1'), false)
})

test('file headers: the package clause after comments; nothing else is read', () => {
  assert.deepEqual(fileHeader('\ufeff// c\n/* a\nb */\npackage   main // x\n'), { pkg: 'main', line: 4, buildable: true })
  assert.equal(fileHeader('/* never closed\npackage main').pkg, undefined)
  assert.equal(fileHeader('import "x"\npackage main').pkg, undefined)
})

test('go.mod and go.work: raw strings, comments, blocks', () => {
  assert.equal(parseGoMod('module `example.com/raw` // c\n').module, 'example.com/raw')
  assert.equal(parseGoMod('module (\n  example.com/block\n)\n').module, 'example.com/block')
  assert.match(parseGoMod('module a\nmodule b\n').problems[0].message, /repeats the module directive/)
  assert.deepEqual(parseGoWork('use ./a // one\nuse (\n  `./b c`\n)\n').uses, [{ path: './a', line: 1 }, { path: './b c', line: 3 }])
})
