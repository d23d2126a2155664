import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { loadLibrary, renderRecipe, RecipeRenderError, quotePosix, quotePowerShell } from '../../dist/src/curated/index.js'

const fixtures = new URL('../fixtures/curated/', import.meta.url).pathname
const lib = loadLibrary([join(fixtures, 'valid')])
const code = (fn) => {
  try {
    fn()
  } catch (error) {
    assert.ok(error instanceof RecipeRenderError, `expected a RecipeRenderError, got ${error}`)
    return error.code
  }
  assert.fail('expected a RecipeRenderError')
}

test('renders the Specification example exactly, with same_as resolved', () => {
  assert.deepEqual(renderRecipe(lib, 'git.undo_last_commit', { platform: 'linux' }), {
    id: 'git.undo_last_commit',
    version: 1,
    risk: 'medium',
    requires_confirmation: false,
    commands: [
      { command: 'git log --oneline -1', purpose: 'Show the commit that will be removed', risk: 'read_only' },
      { command: 'git reset --soft HEAD~1', purpose: 'Remove the commit, keep changes staged', risk: 'medium' },
    ],
    verification: [{ command: 'git status', expect: 'Changes staged, previous commit gone from `git log`.' }],
    undo: { possible: true, commands: ["git reset 'HEAD@{1}'"] },
  })
})

test('applies defaults, a step without risk takes the recipe risk, and possible:false carries its note', () => {
  const r = renderRecipe(lib, 'files.find_large_files', { platform: 'macos' })
  assert.equal(r.commands[0].command, 'find . -type f -size +100M -exec du -m {} + 2>/dev/null | sort -nr | head -n 50')
  assert.equal(r.commands[0].risk, 'read_only')
  assert.deepEqual(r.undo, { possible: false, commands: [], note: 'Nothing to undo; the recipe only reads.' })
  const w = renderRecipe(lib, 'files.find_large_files', { platform: 'windows', params: { path: 'C:\\My Files', min_size: '5', unit: 'G' } })
  assert.equal(w.commands[0].command, "Get-ChildItem -Path 'C:\\My Files' -Recurse -File | Where-Object Length -gt (5 * 1GB) | Sort-Object -Property Length -Descending")
})

test('a destructive recipe always requires confirmation', () => {
  const r = renderRecipe(lib, 'docker.prune_everything', { platform: 'linux', params: { volumes: true } })
  assert.equal(r.requires_confirmation, true)
  assert.equal(r.risk, 'destructive')
  assert.equal(r.commands[2].command, 'test true = false || docker volume prune --force')
  assert.equal(r.commands[0].risk, 'read_only')
  assert.equal(r.commands[1].risk, 'destructive')
})

test('parameters: numbers and booleans accept their text form; strings are quoted', () => {
  assert.equal(renderRecipe(lib, 'network.check_port', { platform: 'linux', params: { port: '8080' } }).commands[0].command, 'ss -ltnp sport = :8080')
  assert.equal(renderRecipe(lib, 'network.check_port', { platform: 'linux', params: { port: 443 } }).commands[0].command, 'ss -ltnp sport = :443')
  const r = renderRecipe(lib, 'files.append_line', { platform: 'linux', params: { line: "it's done", file: 'my notes.txt' } })
  assert.equal(r.commands[0].command, `printf '%s\\n' 'it'\\''s done' >> 'my notes.txt'`)
})

test('errors carry stable codes and name the fix', () => {
  assert.equal(code(() => renderRecipe(lib, 'git.undo_last_comit', { platform: 'linux' })), 'RECIPE_UNKNOWN')
  assert.throws(() => renderRecipe(lib, 'git.nope', { platform: 'linux' }), /no recipe `git.nope`/)
  assert.equal(code(() => renderRecipe(lib, 'network.check_port', { platform: 'windows', params: { port: 1 } })), 'RECIPE_UNSUPPORTED_PLATFORM')
  assert.throws(() => renderRecipe(lib, 'network.check_port', { platform: 'windows', params: { port: 1 } }), /supports macos, linux/)
  assert.equal(code(() => renderRecipe(lib, 'git.create_branch', { platform: 'bsd' })), 'RECIPE_UNKNOWN_PLATFORM')
  assert.equal(code(() => renderRecipe(lib, 'git.create_branch', { platform: 'linux', params: { brnch: 'x' } })), 'RECIPE_UNKNOWN_PARAM')
  assert.equal(code(() => renderRecipe(lib, 'network.check_port', { platform: 'linux' })), 'RECIPE_MISSING_PARAM')
  assert.equal(code(() => renderRecipe(lib, 'network.check_port', { platform: 'linux', params: { port: '80; rm -rf ~' } })), 'RECIPE_INVALID_PARAM')
  assert.equal(code(() => renderRecipe(lib, 'files.find_large_files', { platform: 'linux', params: { unit: 'T' } })), 'RECIPE_INVALID_PARAM')
  assert.equal(code(() => renderRecipe(lib, 'docker.prune_everything', { platform: 'linux', params: { volumes: 'yes' } })), 'RECIPE_INVALID_PARAM')
  assert.throws(() => renderRecipe(lib, 'git.create_branch', { platform: 'linux', params: { branch: 'a b' } }), /letters, digits, dot/)
  assert.equal(code(() => renderRecipe(lib, 'files.append_line', { platform: 'linux', params: { line: '--help' } })), 'RECIPE_INVALID_PARAM')
  assert.equal(code(() => renderRecipe(lib, 'files.append_line', { platform: 'linux', params: { line: 'a\0b' } })), 'RECIPE_INVALID_PARAM')
})

test('a recipe that failed validation is reported as invalid, not unknown', () => {
  const bad = loadLibrary([join(fixtures, 'invalid', 'E_TITLE_TOO_LONG')])
  assert.equal(code(() => renderRecipe(bad, 'files.list_dir', { platform: 'linux' })), 'RECIPE_INVALID')
})

test('POSIX quoting: bare when safe, single quotes otherwise', () => {
  assert.equal(quotePosix('HEAD~1'), "'HEAD~1'")
  assert.equal(quotePosix('feature/x-1'), 'feature/x-1')
  assert.equal(quotePosix(''), "''")
  assert.equal(quotePosix('~'), "'~'")
  // Quotes don't stop a program reading an option, so a leading dash stays bare (patterns refuse it where it matters).
  assert.equal(quotePosix('-rf'), '-rf')
  assert.equal(quotePosix('--reporter=dot'), '--reporter=dot')
  assert.equal(quotePosix('=cmd'), "'=cmd'")
  assert.equal(quotePosix('构建'), '构建')
  assert.equal(quotePosix('a\u202eb'), "'a\u202eb'")
  assert.equal(quotePosix('a\nb'), "'a\nb'")
  assert.equal(quotePosix("a'b"), "'a'\\''b'")
  assert.equal(quotePosix('$(x)'), "'$(x)'")
})

test('PowerShell quoting doubles straight and typographic single quotes', () => {
  assert.equal(quotePowerShell('C:\\x'), "'C:\\x'")
  assert.equal(quotePowerShell("it's"), "'it''s'")
  assert.equal(quotePowerShell('a\u2019b'), "'a\u2019\u2019b'")
  assert.equal(quotePowerShell('$env:PATH'), "'$env:PATH'")
  assert.equal(quotePowerShell('a,b'), "'a,b'")
  assert.equal(quotePowerShell('@x'), "'@x'")
  assert.equal(quotePowerShell('plain.txt'), 'plain.txt')
})

test('placeholders: quoting context is tracked through command substitutions', async () => {
  const { placeholders } = await import('../../dist/src/curated/template.js')
  const q = (cmd) => placeholders(cmd).map((p) => `${p.name}:${p.quotedBy ?? '-'}`)
  assert.deepEqual(q('ls {{a}}'), ['a:-'])
  assert.deepEqual(q("echo '{{a}}' \"{{b}}\""), ["a:'", 'b:"'])
  assert.deepEqual(q('git checkout "$(git rev-list -n 1 HEAD -- {{path}})^" -- {{path}}'), ['path:-', 'path:-'])
  assert.deepEqual(q('echo "$(echo "{{x}}")"'), ['x:"'])
  assert.deepEqual(q('echo `ls {{x}}` "a\\"{{y}}"'), ['x:-', 'y:"'])
  assert.deepEqual(q("echo $'{{x}}' \\'{{y}}"), ["x:'", 'y:-'])
  assert.deepEqual(q('echo "$( (cd {{d}}) )" {{e}}'), ['d:-', 'e:-'])
  assert.deepEqual(q('echo ${{v}} $({{w}})'), ['v:$', 'w:-'])
})
