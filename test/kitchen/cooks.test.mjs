import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, mkdirSync, openSync, closeSync, writeFileSync, readFileSync, existsSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as cooks from '../../dist/src/kitchen/cooks/index.js'
import * as derive from '../../dist/src/kitchen/derive/index.js'
import { tempDir } from './support.mjs'

// the prompt texts moved to derive/, the rest of these are the cooks owner's
const c = { ...cooks, ...derive }

const FAKE = new URL('./fake-cook.mjs', import.meta.url).pathname
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function until(fn, ms = 5000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await fn()) return true
    await sleep(20)
  }
  return false
}

const values = { promptFile: '/k/tasks/a-1/runs/1.prompt.md', sessionDir: '/k/tasks/a-1/session', sessionId: 's1', worktree: '/k/worktrees/a-1', taskDir: '/k/tasks/a-1', run: 1 }

test('cookArgv fills the template, drops unset model and thinking, and places cookArgs', () => {
  const t = ['dsh', '--profile', 'cook', '--session-id={sessionId}', '--model={model}', '--thinking={thinking}', '{cookArgs}', '--prompt-file={promptFile}']
  assert.deepEqual(c.cookArgv(t, values, ['-e', 'x']), ['dsh', '--profile', 'cook', '--session-id=s1', '-e', 'x', '--prompt-file=/k/tasks/a-1/runs/1.prompt.md'])
  assert.deepEqual(c.cookArgv(t, { ...values, model: '-p/weird', thinking: 'high' }), ['dsh', '--profile', 'cook', '--session-id=s1', '--model=-p/weird', '--thinking=high', '--prompt-file=/k/tasks/a-1/runs/1.prompt.md'])
  // without {cookArgs} they are appended
  assert.deepEqual(c.cookArgv(['x', '@{promptFile}', 'run={run}'], values, ['--y']), ['x', '@/k/tasks/a-1/runs/1.prompt.md', 'run=1', '--y'])
})

test('a bad command template is refused with the fix named', () => {
  assert.match(c.checkCookCommand(['dsh', '--model', '{model}', '--prompt-file={promptFile}']).join(), /must share its element with the flag, e\.g\. "--model=\{model\}"/)
  assert.match(c.checkCookCommand(['dsh', '--x={nope}', '{promptFile}']).join(), /unknown placeholder \{nope\}/)
  assert.match(c.checkCookCommand(['dsh']).join(), /never passes \{promptFile\}/)
  assert.match(c.checkCookCommand([]).join(), /cookCommand is empty/)
  assert.deepEqual(c.checkCookCommand(c.DEFAULT_COOK_COMMAND), [])
  assert.throws(() => c.cookArgv(['dsh'], values), (e) => e.code === 'KITCHEN_COOK_COMMAND')
})

test('parseProcStat reads ppid and start time after a command name with spaces and parens', () => {
  const s = '4242 (we ird) (x)) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100'
  assert.deepEqual(c.parseProcStat(s), { ppid: 17, pgid: 4242, start: '987654', zombie: false })
  assert.equal(c.parseProcStat('garbage'), undefined)
})

test('parseLsof reads a recorded macOS lsof -F pRn sample', () => {
  const sample = [
    'p501', 'R1', 'f1', 'n/dev/null',
    'p7788', 'R7700', 'f1', 'n/private/var/folders/xy/T/k/tasks/api-7/runs/2.jsonl',
    'p7790', 'R7788', 'f1', 'n/private/var/folders/xy/T/k/tasks/api-7/runs/2.jsonl',
    'p9000', 'R1', 'f1', 'n/dev/ttys003', '',
  ].join('\n')
  assert.deepEqual(c.parseLsof(sample), [
    { pid: 501, ppid: 1, name: '/dev/null' },
    { pid: 7788, ppid: 7700, name: '/private/var/folders/xy/T/k/tasks/api-7/runs/2.jsonl' },
    { pid: 7790, ppid: 7788, name: '/private/var/folders/xy/T/k/tasks/api-7/runs/2.jsonl' },
    { pid: 9000, ppid: 1, name: '/dev/ttys003' },
  ])
})

function kitchenDir() {
  const root = tempDir('kcook-')
  const tasks = join(root, 'tasks')
  const owner = (path) => {
    const m = /^(.*)\/([^/]+)\/runs\/([1-9][0-9]*)\.jsonl$/.exec(path)
    return m && m[1] === tasks ? { task: m[2], run: Number(m[3]) } : undefined
  }
  return { root, tasks, owner }
}

async function launch(k, task, run, steps, extra = {}) {
  const dir = join(k.tasks, task)
  mkdirSync(join(dir, 'runs'), { recursive: true })
  mkdirSync(join(dir, 'session'), { recursive: true })
  const promptFile = join(dir, 'runs', `${run}.prompt.md`)
  writeFileSync(promptFile, `@fake: ${steps}\n`)
  const fd = openSync(join(dir, 'runs', `${run}.jsonl`), 'wx')
  const err = openSync(join(dir, 'runs', `${run}.err`), 'a')
  const argv = c.cookArgv([process.execPath, FAKE, '--session-dir={sessionDir}', '--session-id={sessionId}', '--model={model}', '--prompt-file={promptFile}'], {
    promptFile, sessionDir: join(dir, 'session'), sessionId: task, worktree: k.root, taskDir: dir, run, ...extra,
  })
  const r = await c.spawnCook({ argv, cwd: k.root, stdoutFd: fd, stderrFd: err, env: { KITCHEN_TASK_DIR: dir } })
  closeSync(fd)
  closeSync(err)
  return { ...r, dir }
}

test('a spawned cook is identified by fd 1; its child sharing stdout is not a cook; a group kill takes both', async () => {
  const k = kitchenDir()
  const r = await launch(k, 'api-1', 1, 'child hang')
  assert.ok(r.ok)
  const childFile = join(r.dir, 'session', 'child.pid')
  assert.ok(await until(() => existsSync(childFile) && readFileSync(childFile, 'utf8').length > 0))
  const child = Number(readFileSync(childFile, 'utf8'))
  const found = await c.scanCooks(k.owner)
  assert.deepEqual(found.map((x) => [x.task, x.run, x.pid]), [['api-1', 1, r.pid]])
  const map = new c.CookMap(k.owner)
  await map.adoptScan()
  const live = await map.live()
  assert.equal(live.get('api-1').pid, r.pid)
  assert.ok(await c.signalCook(map, live.get('api-1'), 'SIGTERM'))
  assert.ok(await until(() => !c.pidAlive(r.pid) && !c.pidAlive(child)), 'cook and child both gone')
  assert.equal((await map.live()).size, 0)
})

test('a recorded pid whose stdout is another task run file, or whose start time differs, is not live and not signalled', async () => {
  const k = kitchenDir()
  const r = await launch(k, 'api-2', 1, 'hang')
  const map = new c.CookMap(k.owner)
  const other = { task: 'api-3', run: 1, pid: r.pid }
  map.record(other)
  assert.equal(await map.confirm(other), false)
  assert.equal(await c.signalCook(map, other, 'SIGKILL'), false)
  const reused = { task: 'api-2', run: 1, pid: r.pid, start: '1' }
  assert.equal(await map.confirm(reused), false)
  const st = await c.procStat(r.pid)
  assert.equal(await map.confirm({ task: 'api-2', run: 1, pid: r.pid, start: st.start }), true)
  process.kill(-r.pid, 'SIGKILL')
  await r.exited
})

test('a process holding a run file on another descriptor is not a cook; a run file of another kitchen is ignored', async () => {
  const k = kitchenDir()
  const other = kitchenDir()
  const dir = join(k.tasks, 'api-4', 'runs')
  mkdirSync(dir, { recursive: true })
  const fd = openSync(join(dir, '1.jsonl'), 'wx')
  // this test process holds the run file on fd `fd`, not on fd 1
  assert.deepEqual(await c.scanCooks(k.owner), [])
  closeSync(fd)
  const r = await launch(other, 'api-5', 1, 'hang')
  assert.deepEqual((await c.scanCooks(k.owner)).filter((x) => x.pid === r.pid), [])
  process.kill(-r.pid, 'SIGKILL')
})

test('a cook that exits leaves a complete run file; spawn in a missing cwd reports the error', async () => {
  const k = kitchenDir()
  const r = await launch(k, 'api-6', 1, 'tool=npm_test done=all_good')
  assert.deepEqual(await r.exited, { code: 0, signal: null })
  const lines = readFileSync(join(r.dir, 'runs', '1.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  assert.deepEqual(lines.map((l) => l.type), ['run_start', 'prompted', 'assistant', 'tool_start', 'tool_end', 'assistant', 'tool_start', 'tool_end', 'settled'])
  assert.deepEqual(lines.at(-2).report, { status: 'done', summary: 'all good' })
  const fd = openSync(join(r.dir, 'runs', '9.jsonl'), 'w')
  const bad = await c.spawnCook({ argv: [process.execPath, FAKE], cwd: join(k.root, 'nope'), stdoutFd: fd, stderrFd: fd, env: {} })
  closeSync(fd)
  assert.equal(bad.ok, false)
  assert.match(bad.reason, /nope/)
})

test('prompt texts: brief with messages, messages only, fallback names both models', () => {
  const task = { id: 'api-7', title: 'Rate limit', brief: 'Add a token bucket.', branch: 'issue/api-7', worktree: '/w' }
  const b = c.briefPrompt(task, ['use redis'])
  assert.match(b, /# Task api-7: Rate limit/)
  assert.match(b, /Add a token bucket\.\n\n## Message from the chef\n\nuse redis/)
  assert.equal(c.messagesPrompt(['a', 'b']), '## Messages from the chef (2)\n\na\n\n---\n\nb\n')
  assert.match(c.fallbackPrompt('p/a', '402: Payment Required', 'p/b'), /p\/a stopped with a provider error: 402: Payment Required\nThis run uses p\/b/)
})

test('a kitchen opened through a symlink adopts its cooks: paths compare as realpaths', async () => {
  const { symlinkSync } = await import('node:fs')
  const { Store } = await import('../../dist/src/kitchen/store/index.js')
  const real = tempDir('kreal-')
  const link = join(tempDir('klink-'), 'kitchen')
  symlinkSync(real, link)
  const store = Store.open(link)
  const k = { root: link, tasks: join(link, 'tasks'), owner: (p) => store.taskOfRunFile(p) }
  const r = await launch(k, 'web-2', 3, 'hang')
  const found = await c.scanCooks(k.owner)
  assert.deepEqual(found.map((x) => [x.task, x.run, x.pid]), [['web-2', 3, r.pid]])
  process.kill(-r.pid, 'SIGKILL')
  await r.exited
})

test('a process with a run file on fd 1 that does not lead its process group is not a cook', async () => {
  const { spawn } = await import('node:child_process')
  const k = kitchenDir()
  const dir = join(k.tasks, 'api-8', 'runs')
  mkdirSync(dir, { recursive: true })
  const fd = openSync(join(dir, '1.jsonl'), 'wx')
  // not detached: it stays in this test's process group, as a cook's orphaned child would
  const p = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', fd, 'ignore'] })
  closeSync(fd)
  await until(async () => (await c.stdoutPath(p.pid))?.endsWith('1.jsonl'))
  assert.deepEqual((await c.scanCooks(k.owner)).filter((x) => x.pid === p.pid), [])
  p.kill('SIGKILL')
})
