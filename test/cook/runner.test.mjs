// The cook runner in the real pinned dsh against the scripted fake model: sessions created and
// resumed, run-file lines the kitchen's fold reads, chef_report ending the run, provider
// failures, steering through the inbox, the contract in the model's request, the role variables.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dshAvailable, makeHome } from '../e2e/harness.mjs'
import { startFakeModel, offersTool, messageText, systemText, toolResults } from '../support/fake-model.mjs'
import { git, makeTask, sendToInbox, startCook, tempDir, until } from './support.mjs'
import { parseRunLine } from '../../dist/src/kitchen/domain.js'
import { EMPTY_RUN_FOLD, foldRunLines } from '../../dist/src/kitchen/store/index.js'
import { sawText } from '../../dist/src/kitchen/derive/index.js'

const skip = dshAvailable()
const FLASH = 'deepseek-official/deepseek-v4-flash'
const PRO = 'deepseek-official/deepseek-v4-pro'
const MAKEFILE = 'test:\n\t@echo tests pass\n\nbuild:\n\t@echo built\n'

/** A scratch dir, a hermetic dsh home, a task, and a fake model whose cook route is returned. */
async function setup(t, files = { Makefile: MAKEFILE }) {
  const scratch = await tempDir()
  const home = await makeHome('cs-cook-home-')
  const model = await startFakeModel()
  const cooks = []
  t.after(async () => {
    // Cooks first (killed with their group, awaited), then what they used.
    for (const c of cooks) c.kill()
    await Promise.all(cooks.map((c) => c.done))
    await model.close().catch(() => {})
    await home.cleanup().catch(() => {})
    rmSync(scratch, { recursive: true, force: true })
  })
  const task = await makeTask(scratch, { files })
  const cook = model.route('cook', (body) => offersTool(body, 'chef_report'))
  return { scratch, home, model, task, cook, cooks }
}

function run(t, ctx, options) {
  const c = startCook({ task: ctx.task, model: ctx.model, home: ctx.home, ...options })
  ctx.cooks.push(c)
  return c
}

const bash = (command, description = 'run a command') => ({ tool: 'bash', args: { command, description } })
const report = (status, summary) => ({ tool: 'chef_report', args: { status, summary } })

function fold(lines) {
  const parsed = lines.map((l) => parseRunLine(JSON.stringify(l)))
  assert.ok(parsed.every(Boolean), `every line is a kitchen run line: ${JSON.stringify(lines)}`)
  return foldRunLines(EMPTY_RUN_FOLD, parsed)
}

test('run 1 creates the session, commits through bash, reports done, and no model call follows the report', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(
    bash('echo limit > limit.txt && git add limit.txt && git -c user.name=cook -c user.email=cook@kitchen commit -q -m "Add limit" && git log --oneline -1', 'commit the change'),
    report('done', 'Added limit.txt in one commit; make test passes.'),
  )
  const r = await run(t, ctx, { run: 1, prompt: 'Add limit.txt and commit it.\n', modelName: FLASH }).done
  assert.equal(r.code, 0, r.err)
  assert.deepEqual(r.lines.map((l) => l.type), ['run_start', 'prompted', 'assistant', 'tool_start', 'tool_end', 'assistant', 'tool_start', 'tool_end', 'settled'])
  const [start, prompted, , bashStart, bashEnd, , reportStart, reportEnd, settled] = r.lines
  assert.deepEqual({ ...start, at: 0 }, { type: 'run_start', at: 0, v: 1, sessionId: ctx.task.sessionId, resumed: false, model: { provider: 'deepseek-official', model: 'deepseek-v4-flash' } })
  assert.deepEqual([prompted.source, prompted.text], ['prompt', 'Add limit.txt and commit it.\n'])
  assert.equal(bashStart.tool, 'bash')
  assert.match(bashStart.activity, /^echo limit > limit\.txt/)
  assert.equal(bashEnd.callId, bashStart.callId)
  assert.equal(bashEnd.isError, false, bashEnd.tail)
  assert.match(bashEnd.tail, /Add limit/)
  assert.equal(reportStart.activity, 'done')
  assert.deepEqual(reportEnd.report, { status: 'done', summary: 'Added limit.txt in one commit; make test passes.' })
  assert.equal(settled.reason, 'completed')
  // The kitchen's fold reads the outcome from these lines.
  const f = fold(r.lines)
  assert.deepEqual(f.report, { status: 'done', summary: 'Added limit.txt in one commit; make test passes.' })
  assert.equal(f.prompted, true)
  assert.ok(f.settledAt >= f.startedAt)
  assert.equal(f.providerError, undefined)
  // The commit is on the task branch, in the worktree.
  assert.equal(git(ctx.task.worktree, 'log', '--format=%s', '-1', ctx.task.branch).trim(), 'Add limit')
  // Exactly two model calls: the bash step and the report step; nothing after the report.
  assert.equal(ctx.model.requests.length, 2)
  assert.deepEqual(toolResults(ctx.model.requests[1].body).length, 1)
  // The session is on disk under the session dir.
  assert.ok(readdirSync(join(ctx.task.taskDir, 'session')).length > 0)
})

test('run 2 with the same session id on another model resumes it, and the model sees run 1', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(report('needs_decision', 'Cookie session or bearer token?'))
  const r1 = await run(t, ctx, { run: 1, prompt: 'Decide the auth scheme for /login. MARKER-RUN-ONE\n', modelName: FLASH }).done
  assert.equal(r1.code, 0, r1.err)
  assert.deepEqual(fold(r1.lines).report, { status: 'needs_decision', summary: 'Cookie session or bearer token?' })

  ctx.cook.push(report('done', 'Went with bearer tokens.'))
  const r2 = await run(t, ctx, { run: 2, prompt: 'Use bearer tokens. MARKER-RUN-TWO\n', modelName: PRO }).done
  assert.equal(r2.code, 0, r2.err)
  assert.equal(r2.lines[0].type, 'run_start')
  assert.equal(r2.lines[0].resumed, true)
  assert.deepEqual(r2.lines[0].model, { provider: 'deepseek-official', model: 'deepseek-v4-pro' })
  assert.equal(r2.lines.filter((l) => l.type === 'prompted').length, 1, 'a resume does not replay run 1 into the run file')
  const request = ctx.model.requests.at(-1).body
  assert.equal(request.model, 'deepseek-v4-pro')
  const text = messageText(request)
  assert.match(text, /MARKER-RUN-ONE/)
  assert.match(text, /MARKER-RUN-TWO/)
  assert.ok(request.messages.some((m) => m.role === 'assistant' && (m.tool_calls ?? []).some((c) => c.function.name === 'chef_report')), 'run 1\'s report call is in the history')
  assert.deepEqual(fold(r2.lines).report, { status: 'done', summary: 'Went with bearer tokens.' })
})

test('an HTTP 402 from the provider is a provider-failure line, and the cook exits', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push({ status: 402, message: 'Insufficient Balance', code: 'insufficient_balance' })
  const r = await run(t, ctx, { run: 1, prompt: 'Anything.\n', modelName: FLASH }).done
  assert.equal(r.code, 1)
  const failure = r.lines.find((l) => l.type === 'assistant')
  assert.equal(failure.stopReason, 'error')
  assert.match(failure.error, /^402: .*Insufficient Balance/)
  assert.deepEqual(failure.model, { provider: 'deepseek-official', model: 'deepseek-v4-flash' })
  assert.equal(r.lines.at(-1).type, 'settled')
  assert.equal(r.lines.at(-1).reason, 'error')
  const f = fold(r.lines)
  assert.match(f.providerError, /402/)
  assert.equal(f.report, undefined)
  assert.equal(ctx.model.requests.length, 1, 'a 402 is not retried')
})

test('a message sent to the inbox while a turn runs is steered into the next model request', { skip }, async (t) => {
  const ctx = await setup(t)
  // The first step's command holds the turn open until the test has seen the steer claimed.
  ctx.cook.push(
    bash('while [ ! -e go ]; do sleep 0.05; done; echo released', 'wait for the go file'),
    report('done', 'Followed the message.'),
  )
  const cook = run(t, ctx, { run: 1, prompt: 'Start working.\n', modelName: FLASH })
  await until(() => cook.lines().some((l) => l.type === 'tool_start' && l.tool === 'bash'), 'the bash call to start')
  const name = sendToInbox(ctx.task, 'Also write STEERED-TEXT into notes.txt.')
  await until(() => existsSync(join(ctx.task.taskDir, 'inbox', 'handled', name)), 'the cook to claim the message')
  assert.equal(existsSync(join(ctx.task.taskDir, 'inbox', name)), false)
  writeFileSync(join(ctx.task.worktree, 'go'), '')
  const r = await cook.done
  assert.equal(r.code, 0, r.err)
  const steer = r.lines.find((l) => l.type === 'prompted' && l.source === 'steer')
  assert.ok(steer, JSON.stringify(r.lines))
  assert.match(steer.text, /STEERED-TEXT/)
  assert.equal(ctx.model.requests.length, 2)
  assert.doesNotMatch(messageText(ctx.model.requests[0].body), /STEERED-TEXT/)
  assert.match(messageText(ctx.model.requests[1].body), /Message from the chef[\s\S]*STEERED-TEXT/)
})

test('the cook contract and the project\'s commands are in the model\'s request, chef_report is offered', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(report('done', 'ok'))
  const r = await run(t, ctx, { run: 1, prompt: 'Check.\n', modelName: FLASH }).done
  assert.equal(r.code, 0, r.err)
  const body = ctx.model.requests[0].body
  const system = systemText(body)
  assert.match(system, /# Cook contract/)
  assert.ok(system.includes(`Work only in this directory: ${ctx.task.worktree}, a git repository of your own`), system)
  assert.ok(system.includes(`the task branch \`${ctx.task.branch}\``), system)
  assert.match(system, /Never wait for a human/)
  assert.match(system, /exactly one `chef_report` call/)
  assert.match(system, /- test: `make test` \(Makefile\)/)
  assert.match(system, /- build: `make build` \(Makefile\)/)
  const reportTool = body.tools.find((x) => x.function.name === 'chef_report')
  assert.deepEqual(reportTool.function.parameters.properties.status.enum, ['done', 'needs_decision', 'blocked', 'failed'])
})

test('the role variables are gone from the cook\'s bash environment', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(bash('env | grep -E "^KITCHEN_(ROLE|TASK_DIR|RUN)=" || echo "no role variables"; echo "other=$UNRELATED_MARK"', 'show the environment'), report('done', 'ok'))
  const r = await run(t, ctx, { run: 1, prompt: 'Env.\n', modelName: FLASH, env: { UNRELATED_MARK: 'kept' } }).done
  assert.equal(r.code, 0, r.err)
  const [result] = toolResults(ctx.model.requests[1].body)
  assert.match(result.content, /no role variables/)
  assert.match(result.content, /other=kept/, 'other variables still reach bash')
  assert.doesNotMatch(result.content, /KITCHEN_ROLE=|KITCHEN_TASK_DIR=|KITCHEN_RUN=/)
})

test('a second chef_report in the same run is refused', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push({ calls: [{ tool: 'chef_report', args: { status: 'done', summary: 'first' } }, { tool: 'chef_report', args: { status: 'failed', summary: 'second' } }] })
  const r = await run(t, ctx, { run: 1, prompt: 'Report twice.\n', modelName: FLASH }).done
  assert.equal(r.code, 0, r.err)
  const ends = r.lines.filter((l) => l.type === 'tool_end' && l.tool === 'chef_report')
  assert.equal(ends.length, 2)
  assert.deepEqual(ends.filter((l) => l.report).map((l) => l.report.summary), ['first'])
  assert.equal(ends.filter((l) => l.isError).length, 1)
  assert.match(ends.find((l) => l.isError).tail, /already reported done/)
  assert.deepEqual(fold(r.lines).report, { status: 'done', summary: 'first' })
})

test('bad cook flags are a runner_error line and exit code 2', { skip }, async (t) => {
  const ctx = await setup(t)
  const c = run(t, ctx, { run: 1, prompt: 'x\n', modelName: 'has space/model' })
  const r = await c.done
  assert.equal(r.code, 2, r.err)
  assert.equal(r.lines.length, 1)
  assert.equal(r.lines[0].type, 'runner_error')
  assert.match(r.lines[0].message, /--model=.*has a space/)
  assert.equal(ctx.model.requests.length, 0)
})

test('SIGTERM to the cook\'s group mid-tool: it exits, its group is gone, and the run does not claim to have settled', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(bash('sleep 300', 'a long command'))
  const cook = run(t, ctx, { run: 1, prompt: 'Take long.\n', modelName: FLASH })
  await until(() => cook.lines().some((l) => l.type === 'tool_start' && l.tool === 'bash'), 'the bash call to start')
  process.kill(-cook.child.pid, 'SIGTERM')
  const r = await cook.done
  assert.equal(r.signal, null, 'the harness shut down on its own')
  assert.equal(r.lines.some((l) => l.type === 'settled'), false)
  assert.match(r.lines.at(-1).message, /^the run was cancelled \(disposed\) before the agent settled$/)
  const f = fold(r.lines)
  assert.equal(f.settledAt, undefined)
  assert.match(f.runnerError, /cancelled/)
  await until(() => {
    try {
      process.kill(-cook.child.pid, 0)
      return false
    } catch {
      return true
    }
  }, 'the process group to be gone', 30_000)
})

test('a steer claimed while the report step is in flight gets one more step, and that step may report again', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(
    async () => {
      // The model is "thinking" about its report when the chef's message arrives and is claimed.
      const name = sendToInbox(ctx.task, 'LATE-MESSAGE: also update the changelog.')
      await until(() => existsSync(join(ctx.task.taskDir, 'inbox', 'handled', name)), 'the cook to claim the message')
      return report('done', 'first report')
    },
    (body) => report('done', messageText(body).includes('LATE-MESSAGE') ? 'updated the changelog too' : 'never saw the message'),
  )
  const r = await run(t, ctx, { run: 1, prompt: 'Finish up.\n', modelName: FLASH }).done
  assert.equal(r.code, 0, r.err)
  const reports = r.lines.filter((l) => l.type === 'tool_end' && l.report).map((l) => l.report.summary)
  assert.deepEqual(reports, ['first report', 'updated the changelog too'])
  assert.equal(r.lines.filter((l) => l.type === 'tool_end' && l.isError).length, 0)
  assert.deepEqual(fold(r.lines).report, { status: 'done', summary: 'updated the changelog too' })
  assert.equal(ctx.model.requests.length, 2)
})

test('--thinking: an effort the model offers reaches the request; one it does not is dropped with a note, not a provider failure', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push(report('done', 'ok'))
  const high = await run(t, ctx, { run: 1, prompt: 'Think hard.\n', modelName: FLASH, thinking: 'high' }).done
  assert.equal(high.code, 0, high.err)
  assert.equal(ctx.model.requests[0].body.reasoning_effort, 'high')
  ctx.cook.push(report('done', 'ok'))
  const medium = await run(t, ctx, { run: 2, prompt: 'Think some.\n', modelName: FLASH, thinking: 'medium' }).done
  assert.equal(medium.code, 0, medium.err)
  assert.match(medium.err, /thinking level "medium" is not offered by this model \(it offers .*high.*\); using the model's default/)
  assert.notEqual(ctx.model.requests[1].body.reasoning_effort, 'medium')
  assert.equal(fold(medium.lines).providerError, undefined)
})

test('a command that dsh\'s bash tool timed out is a failed call in the run file, whatever the cook reports after it', { skip }, async (t) => {
  const ctx = await setup(t)
  ctx.cook.push({ tool: 'bash', args: { command: 'sleep 30', description: 'run the suite', timeoutMs: 400 } }, report('done', 'All tests pass.'))
  const r = await run(t, ctx, { run: 1, prompt: 'Run the tests.\n', modelName: FLASH }).done
  assert.equal(r.code, 0, r.err)
  const end = r.lines.find((l) => l.type === 'tool_end' && l.tool === 'bash')
  assert.equal(end.isError, true, end.tail)
  assert.match(end.tail, /\[timed out after 400ms\]/)
  const f = fold(r.lines)
  assert.deepEqual(f.report, { status: 'done', summary: 'All tests pass.' })
  assert.equal(f.failedCalls, 1)
  assert.equal(f.calls[0].text, 'bash: sleep 30')
  assert.match(f.calls[0].failed, /^\[timed out after 400ms\]/)
  // what the wake says beside the claim
  const saw = sawText({ ran: { toolCalls: f.toolCalls, failedCalls: f.failedCalls, calls: f.calls } })
  assert.equal(saw.doubt, true)
  assert.match(saw.text, /1 tool call failed, the last `bash: sleep 30` \(\[timed out after 400ms\]/)
})
