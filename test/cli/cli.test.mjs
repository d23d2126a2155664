// The CLI as a person and a program use it: a real process on a real fixture.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, lstatSync, mkdtempSync, readFileSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const bin = new URL('../../bin/command-scout', import.meta.url).pathname
const fixture = new URL('../fixtures/mixed', import.meta.url).pathname
const cli = (args, opts = {}) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...opts })
/** A copy of the mixed fixture, removed after the test `t` whether it passes or not. */
const copy = (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
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

test('docs writes COMMANDS.md', (t) => {
  const dir = copy(t)
  const r = cli(['docs', '--root', dir])
  assert.equal(r.status, 0, r.stderr)
  const md = readFileSync(join(dir, 'COMMANDS.md'), 'utf8')
  assert.match(md, /^# Commands/)
  assert.match(md, /`make build`/)
  assert.match(md, /## scripts/)
  const out = cli(['docs', '--root', dir, '--output', '-'])
  assert.equal(out.stdout, md)
})

test('run executes a recipe in its directory and passes its exit code', (t) => {
  const dir = copy(t)
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

test('run --timeout kills the command and exits 124', (t) => {
  const dir = copy(t)
  // The value is shell code make runs where it expands VERSION: the gate asks, and --yes answers.
  const r = cli(['run', 'make_build', '--root', dir, '--timeout', '300', '--yes', '--', 'build', 'VERSION=$$(sleep 5)'])
  assert.equal(r.status, 124, r.stderr)
  assert.match(r.stderr, /timed out after 300 ms/)
})

test('each subcommand has its own --help, and `help NAME` is the same text', () => {
  const global = cli(['--help']).stdout
  for (const name of ['scan', 'docs', 'run', 'recipes']) {
    const r = cli([name, '--help'])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`^command-scout ${name}: `))
    assert.notEqual(r.stdout, global)
    assert.equal(cli(['help', name]).stdout, r.stdout)
  }
  assert.match(cli(['scan', '--help']).stdout, /--no-make --no-scripts --no-just --no-deno --no-cargo --no-task/)
  assert.match(cli(['run', '--help']).stdout, /--timeout MS/)
  assert.match(cli(['docs', '--help']).stdout, /--output FILE/)
})

test('every help text fits an 80-column terminal', () => {
  const topics = [[], ['scan'], ['docs'], ['run'], ['recipes'], ['mcp'], ['serve'], ['watch'], ['dsh'], ...['list', 'show', 'render', 'validate', 'skills'].map((s) => ['recipes', s])]
  for (const topic of topics) {
    const r = cli([...topic, '--help'])
    assert.equal(r.status, 0, `${topic.join(' ')}: ${r.stderr}`)
    for (const line of r.stdout.split('\n')) assert.ok(line.length <= 80, `${topic.join(' ') || 'command-scout'} --help: ${line.length} columns: ${line}`)
  }
})

test('option mistakes are one clean line naming the option, then the subcommand\'s help', () => {
  const cases = [
    [['scan', '--bogus'], 'unknown option --bogus', 'scan'],
    [['scan', '-x'], 'unknown option -x', 'scan'],
    [['docs', '--root'], '--root needs a value', 'docs'],
    [['run', 'x', '--help=yes'], '--help takes no value', 'run'],
    [['--bogus'], 'unknown option --bogus; expected scan, docs, run, recipes, mcp, serve, watch or dsh', ''],
    [['recipes', 'list', '--bogus'], 'recipes: unknown option --bogus', 'recipes list'],
    [['recipes', 'render', 'x', '--param'], 'recipes: --param needs a value', 'recipes render'],
    [['help', 'nosuch'], 'no help for "nosuch": it is not a command', ''],
  ]
  for (const [args, message, command] of cases) {
    const r = cli(args, { cwd: fixture })
    assert.equal(r.status, 2, args.join(' '))
    assert.equal(r.stderr, `command-scout: ${message}\nTry 'command-scout${command ? ` ${command}` : ''} --help'.\n`)
    // parseArgs' own advice has an unbalanced quote; none of it reaches the user.
    assert.doesNotMatch(r.stderr, /To specify a positional/)
  }
})

test('a missing root is one line, with no table or "No commands found."', () => {
  const r = cli(['scan', '--root', '/nonexistent/root'])
  assert.equal(r.status, 1)
  assert.equal(r.stdout, '')
  assert.equal(r.stderr, 'command-scout: scan root /nonexistent/root is not a directory (it does not exist)\n')
  const json = cli(['scan', '--root', '/nonexistent/root', '--format', 'json'])
  assert.equal(json.status, 1)
  assert.equal(JSON.parse(json.stdout).diagnostics[0].source, 'scan')
  const docs = cli(['docs', '--root', '/nonexistent/root'])
  assert.equal(docs.status, 1)
  assert.equal(docs.stderr.split('\n').length, 2, docs.stderr)
})

test('a working directory removed under the shell is one line and exit 1', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const quote = (x) => `'${x.replace(/'/g, `'\\''`)}'`
  for (const args of ['scan --format json', '--version']) {
    const r = spawnSync('sh', ['-c', `mkdir gone && cd gone && rmdir ../gone && exec ${quote(process.execPath)} ${quote(bin)} ${args}`], { cwd: dir, encoding: 'utf8' })
    assert.equal(r.status, 1, r.stderr)
    assert.equal(r.stderr, 'command-scout: the current directory no longer exists; cd into one that does and run it again\n')
    assert.equal(r.stdout, '')
  }
})

test('a file that can\'t be written is one line, never a stack trace', (t) => {
  const dir = copy(t)
  for (const output of ['/nonexistent/dir/x.md', dir]) {
    const r = cli(['docs', '--root', dir, '--output', output])
    assert.equal(r.status, 1)
    assert.match(r.stderr, /^command-scout: can't write /)
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr)
    assert.doesNotMatch(r.stderr, /\bat \w+ \(|node:fs/)
  }
})

test('run with an unknown name lists the candidates in aligned columns that fit the terminal', (t) => {
  const dir = copy(t)
  const r = cli(['run', 'nosuch', '--root', dir], { env: { ...process.env, COLUMNS: '60' } })
  assert.equal(r.status, 2)
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('  '))
  assert.ok(lines.length >= 10, r.stderr)
  // Every command starts in the same column, and tool names are never cut: they are what one types.
  const starts = new Set(lines.map((l) => l.search(/(make|pnpm|just|deno)( (run |task )?\S|$)/)))
  assert.equal(starts.size, 1, r.stderr)
  assert.ok(lines.some((l) => l.startsWith('  pnpm_mixed_web_task_13b1af44 ')), r.stderr)
  for (const l of lines) assert.ok(l.length <= 60, l)
  assert.match(r.stderr, /Try 'command-scout run --help'/)
})

test('run --timeout says so before the output and on its own line after it', (t) => {
  const dir = copy(t)
  // `printf` leaves no newline, so the closing message must add one.
  const r = cli(['run', 'make_build', '--root', dir, '--timeout', '300', '--yes', '--', 'build', 'VERSION=$$(printf partial >&2; sleep 5)'])
  assert.equal(r.status, 124, r.stderr)
  const lines = r.stderr.split('\n')
  assert.match(lines[0], /^\$ make build .*\[timeout 300 ms\]$/)
  assert.ok(lines.some((l) => /^command-scout: timed out after 300 ms: `make build.*--timeout counts milliseconds$/.test(l)), r.stderr)
})

test('COMMANDS.md holds nothing about this machine and keeps a description apart from its details', (t) => {
  const dir = copy(t)
  // A PATH with nothing on it: every runner is missing here, which the file must not mention.
  const env = { ...process.env, PATH: join(dir, 'no-such-bin') }
  const r = cli(['docs', '--root', dir, '--output', '-'], { env })
  assert.equal(r.status, 0, r.stderr)
  assert.doesNotMatch(r.stdout, /not on PATH|can't run here/)
  assert.match(r.stderr, /make is not on PATH/)
  assert.match(r.stdout, /\| Command \| Directory \| Description \| Prerequisites \| Variables \| Tool \|/)
  assert.match(r.stdout, /\| `make build` \| \. \| Compile the release bundle \| clean \| `VERSION`, `CC` \| `make_build` \|/)
})

test('dsh overlay: every row of cordis.patch.yml, each an absolute path to a built file', (t) => {
  const repo = new URL('../..', import.meta.url).pathname.replace(/\/$/, '')
  const r = cli(['dsh', 'overlay'])
  assert.equal(r.status, 0, r.stderr)
  const layer = readFileSync(join(repo, 'cordis.patch.yml'), 'utf8')
  const ids = [...layer.matchAll(/^ {4}- id: (\S+)$/gm)].map((m) => m[1])
  assert.deepEqual([...r.stdout.matchAll(/^ {4}- id: (\S+)$/gm)].map((m) => m[1]), ids)
  const names = [...r.stdout.matchAll(/^ {6}name: (\S+)$/gm)].map((m) => m[1])
  assert.equal(names.length, ids.length)
  for (const name of names) assert.ok(name.startsWith(`${repo}/dist/src/`) && existsSync(name), name)
  // The rows' config comes along, so the overlay is the whole layer.
  assert.match(r.stdout, /exposure: auto/)
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const out = cli(['dsh', 'overlay', '-o', join(dir, 'o.yml')])
  assert.equal(out.status, 0, out.stderr)
  assert.equal(readFileSync(join(dir, 'o.yml'), 'utf8'), r.stdout)
})

test('dsh: help, and usage errors point to it', () => {
  const help = cli(['dsh', '--help'])
  assert.equal(help.status, 0)
  assert.match(help.stdout, /Node >= 22\.19/)
  const bad = cli(['dsh', 'frob'])
  assert.equal(bad.status, 2)
  assert.match(bad.stderr, /unknown dsh action "frob"; expected install, path or overlay\nTry 'command-scout dsh --help'/)
})

test('an unexpected error is one line; the stack only with COMMAND_SCOUT_DEBUG', async () => {
  const { describeError } = await import('../../dist/src/cli/main.js')
  const system = Object.assign(new Error("EACCES: permission denied, open '/x/y.md'"), { code: 'EACCES', syscall: 'open', path: '/x/y.md' })
  assert.deepEqual(describeError(system, {}), { text: "command-scout: can't open /x/y.md: permission denied (EACCES)\n", exitCode: 1 })
  const bug = new Error('something broke\nsecond line')
  assert.deepEqual(describeError(bug, {}), { text: 'command-scout: something broke\n', exitCode: 1 })
  assert.match(describeError(bug, { COMMAND_SCOUT_DEBUG: '1' }).text, /^command-scout: something broke\nError: something broke\n[\s\S]*\n {4}at /)
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
  // Each hook is marked as one, the command it runs after; the others are not.
  assert.match(all.stdout, /npm run postinstall +\[hook\] node setup\.js\n/)
  assert.match(all.stdout, /npm run prebuild +\[hook\] echo pre\n/)
  assert.match(all.stdout, /npm run build +echo build\n/)
})

test('a Python entry point that is not installed: scan, the JSON and run say to install the project, not a package of that name', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-entry-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "demo"\nversion = "1.0"\n\n[project.scripts]\ndemo-cli-not-installed = "demo.cli:main"\n')
  const env = { PATH: join(process.execPath, '..') === '/usr/bin' ? '/usr/bin:/bin' : `${join(process.execPath, '..')}:/bin` }
  const scan = cli(['scan', '--root', dir, '--format', 'json'], { env })
  assert.equal(scan.status, 0, scan.stderr)
  const [recipe] = JSON.parse(scan.stdout).recipes
  assert.match(recipe.install, /^install the project into an environment from its root \(pip install -e \., or uv pip install -e \.\)/)
  assert.match(scan.stderr, /demo-cli-not-installed is not on PATH: 1 recipe from pyproject\.toml is listed but can't run here; install the project into an environment from its root \(pip install -e \./)
  const run = cli(['run', recipe.tool, '--root', dir], { env })
  assert.equal(run.status, 127, run.stderr)
  assert.match(run.stderr, /^command-scout: demo-cli-not-installed is not installed here \(not on PATH\), so `demo-cli-not-installed` can't run; install the project into an environment from its root \(pip install -e \./)
  // A runner the table knows keeps the table's hint, and its recipes carry no install field.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', packageManager: 'pnpm@9.0.0', scripts: { build: 'tsc' } }))
  const both = JSON.parse(cli(['scan', '--root', dir, '--format', 'json', '--no-cache'], { env }).stdout)
  assert.equal(both.recipes.find((r) => r.source === 'scripts').install, undefined)
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

test('dsh overlay -o: a planted link is replaced, not written through; a FIFO is a clear error, not a hang', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'victim'), 'keep\n')
  symlinkSync(join(dir, 'victim'), join(dir, 'o.yml'))
  const out = cli(['dsh', 'overlay', '-o', join(dir, 'o.yml')])
  assert.equal(out.status, 0, out.stderr)
  assert.equal(readFileSync(join(dir, 'victim'), 'utf8'), 'keep\n')
  assert.ok(!lstatSync(join(dir, 'o.yml')).isSymbolicLink())
  spawnSync('mkfifo', [join(dir, 'pipe.yml')])
  const fifo = cli(['dsh', 'overlay', '-o', join(dir, 'pipe.yml')], { timeout: 20_000 })
  assert.equal(fifo.status, 1, fifo.stderr)
  assert.match(fifo.stderr, /FIFO/)
  assert.doesNotMatch(fifo.stderr, /\n\s+at /, 'no stack trace')
})
