// The scripts collector on its fixtures (test/fixtures/scripts/<case>/ with expected.json), and
// the rules that need options or a temp directory.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hookOf, scriptsCollector } from '../../dist/src/collectors/scripts/collect.js'
import { parsePackageJson } from '../../dist/src/collectors/scripts/manifest.js'
import { managerOf, resolveRunner } from '../../dist/src/collectors/scripts/runner.js'
import { shellWord } from '../../dist/src/base/quote.js'
import { discover } from '../../dist/src/book/discover.js'
import { normalizeConfig } from '../../dist/src/book/config.js'

const FIXTURES = new URL('../fixtures/scripts/', import.meta.url).pathname
const DEFAULTS = normalizeConfig({}).collectors.scripts

function collect(root, options = {}) {
  return scriptsCollector.collect({ root, options: { ...DEFAULTS, ...options } })
}

/** The fields expected.json pins, in its shape. */
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

function tempCopy(name) {
  const dir = mkdtempSync(join(tmpdir(), `scout-scripts-${name}-`))
  cpSync(join(FIXTURES, name), dir, { recursive: true })
  return dir
}

for (const name of readdirSync(FIXTURES).sort()) {
  test(`fixture ${name} gives the recipes, diagnostics and files of its expected.json`, () => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8'))
    const { options, ...want } = expected
    assert.deepEqual(project(collect(join(FIXTURES, name), options)), want)
  })
}

test('no fixture ever yields a recipe or a file under node_modules, and every cwd and file exists', () => {
  for (const name of readdirSync(FIXTURES)) {
    const root = join(FIXTURES, name)
    const result = collect(root)
    for (const r of result.recipes) {
      assert.ok(!r.cwd.split('/').includes('node_modules'), `${name}: ${r.id}`)
      assert.notEqual(r.description, 'echo must never be listed', `${name}: ${r.id}`)
      assert.ok(existsSync(join(root, r.cwd, 'package.json')), `${name}: ${r.cwd}`)
      assert.equal(r.file, r.cwd === '.' ? 'package.json' : `${r.cwd}/package.json`)
    }
    for (const f of result.files) {
      assert.ok(!f.includes('node_modules'), `${name}: ${f}`)
      assert.ok(existsSync(join(root, f)), `${name}: ${f}`)
    }
  }
})

test('a directory without package.json gives nothing and reads nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-scripts-empty-'))
  assert.deepEqual(collect(dir), { recipes: [], diagnostics: [], files: [] })
  rmSync(dir, { recursive: true })
})

test('a configured runner wins over packageManager and lockfiles, and npm alone gets the -- separator', () => {
  const root = join(FIXTURES, 'pm-pnpm-vs-yarn-lock')
  const [bun] = collect(root, { runner: 'bun' }).recipes
  assert.equal(bun.command, 'bun run dev')
  assert.equal(bun.argsSeparator, undefined)
  const [npm] = collect(root, { runner: 'npm' }).recipes
  assert.equal(npm.command, 'npm run dev')
  assert.equal(npm.argsSeparator, '--')
  assert.deepEqual(collect(root, { runner: 'npm' }).diagnostics, [], 'the configured runner settles the conflict')
})

test('lockfilePriority decides between lockfiles of several managers', () => {
  const root = join(FIXTURES, 'lockfile-several')
  assert.equal(collect(root).recipes[0].runner, 'yarn')
  const npmFirst = collect(root, { lockfilePriority: ['package-lock.json', 'yarn.lock'] })
  assert.equal(npmFirst.recipes[0].runner, 'npm')
  assert.match(npmFirst.diagnostics[0].message, /scripts run with npm \(package-lock\.json comes first/)
  const yarnIgnored = collect(root, { lockfilePriority: ['bun.lock', 'package-lock.json'] })
  assert.equal(yarnIgnored.recipes[0].runner, 'npm', 'a lockfile left out of the priority list is not probed')
  assert.deepEqual(yarnIgnored.diagnostics, [])
})

test('an unknown lockfilePriority name is a warning and the others still count', () => {
  const result = collect(join(FIXTURES, 'lockfile-pnpm'), { lockfilePriority: ['shrinkwrap.lock', 'pnpm-lock.yaml'] })
  assert.equal(result.recipes[0].runner, 'pnpm')
  assert.equal(result.diagnostics.length, 1)
  assert.match(result.diagnostics[0].message, /"shrinkwrap\.lock", which is not a lockfile/)
})

test('packageManager names each manager, with or without a version or hash', () => {
  assert.equal(managerOf('pnpm@9.1.0'), 'pnpm')
  assert.equal(managerOf('yarn@4.1.0+sha256.abc'), 'yarn')
  assert.equal(managerOf('bun@1.1.0'), 'bun')
  assert.equal(managerOf('npm@10.8.0'), 'npm')
  assert.equal(managerOf('pnpm'), 'pnpm')
  assert.equal(managerOf('cnpm@9.0.0'), undefined)
  assert.equal(managerOf(''), undefined)
  assert.equal(managerOf('@pnpm@9'), undefined)
})

test('resolveRunner falls back to npm with no field and no lockfile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scout-runner-'))
  assert.deepEqual(resolveRunner(dir, DEFAULTS), { runner: 'npm', reason: 'default', lockfiles: [], problems: [] })
  writeFileSync(join(dir, 'bun.lock'), '{}')
  assert.equal(resolveRunner(dir, DEFAULTS).runner, 'bun')
  assert.equal(resolveRunner(dir, DEFAULTS, 'yarn@1.22.22').runner, 'yarn')
  rmSync(dir, { recursive: true })
})

test('parsePackageJson reads a byte-order-mark-free text strictly: comments and trailing commas are errors', () => {
  const withComment = parsePackageJson('{\n  // no\n  "scripts": {}\n}')
  assert.equal(withComment.valid, false)
  assert.equal(withComment.problems[0].line, 2)
  assert.match(withComment.problems[0].message, /line 2, column 3: comments are not allowed/)
  const trailing = parsePackageJson('{ "scripts": { "a": "b", } }')
  assert.equal(trailing.valid, false)
  const empty = parsePackageJson('')
  assert.equal(empty.valid, false)
  assert.match(empty.problems[0].message, /ends too early/)
  const array = parsePackageJson('[]')
  assert.match(array.problems[0].message, /must hold an object, not an array/)
})

test('parsePackageJson gives the line of every script key, and workspaces in both forms', () => {
  const m = parsePackageJson('{\n"name": "x",\n"scripts": {\n  "a": "1",\n\n  "b": "2"\n},\n"workspaces": { "packages": ["p/*", 3] }\n}')
  assert.deepEqual(m.scripts, [{ name: 'a', command: '1', line: 4 }, { name: 'b', command: '2', line: 6 }])
  assert.deepEqual(m.workspaces, ['p/*'])
  assert.match(m.problems[0].message, /workspace pattern must be a string, not a number/)
  assert.deepEqual(parsePackageJson('{"workspaces": ["a", "b/*"]}').workspaces, ['a', 'b/*'])
  assert.equal(parsePackageJson('{"workspaces": { "nohoist": ["x"] }}').workspaces, undefined)
})

test('script names that need quoting are quoted for the shell; plain ones are not', () => {
  assert.equal(shellWord('build'), 'build')
  assert.equal(shellWord('test:unit'), 'test:unit')
  assert.equal(shellWord('@scope/x'), '@scope/x')
  assert.equal(shellWord('a b'), "'a b'")
  assert.equal(shellWord("it's"), "'it'\\''s'")
  assert.equal(shellWord('$(rm -rf /)'), "'$(rm -rf /)'")
  assert.equal(shellWord('~home'), "'~home'")
})

test('in a book, each workspace script gets a tool name that says its package', () => {
  const { book } = discover(join(FIXTURES, 'pnpm-monorepo'), { collectors: { makefile: { enabled: false }, justfile: { enabled: false }, deno: { enabled: false }, cargo: { enabled: false }, taskfile: { enabled: false } } }, { env: { PATH: '' } })
  const names = [...book.assignToolNames('scoped').values()].sort()
  assert.deepEqual(names, ['pnpm_build', 'pnpm_core_build', 'pnpm_core_test', 'pnpm_site_dev', 'pnpm_widgets_build'])
})

test('a malformed workspace package is reported with its position while the others go on (temp copy)', () => {
  const dir = tempCopy('npm-monorepo')
  writeFileSync(join(dir, 'apps/docs/package.json'), '{\n  "name": "docs",\n  "scripts": { "dev": }\n}\n')
  const result = collect(dir)
  assert.equal(result.diagnostics.length, 1)
  assert.equal(result.diagnostics[0].file, 'apps/docs/package.json')
  assert.equal(result.diagnostics[0].line, 3)
  assert.match(result.diagnostics[0].message, /line 3, column 23: expected a value/)
  assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], ['.', 'apps/web', 'packages/ui'])
  rmSync(dir, { recursive: true })
})

test('a workspace pattern that names one package directory directly works, with ./ and a trailing slash', () => {
  const dir = tempCopy('npm-monorepo')
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  pkg.workspaces = ['./apps/web/', 'packages/ui/package.json']
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2))
  assert.deepEqual([...new Set(collect(dir).recipes.map((r) => r.cwd))], ['.', 'apps/web', 'packages/ui'])
  rmSync(dir, { recursive: true })
})

test('a workspace cycle (a nested package listing its parent) ends', () => {
  const dir = tempCopy('nested')
  const file = join(dir, 'apps/platform/libs/core/package.json')
  const pkg = JSON.parse(readFileSync(file, 'utf8'))
  pkg.workspaces = ['../..', '../../../..', '../*']
  writeFileSync(file, JSON.stringify(pkg))
  const result = collect(dir)
  assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], ['.', 'apps/platform', 'apps/platform/libs/core', 'apps/platform/libs/ui', 'apps/site'])
  rmSync(dir, { recursive: true })
})

test('patterns the glob library chokes on or that climb out of the root are warnings, and the rest still match', () => {
  const dir = tempCopy('npm-monorepo')
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  pkg.workspaces = ['......', 'x/../!y', './//..', '\\/apps/*', '{..,apps}/*', '../../**', 'packages/*']
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2))
  const result = collect(dir)
  assert.deepEqual([...new Set(result.recipes.map((r) => r.cwd))], ['.', 'packages/ui'])
  const messages = result.diagnostics.map((d) => d.message)
  assert.equal(messages.filter((m) => /is not a glob command-scout can read/.test(m)).length, 1, messages.join('\n'))
  assert.equal(messages.filter((m) => /could reach outside the scanned directory/.test(m)).length, 5, messages.join('\n'))
  rmSync(dir, { recursive: true })
})

test('script lines survive escapes, look-alike keys in values, nested "scripts" objects and repeated "scripts"', () => {
  const text = [
    '{',
    '  "config": { "scripts": { "fake": "x" } },',
    '  "scripts": { "old": "gone" },',
    '  "scripts": {',
    '    "pre": "echo \\"build\\": \\\\",',
    '    "b\\u0075ild": "tsc",',
    '    "nested": "{\\"x\\": [1, {\\"y\\": 2}]}",',
    '    "last": "ok"',
    '  }',
    '}',
  ].join('\n')
  const m = parsePackageJson(text)
  assert.deepEqual(m.scripts, [
    { name: 'pre', command: 'echo "build": \\', line: 5 },
    { name: 'build', command: 'tsc', line: 6 },
    { name: 'nested', command: '{"x": [1, {"y": 2}]}', line: 7 },
    { name: 'last', command: 'ok', line: 8 },
  ])
})

test('hooks: lifecycle scripts and pre/post scripts of an existing script are marked with what they run around', () => {
  const scripts = new Set(['build', 'prebuild', 'postbuild', 'pretend', 'prepare', 'postinstall', 'install', 'version', 'dev', 'uninstall', 'preinstall'])
  assert.match(hookOf('prebuild', scripts), /^hook: runs before `build`/)
  assert.match(hookOf('postbuild', scripts), /^hook: runs after `build`/)
  assert.equal(hookOf('pretend', scripts), undefined, '`tend` is not a script, so `pretend` is no hook')
  assert.equal(hookOf('build', scripts), undefined)
  assert.equal(hookOf('dev', scripts), undefined)
  for (const name of ['prepare', 'postinstall', 'preinstall', 'install', 'version', 'uninstall', 'prepublishOnly', 'dependencies']) {
    assert.match(hookOf(name, scripts), /^lifecycle script: the package manager runs it /, name)
  }
  assert.equal(hookOf('constructor', scripts), undefined, 'no prototype names')
})
