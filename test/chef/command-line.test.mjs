// The `/chef` line: its parse (verbs, task ids, a message as typed, close's forms) and the command's
// answers around the kitchen's operations: the operation's own text, a refusal that says why and what
// to type, and a read-only session that writes nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chefVerb, parseChefLine } from '../../dist/src/chef/mode.js'
import { runChefCommand } from '../../dist/src/chef/command.js'
import { KitchenError } from '../../dist/src/kitchen/index.js'

const ESC = '\u001b'

test('the mode verbs parse as before; anything else after them is no verb', () => {
  assert.equal(chefVerb(''), 'on')
  assert.equal(chefVerb(' ON '), 'on')
  assert.equal(chefVerb('takeover'), 'takeover')
  assert.equal(chefVerb('board'), 'board')
  assert.equal(chefVerb('off now'), undefined)
  assert.equal(chefVerb('bake'), undefined)
})

test('send keeps the message exactly as typed: quotes, spaces inside, backslashes and control characters', () => {
  const message = `say "hello  world" to 'them', then \\n ${ESC}[31mred${ESC}[0m done`
  assert.deepEqual(parseChefLine(`send api-7   ${message}  `), { verb: 'send', task: 'api-7', message })
  assert.deepEqual(parseChefLine('SEND api-7 "one"'), { verb: 'send', task: 'api-7', message: '"one"' })
  assert.deepEqual(parseChefLine('send api-7'), { verb: 'send', problem: { kind: 'no-message', task: 'api-7' } })
  assert.deepEqual(parseChefLine('send'), { verb: 'send', problem: { kind: 'no-task' } })
  assert.deepEqual(parseChefLine('send ../x hi'), { verb: 'send', problem: { kind: 'bad-task', given: '../x' } })
})

test('stop takes one task id; close takes ids in order, once each, and merge or discard', () => {
  assert.deepEqual(parseChefLine('stop api-7'), { verb: 'stop', task: 'api-7' })
  assert.deepEqual(parseChefLine('stop api-7 api-8'), { verb: 'stop', problem: { kind: 'extra', given: 'api-8' } })
  assert.deepEqual(parseChefLine('close api-7'), { verb: 'close', tasks: ['api-7'], how: 'close' })
  assert.deepEqual(parseChefLine('close api-7 discard'), { verb: 'close', tasks: ['api-7'], how: 'discard' })
  assert.deepEqual(parseChefLine('close api-8 api-7 api-8 MERGE'), { verb: 'close', tasks: ['api-8', 'api-7'], how: 'merge' })
  assert.deepEqual(parseChefLine('close api-7 merge discard'), { verb: 'close', problem: { kind: 'merge-and-discard' } })
  assert.deepEqual(parseChefLine('close merge'), { verb: 'close', problem: { kind: 'no-task' } })
})

/** The command's parts around a fake kitchen: each operation records its call and answers as the kitchen would. */
function parts({ standing = { kind: 'owner' }, tasks = ['api-7'] } = {}) {
  const calls = []
  const known = (id) => {
    if (!tasks.includes(id)) throw new KitchenError('KITCHEN_UNKNOWN_TASK', `there is no task ${id}; the board lists the tasks`)
  }
  const operations = {
    async send(task, message) { known(task); calls.push(['send', task, message]); return { kind: 'steered', run: 1, text: `Sent to ${task}` } },
    async stop(task) { known(task); calls.push(['stop', task]); return { kind: 'held', text: `${task} is held` } },
    async close(task, discard) { known(task); calls.push(['close', task, discard]); return { text: `Closed ${task}${discard ? ' (discarded)' : ''}` } },
    async merge(args) { calls.push(['merge', args.tasks]); return { text: `Landed ${args.tasks.join(', ')}` } },
    async board() { return 'board' },
  }
  const host = { dir: '/k', isOpen: true, async ready() {}, standing: () => standing }
  const sessions = { has: () => true, restore: () => undefined, isRestoring: () => false }
  return { calls, parts: { host, sessions, operations } }
}

const agent = { id: 'a1', session: { events: [{ type: 'turn/start' }] } }

test('send, stop and close answer with the operation\'s text, with the line as parsed', async () => {
  const { calls, parts: p } = parts({ tasks: ['api-7', 'api-8'] })
  const message = `fix "the bug" ${ESC}[2J now`
  assert.deepEqual(await runChefCommand({}, p, agent, `send api-7 ${message}`), { kind: 'success', text: 'Sent to api-7' })
  assert.deepEqual(await runChefCommand({}, p, agent, 'stop api-7'), { kind: 'success', text: 'api-7 is held' })
  assert.deepEqual(await runChefCommand({}, p, agent, 'close api-7 discard'), { kind: 'success', text: 'Closed api-7 (discarded)' })
  assert.deepEqual(await runChefCommand({}, p, agent, 'close api-7 api-8 merge'), { kind: 'success', text: 'Landed api-7, api-8' })
  assert.deepEqual(calls, [['send', 'api-7', message], ['stop', 'api-7'], ['close', 'api-7', true], ['merge', ['api-7', 'api-8']]])
})

test('refusals say why and what to type, show what was typed escaped, and call nothing', async () => {
  const { calls, parts: p } = parts()
  const unknown = await runChefCommand({}, p, agent, 'send nope-9 hello')
  assert.equal(unknown.kind, 'error')
  assert.match(unknown.text, /there is no task nope-9; the board lists the tasks/)
  const noMessage = await runChefCommand({}, p, agent, 'send api-7   ')
  assert.equal(noMessage.kind, 'error')
  assert.equal(noMessage.text, '/chef send api-7 needs a message: type /chef send api-7 <message>.')
  const hostile = await runChefCommand({}, p, agent, `stop ${ESC}[31mx`)
  assert.equal(hostile.kind, 'error')
  assert.ok(!hostile.text.includes(ESC), hostile.text)
  assert.match(hostile.text, /is not a task id like "api-7": type \/chef stop <id>/)
  const both = await runChefCommand({}, p, agent, 'close api-7 merge discard')
  assert.match(both.text, /type \/chef close <id> merge or \/chef close <id> discard/)
  const usage = await runChefCommand({}, p, agent, 'bake api-7')
  assert.match(usage.text, /\/chef send <id> <message>, \/chef stop <id> or \/chef close <id> \[merge\|discard\]/)
  // One of several closes refused: its line says why, the others are closed.
  const mixed = await runChefCommand({}, p, agent, 'close api-7 nope-9')
  assert.equal(mixed.kind, 'success')
  assert.equal(mixed.text, 'Closed api-7\nnope-9 not closed: there is no task nope-9; the board lists the tasks')
  assert.deepEqual(calls, [['close', 'api-7', false]])
})

test('a read-only session writes nothing and names /chef takeover', async () => {
  const { calls, parts: p } = parts({ standing: { kind: 'read-only', holder: { sessionId: 'other', pid: 4242 } } })
  for (const line of ['send api-7 hi', 'stop api-7', 'close api-7']) {
    const r = await runChefCommand({}, p, agent, line)
    assert.equal(r.kind, 'error')
    assert.match(r.text, /read-only \(session other \(pid 4242\) holds the lease\).*Type \/chef takeover to take it over/)
  }
  assert.deepEqual(calls, [])
})

test('a kitchen that is not open says so and changes nothing', async () => {
  const { calls, parts: p } = parts()
  p.host.isOpen = false
  const r = await runChefCommand({}, p, agent, 'stop api-7')
  assert.equal(r.kind, 'error')
  assert.match(r.text, /Chef mode is off in this session; \/chef on opens the kitchen/)
  assert.deepEqual(calls, [])
})
