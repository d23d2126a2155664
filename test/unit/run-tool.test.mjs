// The run of a planned tool's call (book/run-tool.ts), with a fake runner in the face's place: the
// call is resolved, a missing runner refuses it, a call that asks runs only with the face's yes, and
// the value is made from what the runner returned. Planned against a temp repository whose `clean`
// deletes the sources; the decision is the real gate's.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeConfig } from '../../dist/src/book/config.js'
import { discover } from '../../dist/src/book/discover.js'
import { planTools } from '../../dist/src/book/exposure.js'
import { createRecipe } from '../../dist/src/book/recipe.js'
import { RecipeBook } from '../../dist/src/book/recipe-book.js'
import { ArgsError, commandWithWords } from '../../dist/src/book/risk/index.js'
import { DispatchError, prepareCall, runPlannedTool } from '../../dist/src/book/run-tool.js'
import { tempDir } from '../support/temp.mjs'
import { sourcesKept, writeGateRepo } from '../gate/repos.mjs'

function plan(t, { config = {}, book } = {}) {
  const root = writeGateRepo(tempDir(t, 'run-tool-'))
  const cfg = normalizeConfig({ root, ...config })
  const b = book ?? discover(root, cfg, { cache: false }).book
  const tools = planTools(b, cfg, [], { root })
  return { root, tools, where: { root, book: b }, tool: (name) => tools.find((x) => x.name === name) }
}

/** A face whose runner records each call and answers with a made-up result, and whose yes is `yes`. */
function fakeFace(yes = false) {
  const runs = []
  const asked = []
  return {
    runs,
    asked,
    run: async (call) => {
      runs.push(call)
      const streams = { stdout: `ran ${call.command}\n`, stderr: 'warned\n' }
      return { command: call.command, ok: false, exitCode: 3, ...streams, killed: false, timedOut: false, durationMs: 42 }
    },
    confirmed: (call, ask) => {
      asked.push({ call, ask })
      return yes
    },
  }
}

test('a harmless call runs once, never asks, and its value is the runner\'s result with the task and directory', async (t) => {
  const { where, tool } = plan(t)
  const face = fakeFace()
  const outcome = await runPlannedTool(tool('make_build'), { args: ['VERSION=2'] }, where, face)
  assert.equal(outcome.kind, 'ran')
  const command = commandWithWords(tool('make_build').recipe, ['VERSION=2'])
  assert.match(command, /^make build .*VERSION=2/)
  assert.deepEqual(face.runs.map((c) => c.command), [command])
  assert.equal(face.asked.length, 0)
  assert.deepEqual(outcome.value, {
    task: 'make:build', command, cwd: '.', ok: false, exitCode: 3,
    stdout: `ran ${command}\n`, stderr: 'warned\n', killed: false, timedOut: false, durationMs: 42,
  })
})

test('a call that asks, without a yes, does not run; the outcome carries the decision', async (t) => {
  const { where, tool } = plan(t)
  const face = fakeFace(false)
  const outcome = await runPlannedTool(tool('make_clean'), {}, where, face)
  assert.equal(outcome.kind, 'unconfirmed')
  assert.equal(face.runs.length, 0)
  assert.equal(face.asked.length, 1)
  assert.equal(face.asked[0].ask, outcome.ask, 'the face was asked about this very decision')
  assert.equal(outcome.ask.need.command, 'make clean')
  assert.match(outcome.ask.need.reason, /rm -rf src/)
})

test('a call that asks, with the face\'s yes, runs', async (t) => {
  const { where, tool } = plan(t)
  const face = fakeFace(true)
  const outcome = await runPlannedTool(tool('make_clean'), {}, where, face)
  assert.equal(outcome.kind, 'ran')
  assert.deepEqual(face.runs.map((c) => c.command), ['make clean'])
  assert.ok(sourcesKept(where.root), 'the fake runner ran nothing for real')
})

test('a yes is taken only as `true`: a truthy answer that is not true does not run the call', async (t) => {
  const { where, tool } = plan(t)
  const face = { ...fakeFace(), confirmed: async () => 'yes' }
  const outcome = await runPlannedTool(tool('make_clean'), {}, where, face)
  assert.equal(outcome.kind, 'unconfirmed')
})

test('the dispatcher: the op\'s words decide, and a yes is asked for the call they make', async (t) => {
  const { where, tool } = plan(t, { config: { exposure: 'dispatcher' } })
  const face = fakeFace(false)
  assert.equal((await runPlannedTool(tool('recipe'), { op: 'tidy' }, where, face)).kind, 'ran')
  const aimed = await runPlannedTool(tool('recipe'), { op: 'tidy DIR=src' }, where, face)
  assert.equal(aimed.kind, 'unconfirmed')
  assert.equal(aimed.call.command, commandWithWords(aimed.call.recipe, ['DIR=src']))
  assert.equal(aimed.call.recipe.name, 'tidy')
  assert.deepEqual(face.runs.map((c) => c.command), ['make tidy'])
})

test('arguments that make no call are unresolved: the error is what resolving threw, and nothing is asked or run', async (t) => {
  const { where, tool } = plan(t, { config: { exposure: 'dispatcher' } })
  const face = fakeFace(true)
  const chained = await runPlannedTool(tool('recipe'), { op: 'build; rm -rf src' }, where, face)
  assert.equal(chained.kind, 'unresolved')
  assert.ok(chained.error instanceof ArgsError)
  assert.equal(chained.reason, chained.error.message)
  const unknown = await runPlannedTool(tool('recipe'), { op: 'nope' }, where, face)
  assert.equal(unknown.kind, 'unresolved')
  assert.ok(unknown.error instanceof DispatchError)
  assert.match(unknown.reason, /Unknown task `nope`[\s\S]*build/)
  assert.equal(face.runs.length + face.asked.length, 0)
})

test('a runner that is not installed refuses the call, and no one is asked', async (t) => {
  const runner = 'cs-no-such-runner'
  const recipe = createRecipe({ source: 'make', runner, name: 'wipe', command: `${runner} wipe`, file: 'Makefile' })
  const { where, tools } = plan(t, { book: new RecipeBook([recipe]) })
  assert.equal(tools.length, 1)
  const face = fakeFace(true)
  const outcome = await runPlannedTool(tools[0], {}, where, face)
  assert.equal(outcome.kind, 'refused')
  assert.match(outcome.reason, new RegExp(`^${runner} is not installed here \\(not on PATH\\), so \`${runner} wipe\` can't run`))
  assert.equal(face.runs.length + face.asked.length, 0)
})

test('a call the face prepared already is run as prepared, not resolved again', async (t) => {
  const { where, tool } = plan(t)
  const prepared = prepareCall(tool('make_build'), { args: ['V=1'] }, where)
  assert.equal(prepared.kind, 'resolved')
  const face = { ...fakeFace(), prepared }
  // Other arguments than the preparation's: the preparation is what runs.
  const outcome = await runPlannedTool(tool('make_build'), { args: ['V=2'] }, where, face)
  assert.equal(outcome.kind, 'ran')
  assert.deepEqual(face.runs.map((c) => c.command), [commandWithWords(tool('make_build').recipe, ['V=1'])])
  const unresolved = prepareCall(tool('make_build'), { args: 'a && b' }, where)
  const held = await runPlannedTool(tool('make_build'), {}, where, { ...fakeFace(true), prepared: unresolved })
  assert.equal(held, unresolved)
})

test('what the runner throws is thrown to the face', async (t) => {
  const { where, tool } = plan(t)
  const face = { ...fakeFace(), run: async () => { throw new Error('no shell mounted') } }
  await assert.rejects(runPlannedTool(tool('make_build'), {}, where, face), /no shell mounted/)
})
