// Repository text never reaches a terminal raw: escape sequences and bidi controls in a Makefile
// comment, a script's name or body, a Taskfile description, or a path shown in a diagnostic or an
// error are shown escaped in the table, in COMMANDS.md and on stderr. JSON escapes them itself and
// keeps them as they are.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
// The same copies of the modules as the helpers imported beside it (the package main gives its bundle's).
import { discover } from '../../dist/src/book/discover.js'
import { renderJson, scanReport } from '../../dist/src/book/report.js'
import { tempDir } from '../support/temp.mjs'

const BIN = new URL('../../bin/command-scout', import.meta.url).pathname
const ESC = '\x1b'
// C0 (but tab and newline), DEL, C1, and the bidi controls: none may be in terminal output.
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u

function hostile(t) {
  const dir = tempDir(t, 'cs-visible-')
  // A description that clears the screen, moves up a row and rewrites it: `make nuke` would read as `make test`.
  writeFileSync(join(dir, 'Makefile'), [
    `nuke: ## Wipe ${ESC}[2J${ESC}[H everything${ESC}[1A${ESC}[2K${ESC}[32mmake test\x07`,
    '\trm -rf /',
    'test: ## Run the tests',
    '\techo test',
    '',
  ].join('\n'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'h',
    scripts: {
      // U+202E (right-to-left override) in a name, an OSC 8 link and a C1 CSI in a body.
      'deploy\u202eved': 'echo deploy',
      link: `echo ${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\ \u009b31m`,
    },
  }))
  writeFileSync(join(dir, 'Taskfile.yml'), `version: '3'\ntasks:\n  release:\n    desc: "Release ${'\\e'}[41m now \\u2066isolated\\u2069"\n    cmds: [echo release]\n`)
  // A workspace member whose name holds an escape: its diagnostic names it.
  mkdirSync(join(dir, `pkg${ESC}[31m`), { recursive: true })
  writeFileSync(join(dir, 'Cargo.toml'), '[workspace]\nmembers = ["pkg\\u001b[31m"]\n')
  return dir
}

function cli(args, env = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, COMMAND_SCOUT_CACHE: 'off', ...env } })
}

test('scan: the table shows control and bidi characters escaped, in every column', (t) => {
  const dir = hostile(t)
  const r = cli(['scan', '--root', dir], { COLUMNS: '400' })
  assert.equal(r.status, 0, r.stderr)
  assert.doesNotMatch(r.stdout, RAW, 'no raw control or bidi character in the table')
  assert.match(r.stdout, /\\x1b\[2J\\x1b\[H everything\\x1b\[1A\\x1b\[2K\\x1b\[32mmake test\\x07/)
  assert.match(r.stdout, /deploy\\u202eved/)
  assert.match(r.stdout, /\\x1b\]8;;https:\/\/evil\.example\/\\x1b\\click/)
  assert.match(r.stdout, /\\x9b31m/)
  assert.match(r.stdout, /Release \\x1b\[41m now \\u2066isolated\\u2069/)
  // Each recipe still on its own row.
  assert.equal(r.stdout.split('\n').filter((l) => /^make_nuke\s/.test(l)).length, 1)
})

test('scan: diagnostics and errors on stderr show repository text escaped', (t) => {
  const dir = hostile(t)
  const r = cli(['scan', '--root', dir, '--format', 'json'])
  assert.equal(r.status, 0)
  assert.match(r.stderr, /pkg\\x1b\[31m/, r.stderr)
  assert.doesNotMatch(r.stderr, RAW)
  // An error naming a path given on the command line.
  const missing = cli(['scan', '--root', join(dir, `gone${ESC}]0;owned${ESC}\\`)])
  assert.equal(missing.status, 1)
  assert.match(missing.stderr, /^command-scout: scan root .*gone\\x1b\]0;owned\\x1b\\ is not a directory/)
  assert.doesNotMatch(missing.stderr, RAW)
  const usage = cli(['scan', '--format', `x${ESC}[2J`])
  assert.equal(usage.status, 2)
  assert.match(usage.stderr, /got x\\x1b\[2J/)
  assert.doesNotMatch(usage.stderr, RAW)
})

test('docs and scan --format markdown: COMMANDS.md holds no raw control character', (t) => {
  const dir = hostile(t)
  for (const args of [['docs', '--root', dir, '--output', '-'], ['scan', '--root', dir, '--format', 'markdown']]) {
    const r = cli(args)
    assert.equal(r.status, 0, r.stderr)
    assert.doesNotMatch(r.stdout, RAW, args.join(' '))
    assert.doesNotMatch(r.stderr, RAW)
    assert.match(r.stdout, /Wipe \\\\x1b\\\[2J/, 'escaped, then Markdown-escaped (a backslash shows)')
    assert.match(r.stdout, /deploy\\u202eved/)
  }
})

test('scan --format json keeps the text as it is, escaped by JSON itself', (t) => {
  const dir = hostile(t)
  const r = cli(['scan', '--root', dir, '--format', 'json'])
  assert.equal(r.status, 0)
  assert.equal(r.stdout, renderJson(scanReport(discover(dir, {}, { cache: false }))))
  const report = JSON.parse(r.stdout)
  assert.ok(report.recipes.some((x) => x.description.includes(`${ESC}[2J`)), 'the JSON value is the raw text')
  assert.ok(report.recipes.some((x) => x.name === 'deploy\u202eved'))
  assert.match(r.stdout, /\\u001b\[2J/)
})
