// The CLI as a person and a program use it: a real process on a real fixture.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, existsSync } from 'node:fs'
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
