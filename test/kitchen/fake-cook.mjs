#!/usr/bin/env node
// A fake cook: a real process that plays a scripted run and writes the run-file JSONL of
// src/kitchen/domain.ts on its stdout (the claimed run file). The script is the last line
// `@fake: <steps>` found in the session's prompts (this run's prompt last), or FAKE_COOK_SCENARIO.
//
// Arguments (the test command template): --session-dir=D --session-id=S [--model=P/M]
// [--thinking=T] --prompt-file=F; env KITCHEN_TASK_DIR for the inbox. A model `bad/...` is refused
// at start (stderr, exit 2, no output), as a harness refuses a model it does not know.
//
// Steps, run in order:
//   fail402=<model>   when this run's model is <model>: a provider error (402) and settle
//   fail429=<model>   the same with a 429 after retries
//   badstart          write to stderr and exit 2 with no output (as a cook refusing its model)
//   wait=<ms>         sleep
//   tool=<activity>   a tool call with that activity (underscores are spaces), lasting 50 ms
//   commit=<file>     write <file> in the clone and commit it on the current branch
//   dirty=<file>      write <file> without committing
//   sh=<base64>       run a shell command in the clone, as the harness's bash tool would; its exit
//                     code and output go to <session dir>/sh-<n>.json (n counts from 1)
//   daemon            start a daemon that leaves the cook's process group (setsid) and sleeps;
//                     its pid goes to <session dir>/daemon.pid
//   daemon2           the same by a double fork: the child starts it and exits (init adopts it);
//                     <session dir>/daemon2.pid
//   daemon3           a setsid daemon with an empty environment, working in /: nothing but a
//                     control group still knows it; <session dir>/daemon3.pid
//   report=<base64>   report done with this exact summary (any characters)
//   bigline=<bytes>   write one line of that many bytes (no valid run-file line) to the run file
//
// With FAKE_COOK_SANDBOX set (the landlock launcher), the commands of commit, dirty and sh run
// confined as the harness confines its bash tool: the whole file system read-only but /dev/null,
// /tmp and the clone (the session's workspace).
//   steer[=<ms>]      wait (default 10 s) for an inbox message: move it to inbox/handled/ first,
//                     then log it as a steer; the report summary then names it
//   child             spawn a child process that shares the group and writes its pid to
//                     <session dir>/child.pid
//   hang              never exit (until killed)
//   ignoreterm        ignore SIGTERM from here on (only SIGKILL ends it)
//   crash             exit 3 at once, without settling
//   done[=text] needs_decision[=text] blocked[=text] failed[=text]
//                     report and settle (text: underscores are spaces)
//   noreport[=text]   a final assistant text and settle, no report
//   linger=<ms>       after the run settles, stay alive this long (a cook that is exiting)
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { spawn, execFileSync } from 'node:child_process'

const args = Object.fromEntries(
  process.argv.slice(2).filter((a) => a.startsWith('--') && a.includes('=')).map((a) => [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
)
const sessionDir = args['session-dir']
const sessionId = args['session-id']
const promptFile = args['prompt-file']
const modelText = args.model ?? 'fake/default'
const model = { provider: modelText.includes('/') ? modelText.slice(0, modelText.indexOf('/')) : 'fake', model: modelText.includes('/') ? modelText.slice(modelText.indexOf('/') + 1) : modelText }
const taskDir = process.env.KITCHEN_TASK_DIR
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function line(obj) {
  writeSync(1, JSON.stringify({ at: Date.now(), ...obj }) + '\n')
}
const words = (t, d) => (t ? t.replace(/_/g, ' ') : d)

if (!sessionDir || !sessionId || !promptFile) {
  process.stderr.write(`fake-cook: missing --session-dir, --session-id or --prompt-file in ${JSON.stringify(process.argv.slice(2))}\n`)
  process.exit(2)
}
const prompt = readFileSync(promptFile, 'utf8')
mkdirSync(sessionDir, { recursive: true })
const sessionFile = join(sessionDir, 'fake-session.jsonl')
const resumed = existsSync(sessionFile)
const history = resumed ? readFileSync(sessionFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text) : []
appendFileSync(sessionFile, JSON.stringify({ model: modelText, argv: process.argv.slice(2), text: prompt }) + '\n')
const all = [...history, prompt].join('\n')
const scripts = [...all.matchAll(/^@fake:(.*)$/gm)].map((m) => m[1].trim())
const script = (scripts.at(-1) ?? process.env.FAKE_COOK_SCENARIO ?? 'done').split(/\s+/).filter(Boolean)

const settle = (reason = 'completed') => line({ type: 'settled', reason })
const sandbox = process.env.FAKE_COOK_SANDBOX
let shells = 0

/** A shell command as the harness's bash tool runs it: in the clone, confined when a sandbox is given. */
function runShell(command, env = { ...process.env, GIT_AUTHOR_NAME: 'cook', GIT_AUTHOR_EMAIL: 'cook@kitchen', GIT_COMMITTER_NAME: 'cook', GIT_COMMITTER_EMAIL: 'cook@kitchen' }) {
  const argv = sandbox
    ? [sandbox, '--ro', '/', '--rw', '/dev/null', '--rw', '/tmp', '--rw', process.cwd(), '--', '/bin/sh', '-c', command]
    : ['/bin/sh', '-c', command]
  try {
    const out = execFileSync(argv[0], argv.slice(1), { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    return { code: 0, output: out }
  } catch (error) {
    return { code: error.status ?? -1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }
  }
}
let call = 0
let steered = []

function report(status, summary) {
  const callId = `c${++call}`
  line({ type: 'assistant', model, stopReason: 'tool_use', text: '' })
  line({ type: 'tool_start', callId, tool: 'chef_report', activity: status })
  line({ type: 'tool_end', callId, tool: 'chef_report', isError: false, report: { status, summary } })
  settle()
}

async function main() {
  if (modelText.startsWith('bad/')) {
    process.stderr.write(`fake-cook: unknown model ${modelText}\n`)
    process.exit(2)
  }
  if (script[0] === 'badstart') {
    process.stderr.write(`fake-cook: model ${modelText} is not available\n`)
    process.exit(2)
  }
  line({ type: 'run_start', v: 1, sessionId, resumed, model })
  line({ type: 'prompted', source: 'prompt', text: prompt })
  // linger may stand anywhere in the script: it applies after the run settles
  let lingerMs = Number(script.find((x) => x.startsWith('linger='))?.slice('linger='.length) ?? 0)
  for (const step of script) {
    const [name, value] = step.includes('=') ? [step.slice(0, step.indexOf('=')), step.slice(step.indexOf('=') + 1)] : [step, undefined]
    switch (name) {
      case 'fail402':
      case 'fail429':
        if (value === modelText) {
          const code = name === 'fail402' ? '402: Payment Required' : '429: Too Many Requests'
          line({ type: 'assistant', model, stopReason: 'error', text: '', error: code })
          settle('error')
          return lingerMs
        }
        break
      case 'badstart':
        break
      case 'ignoreterm':
        process.on('SIGTERM', () => {})
        break
      case 'wait':
        await sleep(Number(value))
        break
      case 'tool': {
        const callId = `c${++call}`
        line({ type: 'assistant', model, stopReason: 'tool_use', text: '' })
        line({ type: 'tool_start', callId, tool: 'bash', activity: words(value, 'work') })
        await sleep(50)
        line({ type: 'tool_end', callId, tool: 'bash', isError: false, tail: 'ok' })
        break
      }
      case 'commit':
      case 'dirty': {
        const env = { ...process.env, GIT_AUTHOR_NAME: 'cook', GIT_AUTHOR_EMAIL: 'cook@kitchen', GIT_COMMITTER_NAME: 'cook', GIT_COMMITTER_EMAIL: 'cook@kitchen' }
        const q = (t) => `'${t.replace(/'/g, `'\\''`)}'`
        const write = `printf '%s\\n' ${q(`${value} from run of ${sessionId}`)} > ${q(value)}`
        const r = runShell(name === 'commit' ? `${write} && git add -- ${q(value)} && git commit -q -m ${q(`add ${value}`)}` : write, env)
        const callId = `c${++call}`
        line({ type: 'tool_start', callId, tool: 'bash', activity: `git commit ${value}` })
        line({ type: 'tool_end', callId, tool: 'bash', isError: r.code !== 0, tail: r.output.slice(-400) })
        break
      }
      case 'sh': {
        const command = Buffer.from(value, 'base64').toString('utf8')
        const r = runShell(command)
        writeFileSync(join(sessionDir, `sh-${++shells}.json`), JSON.stringify({ command, ...r }))
        const callId = `c${++call}`
        line({ type: 'tool_start', callId, tool: 'bash', activity: command.slice(0, 60) })
        line({ type: 'tool_end', callId, tool: 'bash', isError: r.code !== 0, tail: r.output.slice(-400) })
        break
      }
      case 'daemon': {
        const d = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
        writeFileSync(join(sessionDir, 'daemon.pid'), String(d.pid))
        d.unref()
        break
      }
      case 'daemon3': {
        const d = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore', env: {}, cwd: '/' })
        writeFileSync(join(sessionDir, 'daemon3.pid'), String(d.pid))
        d.unref()
        break
      }
      case 'daemon2': {
        const pidFile = join(sessionDir, 'daemon2.pid')
        const starter = `const { spawn } = require('node:child_process'); const fs = require('node:fs');
          const d = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
          fs.writeFileSync(${JSON.stringify(pidFile)}, String(d.pid)); d.unref(); process.exit(0)`
        execFileSync(process.execPath, ['-e', starter], { stdio: 'ignore' })
        break
      }
      case 'bigline': {
        const chunk = Buffer.alloc(1024 * 1024, 0x78)
        let left = Number(value)
        while (left > 0) {
          const n = Math.min(left, chunk.length)
          writeSync(1, chunk, 0, n)
          left -= n
        }
        writeSync(1, '\n')
        break
      }
      case 'report': {
        report('done', Buffer.from(value, 'base64').toString('utf8'))
        return lingerMs
      }
      case 'steer': {
        const deadline = Date.now() + Number(value ?? 10_000)
        const inbox = join(taskDir, 'inbox')
        const callId = `c${++call}`
        line({ type: 'tool_start', callId, tool: 'bash', activity: 'waiting for a steer' })
        while (Date.now() < deadline && steered.length === 0) {
          const names = existsSync(inbox) ? readdirSync(inbox).filter((n) => n.endsWith('.msg')).sort() : []
          for (const n of names) {
            mkdirSync(join(inbox, 'handled'), { recursive: true })
            try {
              renameSync(join(inbox, n), join(inbox, 'handled', n)) // claim before steering
            } catch {
              continue
            }
            steered.push(readFileSync(join(inbox, 'handled', n), 'utf8'))
          }
          if (steered.length === 0) await sleep(30)
        }
        line({ type: 'tool_end', callId, tool: 'bash', isError: false })
        for (const text of steered) line({ type: 'prompted', source: 'steer', text })
        break
      }
      case 'child': {
        const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'ignore'] }) // shares the cook's stdout
        writeFileSync(join(sessionDir, 'child.pid'), String(c.pid))
        c.unref()
        break
      }
      case 'hang': {
        const callId = `c${++call}`
        line({ type: 'tool_start', callId, tool: 'bash', activity: 'sleep forever' })
        for (;;) await sleep(1000)
      }
      case 'crash':
        line({ type: 'assistant', model, stopReason: 'tool_use', text: 'about to crash' })
        process.exit(3)
      case 'linger':
        break
      case 'done':
      case 'needs_decision':
      case 'blocked':
      case 'failed': {
        const base = words(value, { done: 'did it', needs_decision: 'cookie or bearer?', blocked: 'no access', failed: 'tests fail' }[name])
        report(name, steered.length ? `${base} (steered: ${steered.map((s) => s.trim()).join(' | ')})` : base)
        return lingerMs
      }
      case 'noreport':
        line({ type: 'assistant', model, stopReason: 'stop', text: words(value, 'finished without a report') })
        settle()
        return lingerMs
      default:
        process.stderr.write(`fake-cook: unknown step ${step}\n`)
        process.exit(2)
    }
  }
  report('done', steered.length ? `did it (steered: ${steered.map((s) => s.trim()).join(' | ')})` : 'did it')
  return lingerMs
}

main().then(async (linger) => {
  if (linger) await sleep(linger)
  process.exit(0)
})
