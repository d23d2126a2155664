import { test } from 'node:test'
import assert from 'node:assert/strict'
import stringWidth from 'string-width'
import { RecipeBook, createRecipe, renderTable, renderJson, renderMarkdown, scanReport } from '../../dist/src/index.js'

function report(recipes) {
  const book = new RecipeBook(recipes.map((r) => createRecipe({ file: 'Makefile', ...r })))
  return scanReport({ root: '/repo', book, diagnostics: [], detectedFiles: ['Makefile'] })
}

const sample = report([
  { source: 'make', runner: 'make', name: 'build', command: 'make build', description: 'Compile the release bundle', line: 3 },
  { source: 'scripts', runner: 'pnpm', name: 'dev', command: 'pnpm run dev', description: 'vite --host 0.0.0.0 --port 5173 --strictPort --open false', file: 'package.json' },
  { source: 'scripts', runner: 'pnpm', name: '构建', command: 'pnpm run 构建', description: '构建生产版本的前端资源包', file: 'packages/web/package.json', cwd: 'packages/web', scope: 'web' },
])

test('the JSON report has exactly the documented fields', () => {
  const json = JSON.parse(renderJson(sample))
  assert.deepEqual(Object.keys(json), ['root', 'recipes', 'diagnostics', 'detectedFiles'])
  assert.deepEqual(Object.keys(json.recipes[0]), ['id', 'tool', 'source', 'name', 'command', 'cwd', 'description', 'file', 'line', 'prerequisites', 'variables'])
  assert.equal(json.recipes[0].tool, 'make_build')
  assert.equal(json.recipes[0].line, 3)
  assert.equal(json.recipes[1].line, null)
  assert.equal(json.recipes[2].cwd, 'packages/web')
})

test('table columns align by display width, CJK included', () => {
  const lines = renderTable(sample).trimEnd().split('\n')
  assert.match(lines[0], /^TOOL\s+SOURCE\s+DIR\s+COMMAND\s+DESCRIPTION$/)
  // The DESCRIPTION column starts at the same display column on every line.
  const col = (line, text) => stringWidth(line.slice(0, line.indexOf(text)))
  const start = col(lines[0], 'DESCRIPTION')
  assert.equal(col(lines[1], 'Compile'), start)
  assert.equal(col(lines[3], '构建生产'), start)
})

test('the table fits the terminal width and marks cuts', () => {
  for (const width of [60, 80, 100]) {
    const lines = renderTable(sample, { width }).trimEnd().split('\n')
    for (const line of lines) assert.ok(stringWidth(line) <= width, `${stringWidth(line)} > ${width}: ${line}`)
    assert.ok(lines.some((l) => l.endsWith('…')), 'a cut is marked')
  }
  // Without a width (a pipe) nothing is cut.
  assert.ok(!renderTable(sample).includes('…'))
})

test('an empty scan says so', () => {
  assert.equal(renderTable(report([])), 'No commands found.\n')
})

test('markdown groups by source and escapes table cells', () => {
  const md = renderMarkdown(report([
    { source: 'make', runner: 'make', name: 'x', command: 'make x', description: 'a | b\nnext line' },
  ]))
  assert.match(md, /^# Commands/)
  assert.match(md, /## make/)
  assert.match(md, /\| `make x` \| \. \| a \\\| b next line \| `make_x` \|/)
})

test('markdown documents a hook as one, with what it runs around', () => {
  const md = renderMarkdown(report([
    { source: 'scripts', runner: 'npm', name: 'prebuild', command: 'npm run prebuild', description: 'echo pre', file: 'package.json', hook: 'hook: runs before `build` whenever that script runs' },
    { source: 'scripts', runner: 'npm', name: 'build', command: 'npm run build', description: 'tsc', file: 'package.json' },
  ]))
  assert.ok(md.includes('| `npm run prebuild` | . | echo pre (hook: runs before \\`build\\` whenever that script runs) | `npm_prebuild` |'), md)
  assert.match(md, /\| `npm run build` \| \. \| tsc \| `npm_build` \|/)
})

test('a report with the recipes\' own lists renders the same; a default report\'s lists are its own to change', () => {
  const recipes = [
    createRecipe({ source: 'make', runner: 'make', name: 'all', command: 'make all', file: 'Makefile', prerequisites: ['a', 'b'], variables: ['CC'] }),
    createRecipe({ source: 'make', runner: 'make', name: 'a', command: 'make a', file: 'Makefile' }),
    createRecipe({ source: 'just', runner: 'just', name: 'b', command: 'just b', file: 'justfile', prerequisites: ['a'] }),
  ]
  const result = { root: '/repo', book: new RecipeBook(recipes), diagnostics: [], detectedFiles: ['Makefile', 'justfile'] }
  const shared = scanReport(result, 'scoped', { sharedLists: true })
  const copied = scanReport(result)
  assert.equal(renderJson(shared), renderJson(copied))
  assert.equal(renderMarkdown(shared), renderMarkdown(copied))
  assert.equal(shared.recipes[0].prerequisites, recipes[0].prerequisites, 'the recipe\'s own frozen list')
  copied.recipes[0].prerequisites.push('c')
  copied.recipes[0].variables.length = 0
  assert.deepEqual(recipes[0].prerequisites, ['a', 'b'])
  assert.deepEqual(recipes[0].variables, ['CC'])
  assert.deepEqual(scanReport(result).recipes.map((r) => r.tool), ['make_all', 'make_a', 'just_b'])
})
