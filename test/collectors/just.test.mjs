import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, writeFileSync, mkdirSync, rmSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectJust, justCollector } from '../../dist/src/collectors/just/collect.js'
import { parseJustfile } from '../../dist/src/collectors/just/parse.js'
import { RecipeBook } from '../../dist/src/index.js'

const fx = (name) => fileURLToPath(new URL(`../fixtures/just/${name}`, import.meta.url))
const byName = (result) => Object.fromEntries(result.recipes.map((r) => [r.name, r]))
const diag = (result) => result.diagnostics.map((d) => ({ file: d.file, line: d.line, severity: d.severity }))

test('basic: parameters with defaults, + and * variadics, $ env parameters', () => {
  const r = byName(collectJust(fx('basic')))
  assert.deepEqual(r.build.parameters, [{ name: 'profile', default: 'debug' }, { name: 'flags', variadic: '*' }])
  assert.deepEqual(r.test.parameters, [{ name: 'FILTER' }, { name: 'files', default: 'src', variadic: '+' }])
  assert.deepEqual(r.deploy.parameters, [{ name: 'env', default: 'staging' }, { name: 'TOKEN', default: '`echo none`' }])
  assert.deepEqual(r.lint.parameters, [{ name: 'arch', default: '(os() + "-" + arch())' }])
})

test('basic: doc comments, [doc] wins over the comment, a blank line breaks a doc, [group] is noted', () => {
  const r = byName(collectJust(fx('basic')))
  assert.equal(r.build.description, 'Build the project')
  assert.equal(r.test.description, 'Run the test suite [group: ci]')
  assert.equal(r.report.description, '')
  assert.equal(r.lint.description, '[group: ci]')
  assert.equal(r.deploy.description, '[confirm: asks before it runs]')
})

test('OS attributes: a recipe exists only on a matching system, so [windows] and [unix] recipes may share a name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-just-'))
  try {
    writeFileSync(join(dir, 'justfile'), '[windows]\nboth:\n    echo win\n\n[unix]\nboth:\n    echo unix\n\n[macos]\nmac:\n    echo\n\n[linux, windows]\nlw:\n    echo\n')
    const on = (platform) => collectJust(dir, { platform }).recipes.map((r) => `${r.name}:${r.line}`)
    assert.deepEqual(on('linux'), ['both:6', 'lw:14'])
    assert.deepEqual(on('darwin'), ['both:6', 'mac:10'])
    assert.deepEqual(on('win32'), ['both:2', 'lw:14'])
    assert.deepEqual(collectJust(dir, { platform: 'linux' }).diagnostics, [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('basic: private recipes (_name, [private]) are not listed; file order is kept', () => {
  const result = collectJust(fx('basic'))
  assert.deepEqual(result.recipes.map((x) => x.name), ['build', 'test', 'report', 'lint', 'deploy', 'clean'])
  assert.deepEqual(result.diagnostics, [])
  assert.deepEqual(result.files, ['justfile'])
})

test('basic: dependencies (with arguments and after &&), aliases, variables, lines, commands', () => {
  const r = byName(collectJust(fx('basic')))
  assert.deepEqual(r.test.prerequisites, ['build', 'report'])
  assert.deepEqual(r.deploy.prerequisites, ['build', 'lint'])
  assert.deepEqual(r.build.aliases, ['b'])
  assert.deepEqual(r.test.aliases, ['t'])
  assert.deepEqual(r.build.variables, ['version', 'target_dir'])
  assert.deepEqual(r.clean.variables, ['target_dir'])
  assert.deepEqual(r.report.variables, [], '{{{{ is an escaped brace, not an interpolation')
  assert.deepEqual(r.deploy.variables, [], 'parameters are not variables')
  assert.equal(r.build.line, 15)
  assert.equal(r.build.command, 'just build')
  assert.equal(r.build.runner, 'just')
  assert.equal(r.build.cwd, '.')
  assert.equal(r.build.id, 'just:build')
  assert.equal(r.build.scope, undefined)
})

test('modules: nested modules in every file layout, named mod::recipe and run as just mod::recipe', () => {
  const result = collectJust(fx('modules'))
  assert.deepEqual(result.recipes.map((x) => [x.name, x.file, x.scope ?? '']), [
    ['default', 'justfile', ''],
    ['api::serve', 'api.just', 'api'],
    ['web::bundle', 'web/mod.just', 'web'],
    ['web::ui::storybook', 'web/ui/Justfile', 'web::ui'],
    ['tools::fmt', 'tools/tasks.just', 'tools'],
    ['tools::check', 'tools/tasks.just', 'tools'],
    ['_internal::task', '_internal.just', '_internal'],
  ])
  const r = byName(result)
  assert.equal(r['web::ui::storybook'].command, 'just web::ui::storybook')
  assert.deepEqual(r['api::serve'].aliases, ['serve', 'api::s'])
  assert.deepEqual(r['tools::fmt'].prerequisites, ['tools::check'])
  assert.deepEqual(r.default.prerequisites, ['api::serve'])
  assert.equal(r['api::serve'].description, 'Serve the API')
  assert.deepEqual(result.diagnostics, [], 'mod? of a missing module is silent')
  assert.ok(!result.files.includes('db/.justfile'), 'a private module is not listed, so not read')
})

test('modules: tool names carry the module path once', () => {
  const book = new RecipeBook(collectJust(fx('modules')).recipes)
  const names = [...book.assignToolNames('scoped').values()]
  assert.deepEqual(names, ['just_default', 'just_api_serve', 'just_web_bundle', 'just_web_ui_storybook', 'just_tools_fmt', 'just_tools_check', 'just_internal_task'])
})

test('imports: recipes of imported files are the importer\'s own, with the imported file', () => {
  const result = collectJust(fx('imports'))
  assert.deepEqual(result.recipes.map((x) => [x.name, x.file]), [
    ['all', 'justfile'],
    ['common-task', 'just/common.just'],
    ['shared-task', 'just/shared.just'],
    ['sub::own', 'sub/justfile'],
    ['sub::extra', 'just/extra.just'],
  ])
  assert.equal(byName(result)['common-task'].description, 'Shared by everyone')
  assert.deepEqual(result.diagnostics, [], 'import? of a missing file is silent')
})

test('spellings: any case of justfile and .justfile', () => {
  assert.deepEqual(collectJust(fx('spelling-upper')).recipes.map((r) => [r.name, r.file, r.description]), [['up', 'JUSTFILE', 'Upper']])
  assert.deepEqual(collectJust(fx('spelling-dot')).recipes.map((r) => [r.name, r.file]), [['dot', '.justfile']])
})

test('broken-multiple: several justfiles are an error naming them, as just refuses to choose', () => {
  const result = collectJust(fx('broken-multiple'))
  assert.deepEqual(result.recipes, [])
  assert.equal(result.diagnostics.length, 1)
  assert.match(result.diagnostics[0].message, /\.Justfile, justfile.*keep one/)
})

test('broken-syntax: each bad recipe is a diagnostic with its line, and parsing goes on', () => {
  const result = collectJust(fx('broken-syntax'))
  // just refuses the file, so nothing is offered; the reader still went on past each error.
  assert.deepEqual(result.recipes, [])
  const parsed = parseJustfile(readFileSync(join(fx('broken-syntax'), 'justfile'), 'utf8'))
  assert.deepEqual(parsed.recipes.map((r) => r.name), ['first', 'fourth'])
  assert.deepEqual(diag(result), [
    { file: 'justfile', line: 4, severity: 'error' },
    { file: 'justfile', line: 7, severity: 'error' },
    { file: 'justfile', line: 4, severity: 'error' },
  ])
  assert.match(result.diagnostics[1].message, /variadic one must be last/)
  assert.match(result.diagnostics[2].message, /just refuses this justfile \(first error at justfile:4\), so none of its 2 recipes can run and none is listed/)
})

test('broken-undefined-variable: a variable no assignment defines is an error at its first use; constants and parameters are fine', () => {
  const result = collectJust(fx('broken-undefined-variable'))
  assert.deepEqual(result.recipes, [])
  assert.deepEqual(diag(result), [
    { file: 'justfile', line: 2, severity: 'error' },
    { file: 'justfile', line: 12, severity: 'error' },
    { file: 'justfile', line: 2, severity: 'error' },
  ])
  assert.match(result.diagnostics[0].message, /variable `my_server` not defined; just refuses this justfile/)
  assert.match(result.diagnostics[1].message, /variable `REGION` not defined/)
})

test('broken-missing-module: a missing module and a missing import are errors with their lines and the fix', () => {
  const result = collectJust(fx('broken-missing-module'))
  assert.deepEqual(result.recipes, [])
  assert.deepEqual(diag(result), [
    { file: 'justfile', line: 2, severity: 'error' },
    { file: 'justfile', line: 1, severity: 'error' },
    { file: 'justfile', line: 2, severity: 'error' },
  ])
  assert.match(result.diagnostics[0].message, /import\?/)
  assert.match(result.diagnostics[1].message, /mod\? gone/)
})

test('broken-module-twice: a module with two source files is an error, as in just', () => {
  const result = collectJust(fx('broken-module-twice'))
  assert.deepEqual(result.recipes, [])
  assert.match(result.diagnostics[0].message, /m\.just, m\/mod\.just/)
})

test('broken-alias and broken-duplicate: unknown alias targets and duplicate recipes are errors', () => {
  const alias = collectJust(fx('broken-alias'))
  assert.deepEqual(diag(alias), [{ file: 'justfile', line: 1, severity: 'error' }, { file: 'justfile', line: 1, severity: 'error' }])
  const dup = collectJust(fx('broken-duplicate'))
  assert.deepEqual(dup.recipes, [])
  assert.deepEqual(diag(dup), [{ file: 'justfile', line: 4, severity: 'error' }, { file: 'justfile', line: 4, severity: 'error' }])
})

test('no justfile: nothing, and no diagnostics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-just-'))
  try {
    assert.deepEqual(justCollector.collect({ root: dir, options: { enabled: true } }), { recipes: [], diagnostics: [], files: [] })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('import cycles and module cycles are reported, not followed forever', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-just-'))
  try {
    writeFileSync(join(dir, 'justfile'), "import 'a.just'\nmod self '.'\nroot:\n    echo\n")
    writeFileSync(join(dir, 'a.just'), "import 'justfile'\na:\n    echo\n")
    const result = collectJust(dir)
    assert.deepEqual(result.recipes, [])
    assert.equal(result.diagnostics.length, 3)
    assert.match(result.diagnostics[0].message, /cycle/)
    assert.match(result.diagnostics[1].message, /cycle/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('allow-duplicate-recipes: the later definition wins', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-just-'))
  try {
    mkdirSync(join(dir, 'x'))
    writeFileSync(join(dir, 'justfile'), 'set allow-duplicate-recipes\n# one\nok:\n    echo 1\n# two\nok:\n    echo 2\n')
    const result = collectJust(dir)
    assert.deepEqual(result.recipes.map((r) => [r.name, r.description, r.line]), [['ok', 'two', 6]])
    assert.deepEqual(result.diagnostics, [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('parser: settings, multi-line assignments and strings, line continuations, comments between items', () => {
  const parsed = parseJustfile([
    'set shell := ["bash",',
    '  "-c"]',
    "x := '''",
    'multi: not a recipe',
    "'''",
    'y := ("a" +',
    '  "b")',
    'export z := "1"',
    '',
    '@quiet a b="{{x}}": # trailing comment',
    '    echo {{ x + y }} \\',
    '      {{z}}',
    '',
    '    echo after a blank line',
    'unexport z',
  ].join('\n'))
  assert.deepEqual(parsed.problems, [])
  assert.deepEqual(parsed.assignments, ['x', 'y', 'z'])
  assert.equal(parsed.settings.shell, '[ bash , -c ]')
  assert.deepEqual(parsed.recipes.map((r) => [r.name, r.line, r.references]), [['quiet', 10, ['x', 'y', 'z']]])
  assert.deepEqual(parsed.recipes[0].parameters, [{ name: 'a' }, { name: 'b', default: '{{x}}' }])
})

test('parser: attributes in every form, shebang recipes, CRLF line ends', () => {
  const parsed = parseJustfile("[private, group('g')]\n[doc: 'Documented']\n[script('bash')]\nr:\r\n    #!/bin/sh\r\n    echo\r\n")
  assert.deepEqual(parsed.problems, [])
  const [r] = parsed.recipes
  assert.equal(r.private, true)
  assert.equal(r.doc, 'Documented')
  assert.deepEqual(r.groups, ['g'])
  assert.equal(r.shebang, true)
  assert.deepEqual(r.attributes.map((a) => a.name), ['private', 'group', 'doc', 'script'])
})

test('parser: indented text outside a recipe and a comment inside attributes are reported', () => {
  const parsed = parseJustfile('x := "1"\n    stray\n[group("a")]\n# comment\nr:\n    echo\n')
  assert.deepEqual(parsed.problems.map((p) => p.line), [2, 4])
  assert.deepEqual(parsed.recipes.map((r) => r.name), ['r'])
})

test('parser: an unclosed quote or bracket is reported at its line, and the recipes after it are still read', () => {
  const parsed = parseJustfile("x := 'abc\n\na:\n    echo\n\ny := (v +\nb arg=(:\n    echo\n\nc:\n    echo\n")
  assert.deepEqual(parsed.recipes.map((r) => r.name), ['a', 'c'])
  assert.deepEqual(parsed.problems.map((p) => p.line), [1, 6, 7])
  assert.match(parsed.problems[0].message, /unterminated string/)
})

test('home-directory imports are not read: a warning, or nothing for import?', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-just-'))
  try {
    writeFileSync(join(dir, 'justfile'), "import '~/tasks.just'\nimport? '~/.config/just/justfile'\nok:\n    echo\n")
    const result = collectJust(dir)
    assert.deepEqual(result.recipes.map((r) => r.name), ['ok'])
    assert.deepEqual(result.diagnostics.map((d) => [d.line, d.severity]), [[1, 'warning']])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
