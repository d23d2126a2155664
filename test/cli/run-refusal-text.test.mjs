// A refusal of `command-scout run` shows the repository's text escaped: a recipe line holding an
// escape sequence can't repaint the question or the refusal a person reads.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync, execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tempDir } from '../support/temp.mjs'

const CLI = fileURLToPath(new URL('../../bin/command-scout', import.meta.url))

test('a destructive line with an escape sequence is refused with the sequence escaped', (t) => {
  const root = tempDir(t, 'cs-run-escape-')
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src/a.c'), 'int x;\n')
  writeFileSync(join(root, 'Makefile'), '.PHONY: nuke\nnuke:\n\trm -rf src "\x1b[2K\x1b[1Aok"\n')
  execFileSync('git', ['init', '-q'], { cwd: root })
  execFileSync('git', ['add', '-A'], { cwd: root })
  const run = spawnSync(process.execPath, [CLI, 'run', 'nuke', '--root', root], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  assert.equal(run.status, 2, run.stderr)
  assert.ok(!run.stderr.includes('\x1b'), `no raw ESC in: ${JSON.stringify(run.stderr)}`)
  assert.match(run.stderr, /\\x1b\[2K/)
  assert.ok(existsSync(join(root, 'src/a.c')), 'nothing was deleted')
})
