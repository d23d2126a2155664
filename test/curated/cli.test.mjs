import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { main } from '../../dist/src/cli/main.js'

const fixtures = new URL('../fixtures/curated/', import.meta.url).pathname
const valid = join(fixtures, 'valid')
const bin = new URL('../../bin/command-scout', import.meta.url).pathname

async function run(...argv) {
  let stdout = ''
  let stderr = ''
  // The fixture libraries reuse ids of the shipped library, so the shipped one stays out unless a test asks.
  const isolated = argv.includes('--with-shipped') ? argv.filter((a) => a !== '--with-shipped') : [...argv, ...(['list', 'show', 'render', 'validate'].includes(argv[0]) && !argv.includes('--help') ? ['--no-shipped'] : [])]
  const code = await main(['recipes', ...isolated], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: fixtures })
  return { code, stdout, stderr }
}

test('list: a table for people, words and filters narrow it', async () => {
  const all = await run('list', '--dir', valid)
  assert.equal(all.code, 0)
  assert.match(all.stdout, /^Available recipes:\n {4}docker\.prune_everything +destructive +Free disk space used by Docker\n/)
  const some = await run('list', 'disk', '--dir', valid)
  assert.deepEqual(some.stdout.trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0]), ['docker.prune_everything', 'files.find_large_files'])
  const none = await run('list', 'kubernetes', '--dir', valid)
  assert.equal(none.code, 0)
  assert.equal(none.stdout, '')
  assert.match(none.stderr, /No recipe matches/)
})

test('list --format json is a versioned DTO with every key present', async () => {
  const r = await run('list', '--dir', valid, '--risk', 'read_only', '--format', 'json')
  const dto = JSON.parse(r.stdout)
  assert.equal(dto.version, 1)
  assert.deepEqual(dto.recipes.map((x) => x.id), ['files.find_large_files', 'network.check_port'])
  assert.deepEqual(Object.keys(dto.recipes[0]), ['id', 'version', 'title', 'category', 'tags', 'risk', 'requires_confirmation', 'platforms', 'file'])
  assert.deepEqual(dto.issues, [])
})

test('show: risk stated plainly, steps for the platform, verification, undo, pitfalls', async () => {
  const r = await run('show', 'docker.prune_everything', '--dir', valid, '--platform', 'macos')
  assert.equal(r.code, 0)
  assert.match(r.stdout, /^Free disk space used by Docker {2}\(docker\.prune_everything v1\)\nrisk: DESTRUCTIVE; can't be undone — asks for confirmation\n/)
  assert.match(r.stdout, /Steps \(macos, same as linux\):\n {2}1\. See what uses space {2}\[read_only\]\n {7}\$ docker system df\n/)
  assert.match(r.stdout, /Undo: not possible\n {4}note: Deleted images/)
  assert.match(r.stdout, /Pitfalls:\n {2}- Images you built locally/)
  const json = JSON.parse((await run('show', 'git.create_branch', '--dir', valid, '--format', 'json')).stdout)
  assert.equal(json.parameters[0].pattern, '^[A-Za-z0-9._/-]+$')
})

test('render: json is the Specification response; --param fills and quotes values', async () => {
  const r = await run('render', 'files.append_line', '--dir', valid, '--platform', 'linux', '--param', 'line=a $(b)', '--param', 'file=x.txt', '--format', 'json')
  assert.equal(r.code, 0, r.stderr)
  const out = JSON.parse(r.stdout)
  assert.deepEqual(Object.keys(out), ['id', 'version', 'risk', 'requires_confirmation', 'commands', 'verification', 'undo'])
  assert.equal(out.commands[0].command, "printf '%s\\n' 'a $(b)' >> x.txt")
  const text = await run('render', 'network.check_port', '--dir', valid, '-p', 'macos', '--param', 'port=3000')
  assert.match(text.stdout, /^Show which process listens on a port {2}\(network\.check_port v1, macos\)\nrisk: read-only/)
  assert.match(text.stdout, /\nlsof -nP -iTCP:3000 -sTCP:LISTEN\n/)
})

test('render failures exit 1 with the code; usage errors exit 2 with a hint', async () => {
  const missing = await run('render', 'network.check_port', '--dir', valid, '-p', 'linux')
  assert.equal(missing.code, 1)
  assert.equal(missing.stderr, 'command-scout: recipe `network.check_port` needs parameter `port` (number): The TCP port. [RECIPE_MISSING_PARAM]\n')
  const unknown = await run('render', 'git.undo_last_comit', '--dir', valid)
  assert.equal(unknown.code, 1)
  assert.match(unknown.stderr, /did you mean `git\.undo_last_commit`\?/)
  const badParam = await run('render', 'network.check_port', '--dir', valid, '--param', 'port')
  assert.equal(badParam.code, 2)
  assert.match(badParam.stderr, /--param takes NAME=VALUE/)
  const badPlatform = await run('render', 'network.check_port', '--dir', valid, '--platform', 'bsd')
  assert.equal(badPlatform.code, 2)
  assert.match(badPlatform.stderr, /--platform must be one of macos, linux, windows/)
  const wrongOption = await run('list', '--param', 'x=1')
  assert.equal(wrongOption.code, 2)
  assert.match(wrongOption.stderr, /`recipes list` does not take --param\nTry 'command-scout recipes list --help'\.\n/)
  assert.equal((await run('frobnicate')).code, 2)
})

test('validate: exit 0 on a clean library, 1 with just-style errors, json on request', async () => {
  const ok = await run('validate', valid)
  assert.equal(ok.code, 0)
  assert.equal(ok.stdout, 'ok: 6 recipe files checked: 0 errors, 0 warnings\n')
  const bad = await run('validate', join(fixtures, 'invalid', 'E_TITLE_TOO_LONG'))
  assert.equal(bad.code, 1)
  assert.match(bad.stderr, /^error: title of recipe `files\.list_dir` is 66 characters; shorten it to at most 60 \[E_TITLE_TOO_LONG\]\n ——▶ invalid\/E_TITLE_TOO_LONG\/files\/list-dir\.yaml:3:8\n {2}\|\n3 \| title: List a directory/)
  const file = await run('validate', join(fixtures, 'invalid', 'E_SHELL_SYNTAX', 'files', 'list-dir.yaml'), '--format', 'json')
  assert.equal(file.code, 1)
  const dto = JSON.parse(file.stdout)
  assert.equal(dto.ok, false)
  assert.deepEqual(dto.issues.map((i) => i.code), ['E_SHELL_SYNTAX'])
})

test('validate: a user library clashing with another reports the later file', async () => {
  const dup = join(fixtures, 'invalid', 'E_DUPLICATE_ID')
  const r = await run('validate', join(dup, 'lib-b'), '--dir', join(dup, 'lib-a'))
  assert.equal(r.code, 1)
  assert.match(r.stderr, /id `files\.list_dir` is already used by/)
  assert.match(r.stderr, /lib-b\/files\/list-dir\.yaml:1:5/)
})

test('--help for each subcommand goes to stdout with exit 0', async () => {
  for (const sub of ['list', 'show', 'render', 'validate']) {
    const r = await run(sub, '--help')
    assert.equal(r.code, 0)
    assert.match(r.stdout, new RegExp(`^command-scout recipes ${sub}: `))
  }
  const top = await run('--help')
  assert.match(top.stdout, /Exit codes: 0 success, 1 failure/)
})

test('the launcher runs `recipes validate` and passes the exit code through', () => {
  const r = spawnSync(process.execPath, [bin, 'recipes', 'validate', join(fixtures, 'invalid', 'E_UNKNOWN_RISK')], { encoding: 'utf8' })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /risk `high` of recipe `files\.list_dir` is not a risk level; use one of read_only, low, medium, destructive \[E_UNKNOWN_RISK\]/)
})

test('with the shipped library loaded, a --dir recipe clashing with a shipped id is left out and the shipped one serves', async () => {
  const r = await run('show', 'git.undo_last_commit', '--dir', valid, '--format', 'json', '--with-shipped')
  assert.equal(r.code, 0)
  assert.match(JSON.parse(r.stdout).file, /\/recipes\/git\/undo-last-commit\.yaml$/)
  assert.match(r.stderr, /recipe files? failed validation and (is|are) left out; run `command-scout recipes validate/)
  const v = await run('validate', valid, '--with-shipped')
  assert.equal(v.code, 1)
  assert.match(v.stderr, /id `git\.undo_last_commit` is already used by `[^`]*\/recipes\/git\/undo-last-commit\.yaml`; the first one is kept/)
  assert.doesNotMatch(v.stderr, /——▶ [^\n]*\/recipes\//, 'only problems in the given paths are reported')
})
