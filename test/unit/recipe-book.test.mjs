import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RecipeBook, createRecipe, RESERVED_TOOL_NAMES } from '../../dist/src/index.js'
import { commandWithWords } from '../../dist/src/book/risk/index.js'

const r = (over) => createRecipe({ source: 'make', runner: 'make', name: 'build', command: 'make build', file: 'Makefile', ...over })

test('scoped names use the runner and the scope', () => {
  const book = new RecipeBook([
    r({}),
    r({ source: 'scripts', runner: 'pnpm', name: 'dev', command: 'pnpm run dev', file: 'package.json' }),
    r({ source: 'scripts', runner: 'pnpm', name: 'dev', command: 'pnpm run dev', file: 'packages/web/package.json', cwd: 'packages/web', scope: '@acme/web' }),
  ])
  const names = book.assignToolNames('scoped')
  assert.deepEqual([...names.values()], ['make_build', 'pnpm_dev', 'pnpm_acme_web_dev'])
})

test('flat names get numeric suffixes in book order; sources keep their order', () => {
  const book = new RecipeBook([
    r({ source: 'just', runner: 'just', name: 'build', command: 'just build', file: 'justfile' }),
    r({}),
    r({ source: 'scripts', runner: 'npm', name: 'build', command: 'npm run build', file: 'package.json' }),
  ])
  assert.deepEqual(book.entries().map((x) => x.source), ['make', 'scripts', 'just'])
  assert.deepEqual([...book.assignToolNames('flat').values()], ['build', 'build_2', 'build_3'])
})

test('dedupe keeps the first recipe with an id', () => {
  const book = new RecipeBook([r({ description: 'first' }), r({ description: 'second' })])
  assert.equal(book.size, 1)
  assert.equal(book.entries()[0].description, 'first')
})

test('reserved and built-in tool names are never produced', () => {
  const book = new RecipeBook([
    r({ name: 'run_code', command: 'make run_code' }),
    r({ name: 'bash', command: 'make bash' }),
    r({ name: 'read', command: 'make read' }),
  ])
  const names = [...book.assignToolNames('flat').values()]
  for (const n of names) assert.ok(!RESERVED_TOOL_NAMES.has(n), n)
  assert.deepEqual(names, ['run_code_2', 'bash_2', 'read_2'])
})

test('names are [a-z0-9_], at most 64 characters, hashed when nothing usable is left', () => {
  const book = new RecipeBook([
    r({ name: '构建', command: 'make 构建' }),
    r({ name: '测试', command: 'make 测试' }),
    r({ name: 'x'.repeat(100), command: 'make long' }),
    r({ name: 'x'.repeat(100) + 'y', command: 'make long2' }),
    r({ name: 'Build:Docs/API', command: 'make docs' }),
  ])
  const names = [...book.assignToolNames('scoped').values()]
  for (const n of names) {
    assert.match(n, /^[a-z0-9_]{1,64}$/)
  }
  assert.match(names[0], /^make_task_[0-9a-f]{8}$/)
  assert.notEqual(names[0], names[1])
  assert.notEqual(names[2], names[3])
  assert.equal(names[4], 'make_build_docs_api')
  // deterministic
  assert.deepEqual([...book.assignToolNames('scoped').values()], names)
})

test('npm gets -- before script arguments, others append', () => {
  assert.equal(commandWithWords({ command: 'npm run test', argsSeparator: '--' }, ['--watch']), 'npm run test -- --watch')
  assert.equal(commandWithWords({ command: 'pnpm run test' }, ['--watch']), 'pnpm run test --watch')
  assert.equal(commandWithWords({ command: 'make build' }, []), 'make build')
  assert.equal(commandWithWords({ command: 'make build' }, ['V=a b; rm -rf x']), "make build 'V=a b; rm -rf x'")
})

test('createRecipe refuses missing fields and escaping cwds', () => {
  assert.throws(() => createRecipe({ source: 'make', runner: 'make', name: '', command: 'x', file: 'Makefile' }), /name/)
  assert.throws(() => r({ cwd: '../up' }), /relative/)
  assert.equal(r({ cwd: './pkg/' }).cwd, 'pkg')
})

test('a source removed and added again keeps its place; other sources follow in arrival order; names follow the order', () => {
  const book = new RecipeBook([
    r({ source: 'third', runner: 'x', name: 'one', command: 'x one', file: 'x.toml' }),
    r({ source: 'scripts', runner: 'npm', name: 'dev', command: 'npm run dev', file: 'package.json' }),
    r({}),
    r({ source: 'other', runner: 'y', name: 'two', command: 'y two', file: 'y.toml' }),
    r({ name: 'test', command: 'make test' }),
  ])
  const sources = () => book.entries().map((x) => `${x.source}:${x.name}`)
  assert.deepEqual(sources(), ['make:build', 'make:test', 'scripts:dev', 'third:one', 'other:two'])
  assert.equal(book.removeSource('make'), 2)
  assert.equal(book.removeSource('make'), 0)
  assert.equal(book.get('make:build'), undefined)
  assert.deepEqual(sources(), ['scripts:dev', 'third:one', 'other:two'])
  book.addAll(new Set([r({ name: 'lint', command: 'make lint' }), r({ source: 'third', runner: 'x', name: 'one', command: 'x one', file: 'x.toml' })]))
  assert.deepEqual(sources(), ['make:lint', 'scripts:dev', 'third:one', 'other:two'], 'make first again; the duplicate id not added')
  const { recipes, names } = book.namedEntries('flat')
  assert.deepEqual(recipes.map((x) => x.id), book.entries().map((x) => x.id))
  assert.deepEqual(names, recipes.map((x) => book.assignToolNames('flat').get(x.id)))
  assert.deepEqual(names, ['lint', 'dev', 'one', 'two'])
})
