// `docs` never writes where it shouldn't: a planted symlink is replaced, not followed; a FIFO or
// a directory at the target is a clear error; names can't close a code span in COMMANDS.md.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync, execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { codeSpan } from '../../dist/src/book/report.js'

const bin = new URL('../../bin/command-scout', import.meta.url).pathname
const cli = (args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 })

function sandbox(t) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-docs-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const repo = join(dir, 'a', 'b', 'repo')
  mkdirSync(repo, { recursive: true })
  writeFileSync(join(repo, 'Makefile'), '.PHONY: build\nbuild: ## Build it\n\t@true\n')
  return { dir, repo }
}

test('COMMANDS.md -> ../../../outside/x: the link is replaced, the outside file is untouched', (t) => {
  const { dir, repo } = sandbox(t)
  mkdirSync(join(dir, 'outside'))
  writeFileSync(join(dir, 'outside', 'x'), 'precious\n')
  symlinkSync('../../../outside/x', join(repo, 'COMMANDS.md'))
  const r = cli(['docs', '--root', repo])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(readFileSync(join(dir, 'outside', 'x'), 'utf8'), 'precious\n')
  assert.ok(lstatSync(join(repo, 'COMMANDS.md')).isFile(), 'COMMANDS.md is now a regular file')
  assert.match(readFileSync(join(repo, 'COMMANDS.md'), 'utf8'), /`make build`/)
  assert.match(r.stdout, /symbolic link/)
  assert.deepEqual(readdirSync(repo).filter((n) => n.endsWith('.tmp')), [], 'no temporary file is left')
})

test('a FIFO COMMANDS.md is a clear error, not a hang', (t) => {
  const { repo } = sandbox(t)
  execFileSync('mkfifo', [join(repo, 'COMMANDS.md')])
  const r = cli(['docs', '--root', repo])
  assert.equal(r.status, 1)
  assert.match(r.stderr, /COMMANDS\.md is a FIFO \(named pipe\), not a file/)
  assert.doesNotMatch(r.stderr, /\n\s+at /)
})

test('a directory COMMANDS.md is a clear error without a stack trace', (t) => {
  const { repo } = sandbox(t)
  mkdirSync(join(repo, 'COMMANDS.md'))
  const r = cli(['docs', '--root', repo])
  assert.equal(r.status, 1)
  assert.match(r.stderr, /COMMANDS\.md is a directory, not a file; remove it or choose another file with --output/)
  assert.doesNotMatch(r.stderr, /\n\s+at /)
})

test('an existing COMMANDS.md is replaced whole, keeping its mode', (t) => {
  const { repo } = sandbox(t)
  writeFileSync(join(repo, 'COMMANDS.md'), 'old'.repeat(10_000), { mode: 0o640 })
  const r = cli(['docs', '--root', repo])
  assert.equal(r.status, 0, r.stderr)
  assert.match(readFileSync(join(repo, 'COMMANDS.md'), 'utf8'), /^# Commands/)
  assert.equal(lstatSync(join(repo, 'COMMANDS.md')).mode & 0o777, 0o640)
})

/** The code spans of a line, CommonMark style: a run of n backticks closes only at a run of exactly n. */
function codeSpans(line) {
  const spans = []
  const runs = [...line.matchAll(/`+/g)].filter((m) => m.index === 0 || line[m.index - 1] !== '\\')
  for (let i = 0; i < runs.length; i++) {
    const close = runs.findIndex((r, j) => j > i && r[0].length === runs[i][0].length)
    if (close === -1) continue
    spans.push(line.slice(runs[i].index + runs[i][0].length, runs[close].index))
    i = close
  }
  return spans
}

test('a workspace folder named `$(touch${IFS}x)` stays inside its own code span', (t) => {
  const { repo } = sandbox(t)
  const evil = '`$(touch${IFS}x)`'
  const pkg = join(repo, 'packages', evil)
  mkdirSync(pkg, { recursive: true })
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'root', workspaces: ['packages/*'], scripts: { 'a`b|c': 'echo `x`' } }))
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: evil, scripts: { build: 'true' } }))
  const r = cli(['docs', '--root', repo, '--output', '-'])
  assert.equal(r.status, 0, r.stderr)
  const rows = r.stdout.split('\n').filter((l) => l.startsWith('| `'))
  assert.ok(rows.length >= 3, r.stdout)
  for (const row of rows) {
    // The command's code span holds the whole command, and the row keeps its four cells.
    const cells = row.split(/(?<!\\)\|/).slice(1, -1)
    assert.equal(cells.length, 4, row)
    assert.equal(codeSpans(cells[0]).length, 1, row)
  }
  // Each command reads back whole from its code span (GFM unescapes `\|` in table cells first).
  const commands = JSON.parse(cli(['scan', '--root', repo, '--format', 'json']).stdout).recipes.map((x) => x.command)
  const shown = rows.map((row) => codeSpans(row.replace(/\\\|/g, '|').split(/ \| /)[0].slice(2))[0]?.trim())
  for (const c of commands) assert.ok(shown.includes(c), `${c} not shown whole in ${JSON.stringify(shown)}`)
  // The folder name shows as text, escaped, so its backticks open no code span.
  const pkgRow = rows.find((l) => l.includes('touch'))
  assert.equal(codeSpans(pkgRow.split(/(?<!\\)\|/)[2]).length, 0, pkgRow)
  for (const text of ['a`b', '``x``', '`', 'plain', 'a|b']) {
    const span = codeSpan(text, false)
    assert.equal(codeSpans(span).length, 1, span)
    const inner = codeSpans(span)[0]
    assert.equal(inner.length > text.length && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner, text)
  }
})
