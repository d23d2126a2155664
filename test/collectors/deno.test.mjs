// The deno collector on its fixtures (test/fixtures/deno/<case>/ with expected.json), and the
// rules that need a temp directory.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { denoCollector, memberDirs } from '../../dist/src/collectors/deno/collect.js'
import { parseDenoConfig } from '../../dist/src/collectors/deno/config.js'
import { discover } from '../../dist/src/book/discover.js'

const FIXTURES = new URL('../fixtures/deno/', import.meta.url).pathname

function collect(root) {
  return denoCollector.collect({ root, options: { enabled: true } })
}

function project(result) {
  return {
    files: result.files,
    recipes: result.recipes.map((r) => ({
      name: r.name, runner: r.runner, command: r.command, cwd: r.cwd,
      ...(r.scope ? { scope: r.scope } : {}),
      file: r.file, line: r.line, description: r.description,
      ...(r.prerequisites.length ? { prerequisites: r.prerequisites } : {}),
      ...(r.argsSeparator ? { argsSeparator: r.argsSeparator } : {}),
    })),
    diagnostics: result.diagnostics.map((d) => ({ severity: d.severity, file: d.file, ...(d.line ? { line: d.line } : {}), message: d.message })),
  }
}

for (const name of readdirSync(FIXTURES).sort()) {
  test(`fixture ${name} gives the recipes, diagnostics and files of its expected.json`, () => {
    const { options, ...want } = JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8'))
    assert.deepEqual(project(collect(join(FIXTURES, name))), want)
  })
}

test('a directory without deno.json or deno.jsonc gives nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-deno-empty-'))
  writeFileSync(join(dir, 'package.json'), '{"scripts":{"a":"b"}}')
  assert.deepEqual(collect(dir), { recipes: [], diagnostics: [], files: [] })
  rmSync(dir, { recursive: true })
})

test('deno.jsonc alone is read, and deno.json takes over as soon as it appears', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-deno-both-'))
  writeFileSync(join(dir, 'deno.jsonc'), '{ /* c */ "tasks": { "a": "echo jsonc", }, }')
  assert.deepEqual(collect(dir).recipes.map((r) => [r.name, r.file]), [['a', 'deno.jsonc']])
  writeFileSync(join(dir, 'deno.json'), '{ "tasks": { "b": "echo json" } }')
  const result = collect(dir)
  assert.deepEqual(result.recipes.map((r) => [r.name, r.file]), [['b', 'deno.json']])
  assert.match(result.diagnostics[0].message, /deno reads deno\.json and ignores deno\.jsonc/)
  rmSync(dir, { recursive: true })
})

test('only tasks, name and workspace are read: broken imports or compilerOptions values are not diagnosed', () => {
  const config = parseDenoConfig('{ "imports": 5, "compilerOptions": [], "lint": null, "tasks": { "t": "x" } }', 'deno.json')
  assert.deepEqual(config.problems, [])
  assert.deepEqual(config.tasks.map((t) => t.name), ['t'])
})

test('an object task keeps command, description and dependencies; one with only dependencies has no command', () => {
  const config = parseDenoConfig('{"tasks":{"a":{"command":"x","description":"d","dependencies":["b"]},"b":{"dependencies":["a"]},"c":{}}}', 'deno.json')
  assert.deepEqual(config.tasks, [
    { name: 'a', command: 'x', description: 'd', dependencies: ['b'], line: 1 },
    { name: 'b', dependencies: ['a'], line: 1 },
    { name: 'c', dependencies: [], line: 1 },
  ])
})

test('a syntax error is reported with line and column; a non-object file too', () => {
  const broken = parseDenoConfig('{\n  "tasks": {\n    "a": "x",\n    "b": \n  }\n}', 'deno.jsonc')
  assert.equal(broken.valid, false)
  assert.match(broken.problems[0].message, /line 5, column 3: expected a value/)
  const array = parseDenoConfig('[1]', 'deno.json')
  assert.equal(array.valid, false)
  assert.match(array.problems[0].message, /must hold an object, not an array/)
})

test('memberDirs: plain paths as written, globs by their configs, negations excluded, node_modules never', () => {
  const root = join(FIXTURES, 'workspace')
  const warnings = []
  assert.deepEqual(memberDirs(root, ['./packages/*', 'tools/cli/', '!packages/legacy'], (m) => warnings.push(m)), ['packages/core', 'packages/http', 'tools/cli'])
  assert.deepEqual(memberDirs(root, ['**'], (m) => warnings.push(m)), ['packages/core', 'packages/http', 'packages/legacy', 'tools/cli'])
  assert.deepEqual(memberDirs(root, ['./**/*'], (m) => warnings.push(m)), ['packages/core', 'packages/http', 'packages/legacy', 'tools/cli'])
  assert.deepEqual(memberDirs(root, ['../x', '/abs', '.'], (m) => warnings.push(m)), [])
  assert.equal(warnings.length, 2)
})

test('members run in their own directory and their tool names say the member', () => {
  const { book } = discover(join(FIXTURES, 'workspace'), { collectors: { makefile: { enabled: false }, scripts: { enabled: false }, justfile: { enabled: false }, cargo: { enabled: false }, taskfile: { enabled: false } } }, { env: { PATH: '' } })
  const names = new Map([...book.assignToolNames('scoped')].map(([id, tool]) => [tool, book.entries().find((r) => r.id === id).cwd]))
  assert.deepEqual(Object.fromEntries(names), {
    deno_check: '.',
    deno_test: '.',
    deno_acme_core_test: 'packages/core',
    deno_acme_core_bench: 'packages/core',
    deno_packages_http_serve: 'packages/http',
    deno_acme_cli_start: 'tools/cli',
  })
})

test('a member with a broken config is reported and the other members go on (temp copy)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-deno-member-'))
  cpSync(join(FIXTURES, 'workspace'), dir, { recursive: true })
  writeFileSync(join(dir, 'packages/core/deno.json'), '{ "tasks": { "test": "deno test" ')
  const result = collect(dir)
  assert.equal(result.diagnostics.length, 1)
  assert.equal(result.diagnostics[0].file, 'packages/core/deno.json')
  assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], ['.', 'packages/http', 'tools/cli'])
  mkdirSync(join(dir, 'packages/empty'))
  assert.deepEqual(collect(dir).diagnostics.length, 1, 'a glob only matches directories with a config: no warning for packages/empty')
  rmSync(dir, { recursive: true })
})

test('blankJsonc keeps every offset and line while blanking comments and trailing commas, never string content', async () => {
  const { blankJsonc } = await import('../../dist/src/collectors/deno/config.js')
  const text = '{\n  // a comment\n  "url": "https://x//y/*z*/", /* block\n spans */ "list": [1, 2, ],\n  "o": { "k": "v", },\n}'
  const strict = blankJsonc(text)
  assert.equal(strict.length, text.length)
  assert.equal(strict.split('\n').length, text.split('\n').length)
  assert.deepEqual(JSON.parse(strict), { url: 'https://x//y/*z*/', list: [1, 2], o: { k: 'v' } })
  assert.equal(blankJsonc('{"a": 1}'), '{"a": 1}')
})
