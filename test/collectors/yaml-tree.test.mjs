// src/collectors/shared/yaml-tree.ts against js-yaml's own constructor: every YAML file among the fixtures and
// a few hundred generated documents must give the same plain value as js-yaml's load with the core
// schema and merge keys (what the tree's values claim to be), and each key's line must be the line
// the key is written on.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { CORE_SCHEMA, loadAll, mergeTag } from 'js-yaml'
import { parseYamlTree, toPlain, YamlSyntaxError, YamlValueError } from '../../dist/src/collectors/shared/yaml-tree.js'
import { rng } from '../support/random.mjs'

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname
const SCHEMA = CORE_SCHEMA.withTags(mergeTag)

function yamlFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yamlFiles(path, out)
    else if (/\.ya?ml$/.test(name)) out.push(path)
  }
  return out
}

/** js-yaml's value of the first document (null for none), or the error it refuses the text with. */
function reference(text) {
  try {
    const docs = loadAll(text, { schema: SCHEMA, json: true })
    return docs.length > 1 ? { error: new Error('multiple documents') } : { value: docs[0] ?? null }
  } catch (error) {
    return { error }
  }
}

function ours(text) {
  try {
    const doc = parseYamlTree(text)
    if (doc.documents > 1) return { error: 'documents' }
    return { value: toPlain(doc, doc.contents, 10_000), doc }
  } catch (error) {
    if (error instanceof YamlSyntaxError || error instanceof YamlValueError) return { error }
    throw error
  }
}

const SCALARS = ['1', '-2', '0x1f', '0o17', '1.5', '.5', '1e3', '.inf', '-.Inf', '.nan', 'true', 'False', 'NULL', '~', 'yes', 'on', '"1"', "'true'", '"a\\tb"', 'plain text', '!!str 12', '"x: y"', '|\n    lit\n    two', '>\n    folded\n    line', '""', "'it''s'"]

function generated(r) {
  const pick = (list) => list[Math.floor(r() * list.length)]
  const lines = ['base: &base', '  k1: 1', '  k2: two', 'list: &list [a, b, 1]']
  for (let i = 0; i < 3 + Math.floor(r() * 6); i++) {
    const kind = Math.floor(r() * 6)
    if (kind === 0) lines.push(`key${i}: ${pick(SCALARS)}`)
    else if (kind === 1) lines.push(`key${i}:`, `  - ${pick(SCALARS).replace(/\n/g, '\n  ')}`, `  - *list`)
    else if (kind === 2) lines.push(`key${i}:`, '  <<: *base', `  k2: ${pick(SCALARS).replace(/\n/g, '\n  ')}`)
    else if (kind === 3) lines.push(`key${i}: {a: ${pick(['1', 'x', '[1, 2]', '*list'])}, b: *base}`)
    else if (kind === 4) lines.push(`${pick([`"quoted key ${i}"`, `'single ${i}'`, `${12 + i}`, `true${i}`, `k-dash-${i}`])}: ${pick(SCALARS).replace(/\n/g, '\n  ')}`)
    else lines.push(`key${i}:`, '  <<: [*base, {k3: 3}]', '  k1: own')
  }
  return `${lines.join('\n')}\n`
}

test('every YAML fixture gives js-yaml\'s value, or both refuse it', () => {
  const files = yamlFiles(FIXTURES)
  assert.ok(files.length > 20, `${files.length} fixtures`)
  let compared = 0
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const theirs = reference(text)
    const mine = ours(text)
    if (theirs.error) {
      // js-yaml refuses tags outside the core schema, which the tree keeps as text.
      if (!/unknown (scalar|sequence|mapping) tag|multiple documents|expected a single document/.test(theirs.error.message)) assert.ok(mine.error, `${file}: js-yaml refuses it (${theirs.error.message.split('\n')[0]}), so must the tree`)
      continue
    }
    assert.ok(!mine.error, `${file}: ${mine.error?.message ?? mine.error}`)
    assert.deepEqual(mine.value, theirs.value, file)
    compared++
  }
  assert.ok(compared > 20, `${compared} compared`)
})

test('generated documents with anchors, merges, flow and block styles give js-yaml\'s value', () => {
  const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
  for (let i = 0; i < 400; i++) {
    const text = generated(r)
    const theirs = reference(text)
    const mine = ours(text)
    assert.ok(!theirs.error, `js-yaml reads case ${i}: ${theirs.error?.message}\n${text}`)
    assert.ok(!mine.error, `case ${i}: ${mine.error?.message}\n${text}`)
    assert.deepEqual(mine.value, theirs.value, `case ${i}:\n${text}`)
  }
})

test('a key\'s line is the line it is written on, in block and flow mappings', () => {
  const text = "version: '3'\n\ntasks:\n  # a comment\n  build:\n    cmds: [make]\n  \"quoted:key\": echo\n  flow: {a: 1,\n    b: 2}\n"
  const doc = parseYamlTree(text)
  const tasks = doc.contents.pairs.find((p) => p.key.text === 'tasks').value
  assert.deepEqual(tasks.pairs.map((p) => [p.key.text, doc.lineAt(p.key.start)]), [['build', 5], ['quoted:key', 7], ['flow', 8]])
  const flow = tasks.pairs[2].value
  assert.deepEqual(flow.pairs.map((p) => [p.key.text, doc.lineAt(p.key.start)]), [['a', 8], ['b', 9]])
})

test('an alias bomb, an unknown anchor and a syntax error are refused with what went wrong', () => {
  const levels = ['a: &a [x, x, x, x, x, x, x, x, x]']
  for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`)
  const bomb = parseYamlTree(levels.join('\n'))
  assert.throws(() => toPlain(bomb, bomb.contents), /excessive alias count/)
  // A few aliases are fine, and share their anchor's value.
  const few = parseYamlTree('a: &a [1]\nb: *a\nc: *a\n')
  const v = toPlain(few, few.contents)
  assert.equal(v.b, v.c)
  assert.throws(() => parseYamlTree('a: *nothing\n') && toPlain(parseYamlTree('a: *nothing\n'), parseYamlTree('a: *nothing\n').contents), /nothing/)
  assert.throws(() => parseYamlTree('a: [1\nb: 2\n'), (e) => e instanceof YamlSyntaxError && e.line === 2)
})

test('__proto__ as a key is data, not a prototype', () => {
  const doc = parseYamlTree('__proto__: {polluted: 1}\n')
  const v = toPlain(doc, doc.contents)
  assert.deepEqual(Object.keys(v), ['__proto__'])
  assert.equal({}.polluted, undefined)
  assert.equal(Object.getPrototypeOf(v), Object.prototype)
})
