// Two judgements of command lines, each with its own reader and policy: the destructive gate
// (book/risk, a real shell parser, for a project's own commands) and the curated recipe rules
// (curated/commands.ts over shell-words.ts, for how-tos a person fills in). Where both see harm both
// say so; where they differ, they differ by policy, not by reading the words differently.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readShellLine, shellScript } from '../../dist/src/curated/shell-split.js'
import { judgeCommand } from '../../dist/src/book/risk/index.js'
import { destroys, writes } from '../../dist/src/curated/commands.js'
import { tempDir } from '../support/temp.mjs'

/** A project with sources and build output, for the gate to judge lines in. */
function project(t) {
  const root = tempDir(t, 'shared-rules-')
  for (const dir of ['src', 'dist']) {
    mkdirSync(join(root, dir))
    writeFileSync(join(root, dir, 'a.txt'), 'a\n')
  }
  return (line) => judgeCommand(line, { root, cwd: root })
}

test('the curated rules\' reader splits simple commands, keeps quoting, drops redirection targets and records written files', () => {
  const line = readShellLine(`FOO=1 make build 2>&1 | tee "out file.log" && rm -rf 'my dir' > /dev/null; echo $HOME >> notes.txt # rm -rf /`)
  assert.deepEqual(line.commands, [['FOO=1', 'make', 'build', '2'], ['tee', 'out file.log'], ['rm', '-rf', 'my dir'], ['echo', '$HOME']])
  assert.deepEqual(line.writesFiles, ['notes.txt'])
  assert.deepEqual(readShellLine(`echo 'unbalanced`).commands, [['echo', 'unbalanced']])
  assert.equal(shellScript(['bash', '-lc', 'rm -rf src']), 'rm -rf src')
  assert.equal(shellScript(['/bin/sh', '-c', 'ls']), 'ls')
  assert.equal(shellScript(['node', '-c', 'x']), undefined)
})

test('both judgements read sh -c scripts', (t) => {
  const judge = project(t)
  assert.equal(judge(`sh -c 'rm -rf src'`).destructive, true)
  assert.match(destroys(`bash -lc 'rm -r "$DIR"'`), /rm -r/)
})

test('where the verdicts differ, they differ by policy: build output is routine for a project, any rm -r is destructive in a recipe', (t) => {
  const judge = project(t)
  assert.equal(judge('rm -rf dist').destructive, false)
  assert.match(destroys('rm -rf dist'), /deletes a directory tree/)
  // A published package is a release for a project's command, and a deliberate write in a how-to.
  assert.equal(judge('npm publish').destructive, true)
  assert.equal(destroys('npm publish'), undefined)
  assert.match(writes('npm publish'), /changes installed packages/)
  // Where both policies see harm, both say so.
  for (const command of ['rm -rf src', 'git reset --hard', 'git push --force origin main', 'docker system prune --volumes']) {
    assert.equal(judge(command).destructive, true, command)
    assert.ok(destroys(command), command)
  }
})
