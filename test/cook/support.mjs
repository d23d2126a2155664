// Shared set-up for the cook runner tests: a task laid out as the kitchen lays it out (a git
// worktree on its task branch, tasks/<id>/{task.json,runs,inbox,session}), and a cook process
// started from the runner's own command template with its stdout on the claimed run file, as the
// kitchen starts it. Also used by end-to-end tests of the chef side.
//
//   const task = await makeTask(scratch, { files: { Makefile: 'test:\n\ttrue\n' } })
//   const cook = startCook({ task, run: 1, prompt: 'Do it', model, home, modelName: 'deepseek-official/deepseek-v4-flash' })
//   const { code, lines } = await cook.done
import { spawn, execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dshEnv, dshInstall } from '../e2e/harness.mjs'
import { cookArgv, checkCookCommand } from '../../dist/src/kitchen/cooks/index.js'
import { cookRunnerCommand } from '../../dist/src/cook/index.js'

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } })
}

/** A temp dir (realpath, so paths compare equal to what processes report). */
export async function tempDir(prefix = 'cs-cook-') {
  return realpathSync(await mkdtemp(join(tmpdir(), prefix)))
}

/**
 * A kitchen-shaped task under `parent`: `repo/` (one commit on main), `kitchen/worktrees/<id>` (the
 * cook's clone, as the kitchen makes it) on branch `issue/<id>`, and `kitchen/tasks/<id>/` with
 * task.json, runs/, inbox/handled/, session/.
 */
export async function makeTask(parent, { id = 'demo-1', files = {} } = {}) {
  const repo = join(parent, 'repo')
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'README'), 'demo\n')
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text)
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  const kitchen = join(parent, 'kitchen')
  const worktree = join(kitchen, 'worktrees', id)
  const branch = `issue/${id}`
  mkdirSync(join(kitchen, 'worktrees'), { recursive: true })
  const { ensureClone } = await import('../../dist/src/kitchen/git.js')
  await ensureClone(repo, worktree, branch, 'main')
  const taskDir = join(kitchen, 'tasks', id)
  for (const sub of ['runs', 'session', 'inbox/handled']) mkdirSync(join(taskDir, sub), { recursive: true })
  const sessionId = `session-${id}-0001`
  const spec = { id, project: id.replace(/-\d+$/, ''), title: 'Demo task', brief: 'Demo brief', branch, worktree, baseBranch: 'main', sessionId, models: [] }
  writeFileSync(join(taskDir, 'task.json'), JSON.stringify(spec, null, 2))
  return { id, repo, kitchen, worktree, branch, taskDir, sessionId, spec }
}

/** Writes an inbox message as the kitchen does (tmp + rename); returns its name. */
export function sendToInbox(task, text, at = Date.now()) {
  const name = `${String(at).padStart(13, '0')}-t${Math.random().toString(36).slice(2, 8)}.msg`
  const tmp = join(task.taskDir, 'inbox', `.${name}.tmp`)
  writeFileSync(tmp, text)
  renameSync(tmp, join(task.taskDir, 'inbox', name))
  return name
}

/** The runner's command template with the pinned dsh (the overlay goes into the kitchen dir). */
export function runnerTemplate(task) {
  const { bin, node } = dshInstall()
  const template = cookRunnerCommand({ dsh: join(bin, 'dsh'), node, overlayDir: task.kitchen })
  const problems = checkCookCommand(template)
  if (problems.length > 0) throw new Error(`the runner's template fails the kitchen's check: ${problems.join('; ')}`)
  return template
}

/** Parsed lines of a run file (every line must be JSON). */
export function runLines(path) {
  let text = ''
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l))
}

/**
 * Starts run `run` of the task as the kitchen would: the prompt file, an O_EXCL run file as fd 1,
 * the err file for append, the role variables, cwd the worktree, its own process group. Returns
 * { child, runFile, errFile, lines(), done } where done resolves to { code, signal, lines, err }.
 * The process is killed when `timeoutMs` runs out; `kill()` ends its group.
 */
export function startCook({ task, run, prompt, model, home, modelName, thinking, env = {}, timeoutMs = 90_000 }) {
  const runs = join(task.taskDir, 'runs')
  const promptFile = join(runs, `${run}.prompt.md`)
  writeFileSync(promptFile, prompt)
  const runFile = join(runs, `${run}.jsonl`)
  const errFile = join(runs, `${run}.err`)
  const argv = cookArgv(runnerTemplate(task), {
    promptFile, sessionDir: join(task.taskDir, 'session'), sessionId: task.sessionId, worktree: task.worktree,
    taskDir: task.taskDir, run, ...(modelName ? { model: modelName } : {}), ...(thinking ? { thinking } : {}),
  })
  const out = openSync(runFile, 'wx')
  const err = openSync(errFile, 'a')
  const child = spawn(argv[0], argv.slice(1), {
    cwd: task.worktree,
    detached: true,
    stdio: ['ignore', out, err],
    env: dshEnv({ home, model, env: { KITCHEN_ROLE: 'cook', KITCHEN_TASK_DIR: task.taskDir, KITCHEN_RUN: String(run), ...env } }),
  })
  closeSync(out)
  closeSync(err)
  const kill = (signal = 'SIGKILL') => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => kill(), timeoutMs)
  const done = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, lines: runLines(runFile), err: readFileSync(errFile, 'utf8') })
    })
  })
  return { child, argv, runFile, errFile, lines: () => runLines(runFile), done, kill }
}

/** Polls `fn` until it returns a truthy value (state, not time, decides; `ms` only bounds a hang). */
export async function until(fn, what = 'condition', ms = 60_000) {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
