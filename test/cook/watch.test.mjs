// `command-scout watch <taskDir>` as a person runs it: a real CLI process over a recorded task and
// over a task whose run files grow while it watches.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderRunLine, useColor, watchCommand } from '../../dist/src/cook/watch.js'

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
