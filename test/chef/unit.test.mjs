// The chef side's pure parts: chef mode folded from command events, the row config and its kitchen
// config, the model check against providers, models and credentials, the project's commands, wake
// delivery by inbox events, the rulebook contract and the cook's role answer.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chefVerb, foldChefMode } from '../../dist/src/chef/mode.js'
import { KitchenRowConfig, kitchenConfigFile, kitchenDir } from '../../dist/src/chef/schema.js'
import { ModelFacts } from '../../dist/src/chef/models.js'
import { commandsLine, namedTestProblem, projectCommands } from '../../dist/src/chef/project-commands.js'
import { WakeDelivery } from '../../dist/src/chef/wakes.js'
import { rulebookBlock, rulebookPlugin } from '../../dist/src/chef/rulebook.js'
import { answerCookRole } from '../../dist/src/cook/role.js'
import { withViewers } from '../../dist/src/chef/events.js'
import { normalizeKitchenConfig } from '../../dist/src/kitchen/index.js'

const run = (id, args) => ({ type: 'command/run', data: { commandId: id, name: 'chef', args } })
const done = (id, kind = 'success') => ({ type: 'command/done', data: { commandId: id, kind } })

test('chef mode is the last successful /chef on, takeover or off', () => {
  assert.equal(foldChefMode([]), false)
  assert.equal(foldChefMode([run('1', ' on'), done('1')]), true)
  assert.equal(foldChefMode([run('1', ''), done('1')]), true, 'bare /chef is on')
  assert.equal(foldChefMode([run('1', 'on'), done('1'), run('2', 'off'), done('2')]), false)
  assert.equal(foldChefMode([run('1', 'takeover'), done('1')]), true)
  assert.equal(foldChefMode([run('1', 'on'), done('1', 'error')]), false, 'a failed /chef on is not on')
  assert.equal(foldChefMode([run('1', 'on'), done('1'), run('2', 'board'), done('2')]), true, 'board changes nothing')
  assert.equal(foldChefMode([run('1', 'on')]), false, 'a command that never finished is not on')
  assert.equal(foldChefMode([{ type: 'command/run', data: { commandId: '1', name: 'plan', args: 'on' } }, done('1')]), false, 'another command')
  assert.equal(chefVerb('  OFF '), 'off')
  assert.equal(chefVerb('sideways'), undefined)
})

test('the row config: defaults, the kitchen dir under DSH_HOME, and the kitchen config the core reads from it', () => {
  const row = KitchenRowConfig({})
  assert.equal(row.maxCooks, 3)
  assert.equal(kitchenDir(row, { DSH_HOME: '/h/.dsh' }), '/h/.dsh/kitchen')
  assert.equal(kitchenDir({ dir: '/k' }, {}), '/k')
  const file = kitchenConfigFile(KitchenRowConfig({
    maxCooks: 2,
    models: { rules: [{ name: 'fast', when: 'small fixes', use: [{ model: 'p/a' }] }], default: [{ model: 'p/b', thinking: 'high' }] },
    rulebook: { default: 'craft', projects: { api: 'none' } },
    cookArgs: ['--patch', 'r.yml'],
  }))
  assert.equal(file.cookCommand, undefined, 'the cook command goes to the core on its own, never in a config')
  const { config, errors } = normalizeKitchenConfig(file, 'the kitchen config', true)
  assert.deepEqual(errors, [])
  assert.equal(config.maxCooks, 2)
  assert.deepEqual(config.models.default, [{ model: 'p/b', thinking: 'high' }])
  assert.equal(config.models.rules[0].name, 'fast')
  assert.equal(config.rulebook.default, 'craft')
  assert.equal(config.rulebook.projects.get('api'), 'none')
  assert.deepEqual(config.cookArgs, ['--patch', 'r.yml'])
  assert.deepEqual(normalizeKitchenConfig(kitchenConfigFile(row), 'the kitchen config', true).errors, [])
  assert.throws(() => KitchenRowConfig({ maxCooks: 0 }))
})

test('the model check names why each candidate cannot run', async () => {
  const llm = {
    listProviders: () => [{ id: 'deepseek-official' }, { id: 'open' }],
    listModels: async (p) => (p === 'deepseek-official' ? [{ id: 'deepseek-v4-flash' }, { id: 'deepseek-v4-pro' }] : []),
  }
  const configured = new Set(['DEEPSEEK_API_KEY'])
  const credentials = { describe: async (ref) => ({ configured: configured.has(ref) }) }
  const facts = new ModelFacts(() => llm, () => credentials, () => ({ 'deepseek-official': 'DEEPSEEK_API_KEY', open: 'OPEN_KEY' }))
  await facts.refresh(['deepseek-official/deepseek-v4-flash', 'deepseek-official/nope', 'gone/x', 'open/anything', 'bare'])
  assert.deepEqual(facts.check('deepseek-official/deepseek-v4-flash'), { ok: true })
  assert.match(facts.check('deepseek-official/nope').reason, /provider deepseek-official lists no model "nope" \(its models: deepseek-v4-flash, deepseek-v4-pro\)/)
  assert.match(facts.check('gone/x').reason, /dsh has no provider "gone" \(its providers: deepseek-official, open\)/)
  assert.match(facts.check('open/anything').reason, /provider open has no API key: OPEN_KEY is not configured/)
  assert.match(facts.check('bare').reason, /not a dsh model name/)
})

test('the project\'s commands: discovered test and build, or the one a person named among them', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-chef-cmds-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  assert.match(commandsLine(projectCommands(dir)), /No test or build command found/)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'tsc', test: 'node --test', lint: 'eslint .' } }))
  const c = projectCommands(dir)
  assert.equal(c.test, 'npm run test')
  assert.equal(c.build, 'npm run build')
  assert.match(commandsLine(c), /^Commands: test: npm run test \(package\.json:1\), build: npm run build \(package\.json:1\)\.$/)
  // a named test command is one of the project's commands, by name, runner:name, id or command line
  writeFileSync(join(dir, 'Makefile'), 'check:\n\ttrue\n')
  for (const name of ['check', 'make:check', 'make check']) {
    assert.equal(projectCommands(dir, name).test, 'make check', name)
    assert.equal(projectCommands(dir, name).testFrom, 'Makefile:1, named')
  }
  assert.equal(projectCommands(dir, 'lint').test, 'npm run lint')
  assert.equal(namedTestProblem(dir, 'check'), undefined)
  assert.match(namedTestProblem(dir, 'rm -rf ~'), /^testCommand "rm -rf ~" names none of the project's commands; name one of them \(.*make:check.*\), by name or as its command line$/)
})

test('a wake is delivered only when a turn claims it, and never to an agent that is gone', async () => {
  const sent = []
  let alive = true
  const agent = { id: 's1', followup: (m) => sent.push(m) }
  const d = new WakeDelivery({ target: () => agent, alive: () => alive })
  const claimed = d.deliver({ text: 'Kitchen update (1):\n- a-1 is done', runs: [] })
  assert.equal(sent.length, 1)
  assert.equal(sent[0].content[0].text, 'Kitchen update (1):\n- a-1 is done')
  assert.equal(sent[0].source.kind, 'plugin')
  d.claimed('other-id')
  assert.equal(d.isPending(sent[0].id), true)
  d.claimed(sent[0].id)
  assert.equal(await claimed, true)
  const dropped = d.deliver({ text: 'Kitchen update (1)', runs: [] })
  d.discarded(sent[1].id)
  assert.equal(await dropped, false, 'a discarded wake is sent again')
  const gone = d.deliver({ text: 'x', runs: [] })
  d.agentGone('s1')
  assert.equal(await gone, false)
  alive = false
  assert.equal(await d.deliver({ text: 'y', runs: [] }), false)
  assert.equal(sent.length, 3, 'nothing is handed to an agent the registry no longer holds')
})

test('the rulebook contract: a block per answered role, only when unselected or selected', () => {
  const text = { chef: 'chef rules', cook: 'cook rules' }
  assert.equal(rulebookBlock('craft', text, {}), '')
  assert.equal(rulebookBlock('craft', text, { role: 'chef' }), '# Rulebook: craft\n\nchef rules')
  assert.equal(rulebookBlock('craft', text, { role: 'cook', rulebook: 'craft' }), '# Rulebook: craft\n\ncook rules')
  assert.equal(rulebookBlock('craft', text, { role: 'cook', rulebook: 'none' }), '')
  assert.equal(rulebookBlock('craft', text, { role: 'cook', rulebook: 'other' }), '')
  assert.equal(rulebookBlock('only-cook', { cook: 'x' }, { role: 'chef' }), '')
  assert.throws(() => rulebookPlugin('none', text))
  assert.throws(() => rulebookPlugin('Bad Name', text))
})

test('a cook answers its role with the rulebook the kitchen launched it with, never one read from the kitchen directory', () => {
  const r = { version: 1 }
  answerCookRole(r, 'strict')
  assert.deepEqual(r, { version: 1, role: 'cook', rulebook: 'strict' })
  const answered = { version: 1, role: 'chef' }
  answerCookRole(answered, 'strict')
  assert.equal(answered.role, 'chef', 'an answered request is left alone')
  const none = { version: 1 }
  answerCookRole(none, undefined)
  assert.deepEqual(none, { version: 1, role: 'cook' }, 'no selection')
})

test('each snapshot task names its viewer', () => {
  const snap = { version: 1, sessionId: 's', role: 'owner', tasks: [{ id: 'a-1', taskDir: '/k/tasks/a-1' }] }
  const v = withViewers(snap, (d) => ({ command: 'command-scout', args: ['watch', d] }))
  assert.deepEqual(v.tasks[0].viewer, { command: 'command-scout', args: ['watch', '/k/tasks/a-1'] })
})

test('a project keeps the test command a person named, and result lists each commit ahead', async (t) => {
  const { openKitchen } = await import('../../dist/src/kitchen/index.js')
  const { execFileSync } = await import('node:child_process')
  const root = mkdtempSync(join(tmpdir(), 'cs-chef-proj-'))
  t.after(() => rmSync(root, { recursive: true, force: true }))
  const repo = join(root, 'api')
  mkdirSync(repo)
  const git = (...a) => execFileSync('git', a, { cwd: repo, encoding: 'utf8' }).trim()
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 't@example.com')
  git('config', 'user.name', 'T')
  writeFileSync(join(repo, 'a'), 'a\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'first')
  const o = await openKitchen(join(root, 'kitchen'), { tickMs: 0, cookCommand: ['/bin/false', '--prompt-file={promptFile}'] })
  t.after(() => o.kitchen.shutdown())
  const r = await o.kitchen.addProject({ path: repo, testCommand: ' make check ' })
  assert.equal(r.project.testCommand, 'make check')
  assert.equal(o.kitchen.store.readProject('api').testCommand, 'make check')
  git('checkout', '-q', '-b', 'issue/api-1')
  writeFileSync(join(repo, 'b'), 'b\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'Add b')
  writeFileSync(join(repo, 'c'), 'c\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'Add c')
  const { commitsAhead } = await import('../../dist/src/kitchen/git.js')
  const commits = await commitsAhead(repo, 'issue/api-1', 'main')
  assert.deepEqual(commits.map((c) => c.replace(/^[0-9a-f]+ /, '')), ['Add b', 'Add c'])
  assert.match(commits[0], /^[0-9a-f]{7,} Add b$/)
})
