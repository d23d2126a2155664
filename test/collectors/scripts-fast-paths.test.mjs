// The package.json reader's and the scripts collector's shortcuts give the answers of what they
// stand in for, checked against it on generated inputs: locateInnerKeys against jsonc-parser's
// syntax tree (and locateKeys), linesAt against positionLocator, recipeMaker against createRecipe,
// hasSegment against splitting the path, and a workspace over MAX_RECIPES, whose recipes past the limit are counted rather than made.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseTree } from 'jsonc-parser'
import { linesAt, locateInnerKeys, locateKeys, positionLocator } from '../../dist/src/collectors/shared/json-text.js'
import { createRecipe, recipeMaker } from '../../dist/src/book/recipe.js'
import { runCollector } from '../../dist/src/collectors/run-collector.js'
import { scriptsCollector } from '../../dist/src/collectors/scripts/collect.js'
import { MAX_RECIPES } from '../../dist/src/collectors/shared/guard.js'
import { hasSegment } from '../../dist/src/collectors/shared/workspaces.js'
import { rng } from '../support/random.mjs'
import { tempDir } from '../support/temp.mjs'

/** The keys of every top-level `inner` object member, with offsets, from jsonc-parser's tree. */
function oracleInner(text, inner) {
  const out = []
  for (const prop of parseTree(text).children ?? []) {
    const [key, value] = prop.children
    if (key.value === inner && value.type === 'object') for (const p of value.children ?? []) out.push({ key: p.children[0].value, offset: p.children[0].offset })
  }
  return out
}

/**
 * Generated JSON objects whose keys and values spell "scripts", quotes, escapes and brackets, nested
 * and repeated. With `plainKeys`, no key holds a character JSON writes escaped (the usual manifest:
 * locateInnerKeys reads those member by member), while values still do.
 */
function generatedJson(random, plainKeys = false) {
  const int = (n) => Math.floor(random() * n)
  const anyWord = () => ['a', 'b"q', 'c\\', 'scripts', 'scr\u0069pts', '{', '}', '[', ',', 'ü', '\u{1F600}', ' ', ':', '"scripts"'][int(14)] + (int(3) ? int(100) : '')
  const keyWord = () => ['a', 'scripts', '{', '}', '[', ',', 'ü', ' ', ':', 'build:watch', '-', '0'][int(12)] + (int(3) ? int(100) : '')
  let keys = false
  const word = () => (plainKeys && keys ? keyWord() : anyWord())
  const value = (depth) => {
    const kind = int(depth > 2 ? 3 : 6)
    if (kind === 0) return word()
    if (kind === 1) return int(1000) - 500
    if (kind === 2) return random() < 0.5 ? null : true
    if (kind === 3) return Array.from({ length: int(4) }, () => value(depth + 1))
    const o = {}
    for (let i = 0; i < int(5); i++) {
      keys = true
      const key = int(3) ? word() : 'scripts'
      keys = false
      o[key] = value(depth + 1)
    }
    return o
  }
  // Members written by hand so that a key may repeat (JSON.stringify can't), "scripts" among them.
  const members = Array.from({ length: int(8) }, () => {
    keys = true
    const key = int(3) ? word() : 'scripts'
    keys = false
    return [key, value(1)]
  })
  const indent = [undefined, 2, '\t'][int(3)]
  const gap = indent === undefined ? '' : `\n${typeof indent === 'number' ? ' '.repeat(indent) : indent}`
  const escaped = (k) => (!plainKeys && random() < 0.2 ? JSON.stringify(k).replace(/s/g, '\\u0073') : JSON.stringify(k))
  return `{${members.map(([k, v]) => `${gap}${escaped(k)}:${indent === undefined ? '' : ' '}${JSON.stringify(v, null, indent)}`).join(',')}${members.length && gap ? '\n' : ''}}`
}

test('locateInnerKeys finds the keys of every top-level "scripts" object that jsonc-parser finds, and no others', () => {
  const random = rng(31)
  let withScripts = 0
  for (let i = 0; i < 4_000; i++) {
    const text = generatedJson(random)
    JSON.parse(text)
    const expected = oracleInner(text, 'scripts')
    if (expected.length) withScripts++
    assert.deepEqual(locateInnerKeys(text, 'scripts'), expected, text)
    assert.deepEqual(locateInnerKeys(text, 'scripts'), locateKeys(text, 'scripts').inner, text)
  }
  assert.ok(withScripts > 500, `cases with scripts keys: ${withScripts}`)
})

test('locateInnerKeys reads manifests whose keys need no escape as the tree does: escapes, brackets and "scripts" in values, keys repeated', () => {
  const random = rng(47)
  let withScripts = 0
  for (let i = 0; i < 4_000; i++) {
    const text = generatedJson(random, true)
    JSON.parse(text)
    const expected = oracleInner(text, 'scripts')
    if (expected.length) withScripts++
    assert.deepEqual(locateInnerKeys(text, 'scripts'), expected, text)
  }
  assert.ok(withScripts > 500, `cases with scripts keys: ${withScripts}`)
  // Blanks JSON allows anywhere between tokens, and none.
  for (const text of ['{"scripts":{"a":"x","b":[1,{"c":"}"}],"d":{}}}', ' \n{ "x" : [ ] , "scripts" : { "a" : "b" } , "y" : "\\"scripts\\"" }\n', '{}', '{"scripts":{}}', '{"scripts":[{"a":1}],"scripts":{"z":null}}']) {
    assert.deepEqual(locateInnerKeys(text, 'scripts'), oracleInner(text, 'scripts'), text)
  }
})

test('linesAt gives positionLocator\'s line of each offset, for every kind of line break', () => {
  const random = rng(5)
  for (let i = 0; i < 2_000; i++) {
    const text = Array.from({ length: Math.floor(random() * 40) }, () => ['a', 'bc', '\n', '\r\n', '\r', ' ', '"'][Math.floor(random() * 7)]).join('')
    const offsets = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * (text.length + 1))).sort((a, b) => a - b)
    const at = positionLocator(text)
    assert.deepEqual(linesAt(text, offsets), offsets.map((o) => at(o).line), JSON.stringify(text))
  }
})

test('recipeMaker makes the recipes createRecipe makes, field for field and in order, and refuses what it refuses', () => {
  const random = rng(11)
  const pick = (list) => list[Math.floor(random() * list.length)]
  let made = 0
  for (let i = 0; i < 500; i++) {
    const shared = { source: 'scripts', runner: pick(['npm', 'pnpm']), cwd: pick(['.', 'packages/a', './apps/b/', 'x\\y']), file: pick(['package.json', 'packages/a/package.json', './p/package.json']) }
    if (random() < 0.5) shared.scope = pick(['@s/a', '', 'b'])
    if (random() < 0.5) shared.argsSeparator = '--'
    if (random() < 0.2) shared.prerequisites = ['x', 'y']
    const make = recipeMaker(shared)
    for (let k = 0; k < 6; k++) {
      const own = { name: pick(['build', 'test:watch', ' ', '', 'a b']), command: pick(['npm run build', ' ', 'x']), description: pick([' tsc -p . ', '', undefined]), line: pick([1, 7, 0, 2.5, undefined]) }
      if (random() < 0.3) own.hook = 'hook: runs before `build` whenever that script runs'
      let expected
      try {
        expected = createRecipe({ ...shared, ...own })
      } catch (error) {
        assert.throws(() => make(own), { name: 'RecipeError', message: error.message })
        continue
      }
      const recipe = make(own)
      assert.deepEqual(recipe, expected)
      assert.deepEqual(Object.keys(recipe), Object.keys(expected))
      assert.ok(Object.isFrozen(recipe))
      made++
    }
  }
  assert.ok(made > 500, `recipes compared: ${made}`)
})

function writeJson(path, value) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, JSON.stringify(value, null, 2))
}

const SCRIPTS_OPTIONS = { enabled: true, runner: 'auto', lockfilePriority: ['pnpm-lock.yaml', 'yarn.lock', 'package-lock.json'] }

test('a workspace over MAX_RECIPES lists the first ones and counts every script it has', (t) => {
  const root = tempDir(t, 'cs-scripts-many-')
  writeJson(join(root, 'package.json'), { name: 'root', workspaces: ['packages/*'], scripts: { build: 'b' } })
  const perPackage = 1_000
  const packages = Math.ceil(MAX_RECIPES / perPackage) + 2
  for (let p = 0; p < packages; p++) {
    const scripts = Object.fromEntries(Array.from({ length: perPackage }, (_, k) => [`s${k}`, `echo ${p} ${k}`]))
    writeJson(join(root, 'packages', `p${String(p).padStart(3, '0')}`, 'package.json'), { name: `p${p}`, scripts })
  }
  const found = 1 + packages * perPackage
  const result = runCollector({ source: 'scripts', root }, () => scriptsCollector.collect({ root, options: SCRIPTS_OPTIONS }))
  assert.equal(result.recipes.length, MAX_RECIPES)
  assert.equal(result.recipes.at(-1).id, `scripts:packages/p${String(Math.floor((MAX_RECIPES - 2) / perPackage)).padStart(3, '0')}:s${(MAX_RECIPES - 2) % perPackage}`)
  const limit = result.diagnostics.filter((d) => d.message.includes('MAX_RECIPES'))
  assert.deepEqual(limit.map((d) => d.message), [`the scripts collector found ${found} commands, over the limit of ${MAX_RECIPES} per source (MAX_RECIPES); only the first ${MAX_RECIPES} are listed`])
})

test('a script that makes no recipe fails the collector past MAX_RECIPES too', (t) => {
  const root = tempDir(t, 'cs-scripts-bad-')
  writeJson(join(root, 'package.json'), { name: 'root', workspaces: ['packages/*'] })
  writeJson(join(root, 'packages', 'a', 'package.json'), { name: 'a', scripts: Object.fromEntries(Array.from({ length: MAX_RECIPES + 5 }, (_, k) => [`s${k}`, 'x'])) })
  writeJson(join(root, 'packages', 'b', 'package.json'), { name: 'b', scripts: { ok: 'x', ' ': 'blank name' } })
  assert.throws(() => scriptsCollector.collect({ root, options: SCRIPTS_OPTIONS }), { name: 'RecipeError', message: 'recipe field "name" must be a non-empty string (got " ")' })
})

test('hasSegment tells a segment named node_modules (or bower_components) as splitting the path does', () => {
  const random = rng(2)
  const segments = ['node_modules', 'bower_components', 'node_modules2', 'xnode_modules', 'a', '', '.', 'node_module']
  for (let i = 0; i < 20_000; i++) {
    const dir = Array.from({ length: 1 + Math.floor(random() * 4) }, () => segments[Math.floor(random() * segments.length)]).join('/')
    for (const names of [['node_modules'], ['node_modules', 'bower_components']]) {
      assert.equal(hasSegment(dir, names), dir.split('/').some((seg) => names.includes(seg)), `${dir} ${names}`)
    }
  }
})
