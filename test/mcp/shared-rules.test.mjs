// One shell-word reader under both risk judgements: the approval policy (plugin/risk.ts) and the
// recipe rules (curated/commands.ts) see the same words and disagree only where their policies say so.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readShellLine, shellScript } from '../../dist/src/shell-words.js'
import { classifyCommandRisk } from '../../dist/src/plugin/risk.js'
import { destroys, writes } from '../../dist/src/curated/commands.js'

test('the reader splits simple commands, keeps quoting, drops redirection targets and records written files', () => {
  const line = readShellLine(`FOO=1 make build 2>&1 | tee "out file.log" && rm -rf 'my dir' > /dev/null; echo $HOME >> notes.txt # rm -rf /`)
  assert.deepEqual(line.commands, [['FOO=1', 'make', 'build', '2'], ['tee', 'out file.log'], ['rm', '-rf', 'my dir'], ['echo', '$HOME']])
  assert.deepEqual(line.writesFiles, ['notes.txt'])
  assert.deepEqual(readShellLine(`echo 'unbalanced`).commands, [['echo', 'unbalanced']])
  assert.equal(shellScript(['bash', '-lc', 'rm -rf src']), 'rm -rf src')
  assert.equal(shellScript(['/bin/sh', '-c', 'ls']), 'ls')
  assert.equal(shellScript(['node', '-c', 'x']), undefined)
})

test('both judgements read sh -c scripts through the same reader', () => {
  assert.equal(classifyCommandRisk(`sh -c 'rm -rf src'`).destructive, true)
  assert.match(destroys(`bash -lc 'rm -r "$DIR"'`), /rm -r/)
})

test('where the verdicts differ, they differ by policy: build output is routine for a task, any rm -r is destructive in a recipe', () => {
  assert.equal(classifyCommandRisk('rm -rf dist').destructive, false)
  assert.match(destroys('rm -rf dist'), /deletes a directory tree/)
  // A published package is a release for a project task, and a deliberate write in a how-to.
  assert.equal(classifyCommandRisk('npm publish').destructive, true)
  assert.equal(destroys('npm publish'), undefined)
  assert.match(writes('npm publish'), /changes installed packages/)
  // Where both policies see harm, both say so.
  for (const command of ['rm -rf src', 'git reset --hard', 'git push --force origin main', 'docker system prune --volumes']) {
    assert.equal(classifyCommandRisk(command).destructive, true, command)
    assert.ok(destroys(command), command)
  }
})
