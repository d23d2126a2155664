// The CLI as a person and a program use it: a real process on a real fixture.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const bin = new URL('../../bin/command-scout', import.meta.url).pathname
const fixture = new URL('../fixtures/mixed', import.meta.url).pathname
const cli = (args, opts = {}) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...opts })
const copy = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  cpSync(fixture, dir, { recursive: true })
  return dir
}

test('--help and --version exit 0; no command prints help and exits 2', () => {
  const help = cli(['--help'])
  assert.equal(help.status, 0)
  assert.match(help.stdout, /Usage:/)
  assert.match(help.stdout, /command-scout scan/)
  const version = cli(['--version'])
  assert.equal(version.status, 0)
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/)
  const none = cli([])
  assert.equal(none.status, 2)
})

test('usage errors exit 2 with a hint', () => {
  for (const args of [['frob'], ['scan', '--format', 'xml'], ['scan', '--bogus'], ['scan', '--naming', 'kebab'], ['run'], ['scan', 'extra']]) {
    const r = cli(args, { cwd: fixture })
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`)
    assert.match(r.stderr, /^command-scout: /)
  }
})

test('scan --format json prints one JSON object with every source', () => {
  const r = cli(['scan', '--root', fixture, '--format', 'json'])
  assert.equal(r.status, 0, r.stderr)
  const report = JSON.parse(r.stdout)
  assert.equal(report.root, fixture)
  const tools = report.recipes.map((x) => x.tool)
  for (const t of ['make_build', 'make_clean', 'make_test', 'pnpm_dev', 'pnpm_mixed_web_dev', 'just_lint', 'deno_serve', 'deno_fmt']) {
    assert.ok(tools.includes(t), `${t} missing from ${tools.join(', ')}`)
  }
  assert.ok(!tools.some((t) => t.includes('hidden')), 'private just recipe listed')
  const build = report.recipes.find((x) => x.tool === 'make_build')
  assert.equal(build.description, 'Compile the release bundle')
  assert.deepEqual(build.prerequisites, ['clean'])
  assert.deepEqual([...build.variables].sort(), ['CC', 'VERSION'])
  assert.equal(build.file, 'Makefile')
  assert.equal(report.recipes.find((x) => x.tool === 'pnpm_mixed_web_dev').cwd, 'packages/web')
  // source order: make, scripts, just, deno
  const order = [...new Set(report.recipes.map((x) => x.source))]
  assert.deepEqual(order, ['make', 'scripts', 'just', 'deno'])
  for (const f of ['Makefile', 'package.json', 'justfile', 'deno.json']) assert.ok(report.detectedFiles.includes(f), f)
})

test('scan table by default; --no-<collector> drops a source; --naming flat', () => {
  const r = cli(['scan', '--root', fixture, '--no-just', '--naming', 'flat'], { env: { ...process.env, COLUMNS: '100' } })
  assert.equal(r.status, 0)
  assert.match(r.stdout, /^TOOL\s+SOURCE/)
  assert.doesNotMatch(r.stdout, /just/)
  assert.match(r.stdout, /^build\s+make/m)
  assert.match(r.stdout, /^test_2\s+scripts/m)
  assert.match(r.stdout, /^mixed_web_dev\s+scripts/m)
  for (const line of r.stdout.trimEnd().split('\n')) assert.ok(line.length <= 100, line)
})

test('a missing root fails with exit 1 and says why', () => {
  const r = cli(['scan', '--root', '/no/such/dir'])
  assert.equal(r.status, 1)
  assert.match(r.stderr, /not a directory/)
})

test('docs writes COMMANDS.md', () => {
  const dir = copy()
  const r = cli(['docs', '--root', dir])
  assert.equal(r.status, 0, r.stderr)
  const md = readFileSync(join(dir, 'COMMANDS.md'), 'utf8')
  assert.match(md, /^# Commands/)
  assert.match(md, /`make build`/)
  assert.match(md, /## scripts/)
  const out = cli(['docs', '--root', dir, '--output', '-'])
  assert.equal(out.stdout, md)
})

test('run executes a recipe in its directory and passes its exit code', () => {
  const dir = copy()
  const r = cli(['run', 'make_build', '--root', dir])
  assert.equal(r.status, 0, r.stderr)
  assert.ok(existsSync(join(dir, 'out/build.txt')))
  assert.match(r.stderr, /^\$ make build/)
  const vars = cli(['run', 'build', '--root', dir, '--', 'VERSION=2.0', 'CC=clang'])
  assert.equal(vars.status, 0, vars.stderr)
  assert.equal(readFileSync(join(dir, 'out/build.txt'), 'utf8').trim(), 'built 2.0 with clang')
  const fail = cli(['run', 'make:nonexistent', '--root', dir])
  assert.equal(fail.status, 2)
  assert.match(fail.stderr, /no command "make:nonexistent"; available:/)
  const ambiguous = cli(['run', 'dev', '--root', dir])
  assert.equal(ambiguous.status, 2)
  assert.match(ambiguous.stderr, /ambiguous/)
  assert.match(ambiguous.stderr, /pnpm_mixed_web_dev/)
})

test('run --timeout kills the command and exits 124', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  cpSync(fixture, dir, { recursive: true })
  const r = cli(['run', 'make_build', '--root', dir, '--timeout', '300', '--', 'build', 'VERSION=$$(sleep 5)'])
  assert.equal(r.status, 124, r.stderr)
  assert.match(r.stderr, /timed out after 300 ms/)
})

test('scan: lifecycle scripts and pre/post hooks are marked in the JSON, and shown in the table only with --all', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-hooks-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { postinstall: 'node setup.js', prebuild: 'echo pre', build: 'echo build' } }))
  const json = JSON.parse(cli(['scan', '--root', dir, '--format', 'json']).stdout)
  assert.deepEqual(json.recipes.map((r) => [r.name, r.hook !== undefined]), [['postinstall', true], ['prebuild', true], ['build', false]])
  const table = cli(['scan', '--root', dir])
  assert.equal(table.status, 0, table.stderr)
  assert.doesNotMatch(table.stdout, /postinstall|prebuild/)
  assert.match(table.stdout, /npm_build/)
  assert.match(table.stdout, /2 lifecycle scripts and hooks not shown; --all lists them/)
  const all = cli(['scan', '--root', dir, '--all'])
  assert.match(all.stdout, /npm_postinstall[\s\S]*npm_prebuild[\s\S]*npm_build/)
})

test('run: a missing runner is named with how to install it, and nothing runs (exit 127)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-runner-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', packageManager: 'pnpm@9.0.0', scripts: { echo_args: 'echo' } }))
  // A PATH with node but without pnpm.
  const r = cli(['run', 'echo_args', '--root', dir], { env: { PATH: join(process.execPath, '..') === '/usr/bin' ? '/usr/bin:/bin' : `${join(process.execPath, '..')}:/bin` } })
  assert.equal(r.status, 127, r.stderr)
  assert.match(r.stderr, /^command-scout: pnpm is not installed here \(not on PATH\), so `pnpm run echo_args` can't run; install pnpm \(npm i -g pnpm, or corepack enable\)/)
  assert.doesNotMatch(r.stderr, /not found/)
})
