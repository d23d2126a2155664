// `command-scout watch <taskDir>` as a person runs it: a real CLI process over a recorded task and
// over a task whose run files grow while it watches.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderRunLine, useColor, watchCommand } from '../../dist/src/cli/watch.js'
import { FAST_CONFIG, makeRepo, ownerKitchen, settled, tempDir as kitchenTemp, writeConfig } from '../kitchen/support.mjs'

const CLI = fileURLToPath(new URL('../../bin/command-scout', import.meta.url))
const RECORDED = fileURLToPath(new URL('../fixtures/cook/recorded-task', import.meta.url))

function startWatch(t, args, env = {}) {
  const child = spawn(process.execPath, [CLI, 'watch', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c })
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c })
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  t.after(() => child.kill('SIGKILL'))
  return {
    done,
    get stdout() { return stdout },
    /** Resolves once stdout contains `text` (bounded only against a hang). */
    waitFor(text, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`watch never printed ${JSON.stringify(text)}; it printed:\n${stdout}\n${stderr}`)), ms)
        const check = () => {
          if (stdout.includes(text)) {
            clearTimeout(timer)
            child.stdout.off('data', check)
            resolve()
          }
        }
        child.stdout.on('data', check)
        check()
      })
    },
  }
}

const line = (obj) => JSON.stringify({ at: Date.now(), ...obj }) + '\n'

test('a recorded, closed task: the newest run from its start, then exit 0', async (t) => {
  const r = await startWatch(t, [RECORDED]).done
  assert.equal(r.code, 0, r.stderr)
  assert.equal(r.stdout, [
    '── run 2 ────────────────────────',
    'session session-api-7-5f2c (resumed) on deepseek-official/deepseek-v4-pro',
    '▶ prompt:',
    '  The previous run on deepseek-official/deepseek-v4-flash stopped with a provider error: 402: Insufficient Balance',
    '  This run uses deepseek-official/deepseek-v4-pro. Continue the task from where it stopped, and end with one report.',
    'I will add the bucket and run the tests.',
    '• bash make test',
    '  │ ok  \tapi/limit\t0.012s',
    '  │ ok  \tapi/login\t0.020s',
    '  │ PASS',
    '▶ message:',
    '  ## Message from the chef',
    '  ',
    '  Keep the limit at 5 per minute.',
    '• str_replace_based_edit_tool limit.go',
    '  ✗ str_replace_based_edit_tool failed',
    '  │ Error: no match for old_str',
    '■ report done: Token bucket in limit.go, 5 per minute; make test passes.',
    '— run ended (completed)',
    '— the task is closed',
    '',
  ].join('\n'))
  assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour when stdout is not a terminal')
})

test('following a live task: a provider error, a new run with a separator, a character split across appends, exit 0 on close', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-watch-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'runs'))
  writeFileSync(join(dir, 'task.json'), '{}')
  const model = { provider: 'deepseek-official', model: 'deepseek-v4-flash' }
  writeFileSync(join(dir, 'runs/1.jsonl'), line({ type: 'run_start', v: 1, sessionId: 's1', resumed: false, model }) + line({ type: 'prompted', source: 'prompt', text: 'Do the thing.' }))
  const w = startWatch(t, [dir])
  await w.waitFor('Do the thing.')
  appendFileSync(join(dir, 'runs/1.jsonl'), line({ type: 'assistant', model, stopReason: 'error', text: '', error: '402: Insufficient Balance' }) + line({ type: 'settled', reason: 'error' }))
  await w.waitFor('✗ provider error on deepseek-official/deepseek-v4-flash: 402: Insufficient Balance')
  writeFileSync(join(dir, 'runs/2.jsonl'), line({ type: 'run_start', v: 1, sessionId: 's1', resumed: true, model: { ...model, model: 'deepseek-v4-pro' } }))
  await w.waitFor('── run 2')
  // "Überprüft" with its Ü split between two appends: shown once, whole.
  const bytes = Buffer.from(line({ type: 'assistant', model, stopReason: 'stop', text: 'Überprüft.' }))
  const cut = bytes.indexOf(Buffer.from('Ü')) + 1
  appendFileSync(join(dir, 'runs/2.jsonl'), bytes.subarray(0, cut))
  appendFileSync(join(dir, 'runs/2.jsonl'), bytes.subarray(cut))
  await w.waitFor('Überprüft.')
  writeFileSync(join(dir, 'log.jsonl'), line({ type: 'closed', discarded: false }))
  const r = await w.done
  assert.equal(r.code, 0, r.stderr)
  assert.ok(r.stdout.indexOf('── run 1') < r.stdout.indexOf('402') && r.stdout.indexOf('402') < r.stdout.indexOf('── run 2'))
  assert.equal(r.stdout.split('Überprüft.').length, 2, 'the text is printed once')
  assert.doesNotMatch(r.stdout, /\uFFFD/, 'no half-decoded character')
  assert.match(r.stdout, /— the task is closed\n$/)
})

test('a real kitchen closes the task it watches: watch shows the run, then exits 0 on its own', async (t) => {
  const dir = kitchenTemp('cs-watch-kitchen-')
  const root = join(dir, 'kitchen')
  mkdirSync(root)
  writeConfig(root, FAST_CONFIG)
  const { kitchen } = await ownerKitchen(root)
  t.after(() => kitchen.shutdown())
  await kitchen.addProject({ path: makeRepo(dir, 'api') })
  await kitchen.dispatch({ project: 'api', title: 'Watch me', brief: '@fake: tool=make_test done=watched' })
  await settled(kitchen, 'api-1')
  const w = startWatch(t, [join(root, 'tasks', 'api-1')])
  await w.waitFor('■ report done: watched')
  // the chef closes the task: the kitchen appends `closed` to the log, and watch ends by itself
  const closed = await kitchen.close('api-1', { discard: true })
  assert.match(closed.text, /^Closed api-1 \(discarded\)/)
  const r = await w.done
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /^── run 1 /)
  assert.match(r.stdout, /• bash make test\n/)
  assert.match(r.stdout, /— the task is closed\n$/)
})

test('colour: provider errors red, tool tails dim, the report bold; none with color off', async () => {
  const model = { provider: 'p', model: 'm' }
  assert.equal(renderRunLine({ type: 'assistant', at: 0, model, stopReason: 'error', text: '', error: '402: x' }, { color: true }), '\x1b[31m✗ provider error on p/m: 402: x\x1b[0m\n')
  assert.equal(renderRunLine({ type: 'tool_end', at: 0, callId: 'c', tool: 'bash', isError: false, tail: 'a\nb' }, { color: true }), '\x1b[2m  │ a\x1b[0m\n\x1b[2m  │ b\x1b[0m\n')
  assert.match(renderRunLine({ type: 'tool_end', at: 0, callId: 'c', tool: 'chef_report', isError: false, report: { status: 'failed', summary: 'no' } }, { color: true }), /^\x1b\[1m■ report failed: \x1b\[0mno\n$/)
  assert.equal(renderRunLine({ type: 'tool_start', at: 0, callId: 'c', tool: 'bash', activity: 'x'.repeat(50) }, { color: false, columns: 12 }).length, 13, 'a tool line fits the terminal')
  let out = ''
  const code = await watchCommand([RECORDED], { stdout: (s) => { out += s }, stderr: () => {}, cwd: process.cwd() }, { color: true })
  assert.equal(code, 0)
  assert.match(out, /\x1b\[1m── run 2/)
})

test('NO_COLOR and a pipe both mean plain text; --help; clear errors for a missing or wrong directory', async (t) => {
  assert.equal(useColor({ isTTY: true }, {}), true)
  assert.equal(useColor({ isTTY: true }, { NO_COLOR: '1' }), false)
  assert.equal(useColor({ isTTY: false }, {}), false)
  assert.equal(useColor({}, {}), false)
  const plain = await startWatch(t, [RECORDED], { NO_COLOR: '1' }).done
  assert.equal(plain.code, 0)
  assert.doesNotMatch(plain.stdout, /\x1b\[/)
  const help = await startWatch(t, ['--help']).done
  assert.equal(help.code, 0)
  assert.match(help.stdout, /^command-scout watch: follow a kitchen task's cook runs\n\nUsage:\n  command-scout watch TASK_DIR/)
  const missing = await startWatch(t, [join(tmpdir(), 'cs-no-such-task-dir')]).done
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /^command-scout: no task directory at .*cs-no-such-task-dir; give <kitchen>\/tasks\/<id>/)
  assert.doesNotMatch(missing.stderr, /\n\s+at /, 'no stack trace')
  const notTask = await startWatch(t, [fileURLToPath(new URL('.', import.meta.url))]).done
  assert.equal(notTask.code, 1)
  assert.match(notTask.stderr, /is not a kitchen task directory \(it has neither task\.json nor runs\/\)/)
  const none = await startWatch(t, []).done
  assert.equal(none.code, 2)
  assert.match(none.stderr, /watch takes one task directory/)
})

test('a FIFO as log.jsonl or as a run file: one line on stderr and exit 1, never a read that blocks', async (t) => {
  const { execFileSync } = await import('node:child_process')
  for (const fifo of ['log.jsonl', 'runs/1.jsonl']) {
    const dir = mkdtempSync(join(tmpdir(), 'cs-watch-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(join(dir, 'runs'))
    writeFileSync(join(dir, 'task.json'), '{}')
    execFileSync('mkfifo', [join(dir, fifo)])
    const r = await startWatch(t, [dir]).done
    assert.equal(r.code, 1, fifo)
    assert.match(r.stderr, new RegExp(`^command-scout: watch: can't read .*${fifo.replace('/', '\\/').replace('.', '\\.')}: .* is a FIFO, not a regular file; it is not read\\n$`))
  }
})

test('what a cook wrote is shown escaped: no ESC, BEL, NUL, OSC 52 or bidi override reaches the terminal', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-watch-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'runs'))
  writeFileSync(join(dir, 'task.json'), '{}')
  const model = { provider: 'p', model: 'm' }
  const evil = 'hi\x07\x00\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u202eexe'
  writeFileSync(join(dir, 'runs/1.jsonl'), [
    line({ type: 'run_start', v: 1, sessionId: `s${evil}`, resumed: false, model }),
    line({ type: 'prompted', source: 'prompt', text: evil }),
    line({ type: 'assistant', model, stopReason: 'stop', text: evil }),
    line({ type: 'tool_start', callId: 'c', tool: 'bash', activity: evil }),
    line({ type: 'tool_end', callId: 'c', tool: 'bash', isError: true, tail: evil }),
    line({ type: 'tool_end', callId: 'r', tool: 'chef_report', isError: false, report: { status: 'done', summary: evil } }),
    line({ type: 'runner_error', message: evil }),
  ].join(''))
  writeFileSync(join(dir, 'log.jsonl'), line({ type: 'closed', discarded: false }))
  const r = await startWatch(t, [dir]).done
  assert.equal(r.code, 0, r.stderr)
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e]/)
  assert.ok(r.stdout.includes('\\x1b]52;c;'), r.stdout)
})

test('a run file of 64 MiB with a 40 MiB line streams in bounded memory: the line shows as cut, what follows is shown', async (t) => {
  const { execFileSync } = await import('node:child_process')
  const dir = mkdtempSync(join(tmpdir(), 'cs-watch-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'runs'))
  writeFileSync(join(dir, 'task.json'), '{}')
  const run = join(dir, 'runs/1.jsonl')
  const model = { provider: 'p', model: 'm' }
  writeFileSync(run, line({ type: 'run_start', v: 1, sessionId: 's', resumed: false, model }))
  execFileSync('sh', ['-c', `head -c ${40 * 1024 * 1024} /dev/zero | tr '\\0' x >> ${run}; echo >> ${run}`])
  const filler = line({ type: 'assistant', model, stopReason: 'stop', text: 'y'.repeat(1000) })
  const block = filler.repeat(1024)
  for (let i = 0; i < 24; i++) appendFileSync(run, block)
  appendFileSync(run, line({ type: 'assistant', model, stopReason: 'stop', text: 'the last line' }))
  writeFileSync(join(dir, 'log.jsonl'), line({ type: 'closed', discarded: false }))
  // The watcher's resident memory, sampled while it runs: far below the file's size.
  const child = spawn(process.execPath, [CLI, 'watch', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let peak = 0
  let tail = ''
  child.stdout.on('data', (c) => {
    tail = (tail + c).slice(-200)
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0)
      peak = Math.max(peak, kb)
    } catch {}
  })
  const code = await new Promise((resolve) => child.on('close', resolve))
  assert.equal(code, 0)
  assert.match(tail, /the last line\n— the task is closed\n$/)
  if (process.platform === 'linux') assert.ok(peak < 200 * 1024, `watch stayed under 200 MB resident (peak ${Math.round(peak / 1024)} MB) for a 64 MiB file`)
})

// Reading a 4.3 GB file takes about 15 s here, so this one runs when asked (the 64 MiB one always does).
const slow = process.env.COMMAND_SCOUT_SLOW_TESTS ? false : 'set COMMAND_SCOUT_SLOW_TESTS=1 to read a 4.3 GB run file'
test('a run file over 4 GiB: watch streams it to its end, no internal error', { skip: slow, timeout: 300_000 }, async (t) => {
  const { execFileSync } = await import('node:child_process')
  const dir = mkdtempSync(join(tmpdir(), 'cs-watch-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'runs'))
  writeFileSync(join(dir, 'task.json'), '{}')
  const run = join(dir, 'runs/1.jsonl')
  const model = { provider: 'p', model: 'm' }
  writeFileSync(run, line({ type: 'run_start', v: 1, sessionId: 's', resumed: false, model }))
  execFileSync('truncate', ['-s', '+4300M', run])
  appendFileSync(run, '\n' + line({ type: 'assistant', model, stopReason: 'stop', text: 'after 4 GiB' }))
  writeFileSync(join(dir, 'log.jsonl'), line({ type: 'closed', discarded: false }))
  const r = await startWatch(t, [dir]).done
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /✂ a line of 4508876\d+ bytes was cut/)
  assert.match(r.stdout, /after 4 GiB\n— the task is closed\n$/)
})
