// The cook runner's pure parts: flags, the session-event translation, the contract, the inbox
// claim, the command template against the kitchen core's own check, the overlay file.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import {
  RunLineTranslator, activityOf, chooseEffort, claimInbox, commandFailed, commandLines, contractFacts, contractText, cookCommand, cookOverlayYaml, failureText,
  launcherArgv, parseCookFlags, reportOf, splitModel, tailOf, writeCookOverlay,
} from '../../dist/src/cook/index.js'
import { takeRoleEnv } from '../../dist/src/cook/startup.js'
import { checkCookCommand, cookArgv } from '../../dist/src/kitchen/cooks/index.js'
import { parseRunLine } from '../../dist/src/kitchen/domain.js'
import { EMPTY_RUN_FOLD, foldRunLine } from '../../dist/src/kitchen/store/index.js'
import { projectCommands } from '../../dist/src/chef/project-commands.js'

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-cook-unit-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

test('flags: the kitchen placeholders parse, the task dir falls back to the role variable, problems name the fix', () => {
  const ok = parseCookFlags(['--session-dir=/s', '--session-id=id-1', '--model=deepseek-official/deepseek-v4-flash', '--thinking=high', '--prompt-file=/p.md'], { KITCHEN_TASK_DIR: '/t', KITCHEN_RUN: '3' })
  assert.deepEqual(ok, { kind: 'ok', startup: { sessionDir: '/s', sessionId: 'id-1', promptFile: '/p.md', model: 'deepseek-official/deepseek-v4-flash', thinking: 'high', taskDir: '/t', run: 3 } })
  assert.equal(parseCookFlags(['--session-dir', '/s', '--session-id', 'x', '--prompt-file', '/p', '--task-dir=/mine'], { KITCHEN_TASK_DIR: '/t' }).startup.taskDir, '/mine')
  assert.deepEqual(parseCookFlags(['-h']), { kind: 'help' })
  assert.match(parseCookFlags(['--session-dir=/s']).message, /^missing --session-id, --prompt-file; /)
  assert.match(parseCookFlags(['--session-dir=/s', '--session-id=x', '--prompt-file=/p', '--bogus']).message, /Unknown option '--bogus'.*see --help/)
  assert.match(parseCookFlags(['--session-dir=/s', '--session-id=x', '--prompt-file=/p', 'stray']).message, /positional/i)
  assert.equal(parseCookFlags(['--session-dir=/s', '--session-id=x', '--prompt-file=/p', '--model=']).startup.model, undefined)
})

test('splitModel: provider at the first slash, the rest is the model id', () => {
  assert.deepEqual(splitModel('openrouter/z-ai/glm-5.2', 'd'), { provider: 'openrouter', model: 'z-ai/glm-5.2' })
  assert.deepEqual(splitModel('deepseek-v4-pro', 'deepseek-official'), { provider: 'deepseek-official', model: 'deepseek-v4-pro' })
})

test('chooseEffort: the level when offered, else none with a note; unknown offers pass it on', () => {
  assert.deepEqual(chooseEffort(undefined, ['low']), {})
  assert.deepEqual(chooseEffort('high', ['off', 'low', 'high', 'max']), { effort: 'high' })
  assert.deepEqual(chooseEffort('xhigh', undefined), { effort: 'xhigh' })
  assert.match(chooseEffort('medium', ['off', 'high']).note, /"medium" is not offered by this model \(it offers off, high\)/)
  assert.equal(chooseEffort('medium', ['off', 'high']).effort, undefined)
})

test('the role variables leave the environment and are handed over once', () => {
  const env = { KITCHEN_ROLE: 'cook', KITCHEN_TASK_DIR: '/t', KITCHEN_RUN: '2', KITCHEN_OTHER: 'stays', PATH: '/bin' }
  assert.deepEqual(takeRoleEnv(env), { KITCHEN_ROLE: 'cook', KITCHEN_TASK_DIR: '/t', KITCHEN_RUN: '2' })
  assert.deepEqual(env, { KITCHEN_OTHER: 'stays', PATH: '/bin' })
})

test('session events become kitchen run lines, each one valid for the kitchen parser', () => {
  const model = { provider: 'deepseek-official', model: 'deepseek-v4-flash' }
  const tr = new RunLineTranslator(model, () => 42)
  tr.markSteer('m-steer')
  const lines = [
    { type: 'turn/start', data: { turn: 1 } },
    { type: 'user/message', data: { id: 'm-1', role: 'user', content: [{ type: 'text', text: 'the prompt' }], source: { kind: 'user' } } },
    { type: 'user/message', data: { id: 'm-ctx', role: 'user', content: [{ type: 'text', text: 'runtime context' }], source: { kind: 'plugin', plugin: 'x', form: 'snapshot' } } },
    { type: 'assistant/message', data: { turn: 1, step: 1, message: { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool-call', id: 'c1', name: 'bash', arguments: '{}' }], source: { kind: 'model', provider: 'p', model: 'm' } } } },
    { type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{"command":"npm test","description":"tests"}' } },
    { type: 'tool/result', data: { turn: 1, step: 1, message: { content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok\n' }] }], source: { kind: 'tool', callId: 'c1' } } } },
    { type: 'user/message', data: { id: 'm-steer', role: 'user', content: [{ type: 'text', text: 'steer me' }], source: { kind: 'user' } } },
    { type: 'tool/call', data: { callId: 'c2', name: 'chef_report', arguments: '{"status":"blocked","summary":"no key"}' } },
    { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'c2', content: [{ type: 'text', text: 'Reported' }] }], source: { kind: 'tool', callId: 'c2' } }, meta: { report: { status: 'blocked', summary: 'no key' } } } },
    { type: 'assistant/message', data: { message: { content: [{ type: 'text', text: 'partial' }], source: { kind: 'model', provider: 'p', model: 'm' } }, interrupted: true } },
    { type: 'turn/end', data: { turn: 1, reason: { kind: 'error', error: { message: 'Payment Required', code: 'QUOTA', status: 402 } } } },
    { type: 'turn/end', data: { turn: 2, reason: { kind: 'completed' } } },
    { type: 'request/header', data: {} },
  ].flatMap((e) => tr.translate(e))
  assert.deepEqual(lines, [
    { type: 'prompted', at: 42, source: 'prompt', text: 'the prompt' },
    { type: 'assistant', at: 42, model: { provider: 'p', model: 'm' }, stopReason: 'tool_use', text: 'Let me look.' },
    { type: 'tool_start', at: 42, callId: 'c1', tool: 'bash', activity: 'npm test' },
    { type: 'tool_end', at: 42, callId: 'c1', tool: 'bash', isError: false, tail: 'ok' },
    { type: 'prompted', at: 42, source: 'steer', text: 'steer me' },
    { type: 'tool_start', at: 42, callId: 'c2', tool: 'chef_report', activity: 'blocked' },
    { type: 'tool_end', at: 42, callId: 'c2', tool: 'chef_report', isError: false, tail: 'Reported', report: { status: 'blocked', summary: 'no key' } },
    { type: 'assistant', at: 42, model: { provider: 'p', model: 'm' }, stopReason: 'aborted', text: 'partial' },
    { type: 'assistant', at: 42, model, stopReason: 'error', text: '', error: '402: Payment Required' },
  ])
  for (const l of lines) assert.ok(parseRunLine(JSON.stringify(l)), JSON.stringify(l))
  // A failed tool result: isError from the block or the error field, and no report from a failed chef_report.
  const failed = tr.translate({ type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'c2', isError: true, content: [] }], source: { kind: 'tool', callId: 'c2' } }, meta: { report: { status: 'done', summary: 'x' } } } })
  assert.deepEqual(failed, [{ type: 'tool_end', at: 42, callId: 'c2', tool: 'chef_report', isError: true }])
})

test('activity, tail, report and failure texts', () => {
  assert.equal(activityOf('str_replace_based_edit_tool', '{"command":"view","path":"src/a.ts"}'), 'view')
  assert.equal(activityOf('read', '{"path":"src/a.ts","limit":3}'), 'src/a.ts')
  assert.equal(activityOf('x', 'not json'), '')
  assert.equal(activityOf('x', '{"n":1}'), '')
  const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')
  const tail = tailOf(long, 40)
  assert.ok(tail.length <= 40 && tail.endsWith('line 99') && tail.startsWith('line '))
  assert.equal(reportOf({ report: { status: 'nope', summary: 'x' } }), undefined)
  assert.equal(reportOf(undefined), undefined)
  assert.equal(failureText({ message: 'rate limited', code: 'RATE_LIMIT' }), 'RATE_LIMIT: rate limited')
  assert.equal(failureText(undefined), 'the model call failed with no error text')
})

test('the contract names the clone, the branch, the rules and the commands, and holds no prompt variable', () => {
  const text = contractText({ worktree: '/k/worktrees/api-7', branch: 'issue/api-7', taskId: 'api-7', commands: ['- test: `make test` (Makefile)'] })
  assert.match(text, /^# Cook contract\n/)
  for (const phrase of ['Work only in this directory: /k/worktrees/api-7, a git repository of your own', 'the task branch `issue/api-7`', 'Never wait for a human', 'exactly one `chef_report` call', '- test: `make test` (Makefile)', 'working one task (api-7)']) {
    assert.ok(text.includes(phrase), phrase)
  }
  assert.match(contractText({ worktree: '/w', commands: [] }), /declares no commands/)
  assert.doesNotMatch(contractText({ worktree: '/w/{{cwd}}', commands: [] }), /\{\{/)
  const recipes = ['deploy', 'lint', 'build', 'test'].map((name) => ({ name, command: `make ${name}`, cwd: '.', file: 'Makefile', aliases: [] }))
  // the test command first, then the build, then the other checks, then the rest
  assert.deepEqual(commandLines(recipes), ['- test: `make test` (Makefile)', '- build: `make build` (Makefile)', '- lint: `make lint` (Makefile)', '- deploy: `make deploy` (Makefile)'])
  assert.match(contractText({ worktree: '/w', commands: ['- test: `make test` (Makefile)'], test: { command: 'make test', from: 'Makefile:4' } }), /The test command is `make test` \(Makefile:4\): run it and see it pass before you report done\./)
  assert.match(contractText({ worktree: '/w', commands: ['- deploy: `make deploy` (Makefile)'] }), /None of them is named test, tests or check/)
})

test('the contract\'s test command is the one the chef verifies with: the test command the project names, else the best-named test', (t) => {
  const kitchen = scratch(t)
  const clone = join(kitchen, 'worktrees', 'api-1')
  const taskDir = join(kitchen, 'tasks', 'api-1')
  mkdirSync(clone, { recursive: true })
  mkdirSync(join(kitchen, 'projects'), { recursive: true })
  mkdirSync(taskDir, { recursive: true })
  writeFileSync(join(clone, 'Makefile'), 'build:\n\techo b\n\ncheck:\n\techo c\n\ntest:\n\techo t\n')
  const spec = { id: 'api-1', project: 'api', title: 'T', brief: 'B', branch: 'issue/api-1', worktree: clone, baseBranch: 'main', sessionId: 's', models: [] }
  writeFileSync(join(taskDir, 'task.json'), JSON.stringify(spec))
  const project = (extra) => writeFileSync(join(kitchen, 'projects', 'api.json'), JSON.stringify({ name: 'api', path: clone, baseBranch: 'main', branchPrefix: 'issue/', createdAt: 1, ...extra }))
  project({})
  const plain = contractFacts(clone, taskDir)
  assert.deepEqual(plain.test, { command: 'make test', from: 'Makefile:7' })
  assert.equal(plain.test.command, projectCommands(clone).test, 'the chef picks the same test command')
  assert.match(plain.commands[0], /^- test: `make test`/)
  project({ testCommand: 'make:check' })
  const named = contractFacts(clone, taskDir)
  assert.deepEqual(named.test, { command: 'make check', from: 'Makefile:4' })
  assert.equal(named.test.command, projectCommands(clone, 'make:check').test, 'the chef picks the same named test command')
  assert.match(named.commands[0], /^- check: `make check`/)
  assert.equal(named.branch, 'issue/api-1')
  // a cook run by hand, with no task directory: discovery's pick, no branch
  assert.deepEqual(contractFacts(clone, undefined).test, { command: 'make test', from: 'Makefile:7' })
})

test('claimInbox moves each message to handled/ first, oldest first, and skips other files', (t) => {
  const dir = scratch(t)
  mkdirSync(join(dir, 'inbox', 'handled'), { recursive: true })
  writeFileSync(join(dir, 'inbox', '0000000000002-b.msg'), 'second')
  writeFileSync(join(dir, 'inbox', '0000000000001-a.msg'), 'first')
  writeFileSync(join(dir, 'inbox', '.0000000000003-c.msg.tmp'), 'being written')
  assert.deepEqual(claimInbox(dir), [{ name: '0000000000001-a.msg', text: 'first' }, { name: '0000000000002-b.msg', text: 'second' }])
  assert.ok(existsSync(join(dir, 'inbox', 'handled', '0000000000001-a.msg')))
  assert.ok(existsSync(join(dir, 'inbox', '.0000000000003-c.msg.tmp')))
  assert.deepEqual(claimInbox(dir), [])
  assert.deepEqual(claimInbox(join(dir, 'missing')), [])
})

test('the command template passes the kitchen core\'s check and expands like its own', (t) => {
  const dir = scratch(t)
  const bin = join(dir, 'bin.js')
  writeFileSync(bin, '')
  const template = cookCommand({ dsh: bin, node: '/opt/node24/bin/node', overlay: '/k/cook.patch.yml' })
  assert.deepEqual(checkCookCommand(template), [])
  const values = { promptFile: '/k/tasks/a-1/runs/2.prompt.md', sessionDir: '/k/tasks/a-1/session', sessionId: 's', worktree: '/k/worktrees/a-1', taskDir: '/k/tasks/a-1', run: 2 }
  assert.deepEqual(cookArgv(template, { ...values, model: 'p/m' }, ['--patch', '/rules.yml']), [
    '/opt/node24/bin/node', bin, '--profile', 'headless', '--patch', '/k/cook.patch.yml', '--patch', '/rules.yml',
    '--session-dir=/k/tasks/a-1/session', '--session-id=s', '--model=p/m', '--task-dir=/k/tasks/a-1', '--prompt-file=/k/tasks/a-1/runs/2.prompt.md',
  ])
  // A launcher that is not JavaScript runs itself; a missing one is refused with its path.
  const sh = join(dir, 'dsh')
  writeFileSync(sh, '#!/bin/sh\n')
  chmodSync(sh, 0o755)
  assert.deepEqual(launcherArgv(sh, '/node'), [sh])
  assert.throws(() => launcherArgv(join(dir, 'nope')), /the dsh launcher .*nope does not exist/)
})

test('the overlay: the stock driver off, the session store under --session-dir, the two rows by absolute path; rewritten only on change', (t) => {
  const dir = scratch(t)
  const js = { tag: 'tag:yaml.org,2002:js', resolve: (s) => ({ js: s }) }
  const rows = parse(cookOverlayYaml('/pkg/dist/src/cook/entries'), { customTags: [js] })
  assert.deepEqual(rows.slice(0, 3), [{ id: 'headless-startup', disabled: true }, { id: 'headless-runner', disabled: true }, { id: 'session-title-llm', disabled: true }])
  assert.deepEqual(rows[3], { id: 'session-persistence-jsonl', inject: ['cookStartup'], config: { root: { js: 'ctx.cookStartup.sessionDir' } } })
  assert.deepEqual(rows[4].insert, [
    { id: 'command-scout-cook-startup', name: '/pkg/dist/src/cook/entries/startup.js' },
    { id: 'command-scout-cook-runner', name: '/pkg/dist/src/cook/entries/runner.js' },
  ])
  const path = writeCookOverlay(dir)
  assert.ok(existsSync(readFileSync(path, 'utf8').match(/name: '([^']+runner\.js)'/)[1]), 'the default entries exist in this build')
  const before = statSync(path).mtimeMs
  writeCookOverlay(dir)
  assert.equal(statSync(path).mtimeMs, before)
  writeCookOverlay(dir, '/elsewhere')
  assert.match(readFileSync(path, 'utf8'), /\/elsewhere\/runner\.js/)
})

test('a shell command that exited non-zero, was killed or timed out is a failed call, and the kitchen keeps the last calls, bounded', () => {
  // dsh's bash tool ends its text with these status lines (never an exit code 0)
  assert.equal(commandFailed('bash', 'FAIL limit_test.go\n[exit code: 2]'), true)
  assert.equal(commandFailed('bash', '(no output)\n[timed out after 60000ms]\n[killed by signal: SIGTERM]'), true)
  assert.equal(commandFailed('bash', '[timed out after 300ms]'), true)
  assert.equal(commandFailed('bash', 'all 12 tests passed\n'), false)
  assert.equal(commandFailed('bash', 'it printed [exit code: 1]\nand went on'), false)
  assert.equal(commandFailed('read', 'a file that ends with\n[exit code: 1]'), false, 'only a shell tool reports commands')
  const tr = new RunLineTranslator({ provider: 'p', model: 'm' }, () => 7)
  const events = []
  for (let i = 1; i <= 30; i++) {
    const text = i === 30 ? 'compiling\n[timed out after 60000ms]\n[killed by signal: SIGTERM]' : i === 3 ? 'boom\n[exit code: 1]' : `ok ${i}\n`
    events.push({ type: 'tool/call', data: { callId: `c${i}`, name: 'bash', arguments: JSON.stringify({ command: `step ${i}` }) } })
    events.push({ type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: `c${i}`, content: [{ type: 'text', text }] }], source: { kind: 'tool', callId: `c${i}` } } } })
  }
  const got = events.flatMap((e) => tr.translate(e))
  assert.deepEqual(got.filter((l) => l.type === 'tool_end' && l.isError).map((l) => l.callId), ['c3', 'c30'])
  const f = got.reduce((acc, l) => foldRunLine(acc, parseRunLine(JSON.stringify(l))), EMPTY_RUN_FOLD)
  assert.equal(f.toolCalls, 30)
  assert.equal(f.failedCalls, 2)
  assert.equal(f.calls.length, 20, 'the fold keeps the last 20 calls, not the whole run')
  assert.deepEqual(f.calls.at(-1), { text: 'bash: step 30', failed: '[timed out after 60000ms]; [killed by signal: SIGTERM]' })
  assert.deepEqual(f.calls[0], { text: 'bash: step 11' })
  assert.deepEqual(f.open, [], 'no call is left open')
})
