// The one decision of which call runs, asks or is refused (book/approval.ts), for each kind of call:
// a discovered command called with words, a command line of its own (dsh's `bash`), and a curated
// recipe run (curated/confirm.ts decideRecipeRun, which returns the same Decision). Each call is
// judged by the real gate against a temp repository whose `clean` deletes the sources.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import {
  callVerdict, decideCall, decideShellCommand, guardedJudgement, reasonClause, RUN, verdictDecision,
} from '../../dist/src/book/approval.js'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { discover } from '../../dist/src/book/discover.js'
import { callOf } from '../../dist/src/book/run-tool.js'
import { commandWithWords } from '../../dist/src/book/risk/index.js'
import { decideRecipeRun, needsConfirmation } from '../../dist/src/curated/confirm.js'
import { loadLibrary, renderRecipe, SHIPPED_RECIPES_DIR } from '../../dist/src/curated/index.js'
import { tempDir } from '../support/temp.mjs'
import { writeGateRepo } from '../gate/repos.mjs'

function book(t, options) {
  const root = writeGateRepo(tempDir(t, 'approval-'), options)
  const found = discover(root, normalizeConfig({ root }), { cache: false })
  const recipe = (name) => found.book.entries().find((r) => r.name === name)
  return { root, book: found.book, recipe, where: { root, book: found.book } }
}

// ---------------------------------------------------------------------------------------------
// A discovered command called with words

test('decideCall: a harmless command runs', (t) => {
  const { recipe, where } = book(t)
  assert.deepEqual(decideCall(callOf(recipe('build'), []), where), RUN)
})

test('decideCall: a command whose body deletes the sources asks, with the line, the reason and both refusals\' parts', (t) => {
  const { recipe, where } = book(t)
  const decision = decideCall(callOf(recipe('clean'), []), where)
  assert.equal(decision.kind, 'ask')
  assert.equal(decision.need.command, 'make clean')
  assert.match(decision.need.reason, /`rm -rf src` deletes/)
  assert.doesNotMatch(decision.need.reason, /\.$/, 'a clause, to go after a colon')
  assert.equal(decision.need.ask, `\`make clean\` needs your approval: ${decision.need.reason}.`)
  assert.equal(decision.need.why, undefined, 'destructive: the faces say so in their own words')
  assert.ok(decision.confirmRefusal.startsWith(`Not run: \`make clean\` needs a person's yes: ${decision.need.reason}.\n`))
  assert.match(decision.confirmRefusal, /call again with "confirm": true once they agreed/)
})

test('decideCall: the call\'s words decide: harmless as listed, asks with words that aim it at the sources', (t) => {
  const { recipe, where } = book(t, { cleans: 'dist' })
  assert.equal(decideCall(callOf(recipe('tidy'), []), where).kind, 'run')
  const aimed = decideCall(callOf(recipe('tidy'), ['DIR=src']), where)
  assert.equal(aimed.kind, 'ask')
  assert.equal(aimed.need.command, commandWithWords(recipe('tidy'), ['DIR=src']))
  assert.equal(decideCall(callOf(recipe('clean'), []), where).kind, 'run', 'a clean of build output runs')
})

test('decideCall: a runner that is not installed refuses the call, harmless or destructive, before the gate', (t) => {
  const { recipe, where } = book(t)
  const env = { PATH: join(where.root, 'no-such-bin') }
  for (const name of ['build', 'clean']) {
    const decision = decideCall(callOf(recipe(name), []), where, env)
    assert.equal(decision.kind, 'refuse', name)
    assert.match(decision.reason, new RegExp(`^make is not installed here \\(not on PATH\\), so \`make ${name}\` can't run; `), name)
  }
})

test('callVerdict: the gate on this very call, with its words', (t) => {
  const { recipe, root, book: b } = book(t, { cleans: 'dist' })
  assert.equal(callVerdict(callOf(recipe('tidy'), []), root, b).destructive, false)
  assert.equal(callVerdict(callOf(recipe('tidy'), ['DIR=src']), root, b).destructive, true)
})

// ---------------------------------------------------------------------------------------------
// A command line of its own

test('decideShellCommand: an empty or harmless line runs; a line that deletes sources asks, where it runs', (t) => {
  const { where } = book(t)
  for (const line of ['', '   ', 'ls -la', 'echo hello', 'rm -rf dist']) assert.deepEqual(decideShellCommand(line, where), RUN, JSON.stringify(line))
  const rm = decideShellCommand('rm -rf src', where)
  assert.equal(rm.kind, 'ask')
  assert.equal(rm.need.command, 'rm -rf src')
  assert.match(rm.need.ask, /^`rm -rf src` needs your approval: `rm -rf src` deletes/)
  // Judged where the line runs: from src, main.c is a source file.
  assert.equal(decideShellCommand('rm -rf main.c', { ...where, cwd: join(where.root, 'src') }).kind, 'ask')
})

test('decideShellCommand: a line that invokes a recipe by its runner command is judged by that recipe\'s body', (t) => {
  const { where } = book(t)
  const clean = decideShellCommand('true && make clean', where)
  assert.equal(clean.kind, 'ask')
  assert.match(clean.need.reason, /rm -rf src/)
  assert.equal(decideShellCommand('make build', where).kind, 'run')
})

// ---------------------------------------------------------------------------------------------
// The pieces every kind shares

test('guardedJudgement fails closed: a judge that throws makes the call ask, and says why', () => {
  const verdict = guardedJudgement(() => { throw new Error('reader broke') })
  assert.equal(verdict.destructive, true)
  assert.match(verdict.reason, /could not be judged \(reader broke\), so it asks first/)
  const decision = verdictDecision('make x', verdict)
  assert.equal(decision.kind, 'ask')
  assert.match(decision.need.reason, /reader broke/)
})

test('verdictDecision and reasonClause: a safe verdict runs; a reason loses its closing period; a missing one is said', () => {
  assert.deepEqual(verdictDecision('make x', { destructive: false, findings: [] }), RUN)
  assert.equal(reasonClause({ reason: 'it deletes src.' }), 'it deletes src')
  assert.match(reasonClause({}), /may delete, overwrite, publish or deploy/)
  const unsaid = verdictDecision('make x', { destructive: true, findings: [] })
  assert.equal(unsaid.kind, 'ask')
  assert.match(unsaid.need.reason, /may delete, overwrite, publish or deploy/)
})

// ---------------------------------------------------------------------------------------------
// A curated recipe run

const library = loadLibrary([SHIPPED_RECIPES_DIR])

/** The first shipped recipe that renders on linux without parameters and fits `pick`. */
function rendered(pick) {
  for (const recipe of library.recipes) {
    if (!recipe.platforms.linux || !pick(recipe)) continue
    try {
      return renderRecipe(library, recipe.id, { platform: 'linux', params: {} })
    } catch {
      // a required parameter without a default: try the next one
    }
  }
  throw new Error('no shipped recipe fits')
}

test('decideRecipeRun: a read-only or low recipe that is not marked runs', () => {
  for (const risk of ['read_only', 'low']) {
    const r = rendered((recipe) => recipe.risk === risk && !recipe.requires_confirmation)
    assert.equal(needsConfirmation(r), false, r.id)
    assert.deepEqual(decideRecipeRun(library, r), RUN, r.id)
  }
})

test('decideRecipeRun: risk medium asks, saying why beyond "destructive"; the refusal carries the question', () => {
  const r = renderRecipe(library, 'git.undo_last_commit', { platform: 'linux', params: {} })
  const decision = decideRecipeRun(library, r)
  assert.equal(decision.kind, 'ask')
  assert.equal(decision.need.command, r.commands.map((c) => c.command).join(' && '))
  assert.match(decision.need.reason, /the curated recipe ".*" \(git\.undo_last_commit, risk medium\), run as \d+ commands/)
  assert.match(decision.need.why, /its risk is medium/)
  assert.match(decision.need.ask, /\(git\.undo_last_commit, risk: medium\)\? It runs:\n {2}git log/)
  assert.match(decision.confirmRefusal, /^Not run: this recipe needs a person's yes, because its risk is medium/)
  assert.ok(decision.confirmRefusal.endsWith(decision.need.ask), 'the refusal ends with the question to ask')
})

test('decideRecipeRun: a destructive recipe asks, and a recipe marked for confirmation asks whatever its risk', () => {
  const destructive = rendered((recipe) => recipe.risk === 'destructive')
  const asked = decideRecipeRun(library, destructive)
  assert.equal(asked.kind, 'ask')
  assert.equal(asked.need.why, undefined, 'destructive: the default wording')
  assert.match(asked.need.ask, /risk: DESTRUCTIVE/)
  const low = rendered((recipe) => recipe.risk === 'low' && !recipe.requires_confirmation)
  const marked = decideRecipeRun(library, { ...low, requires_confirmation: true })
  assert.equal(marked.kind, 'ask')
  assert.match(marked.need.why, /marked as needing a person's confirmation \(risk low\)/)
})
