/**
 * `chef_result {verify: true}`: runs the project's test command on what the cook committed, and
 * nothing else.
 *
 * - The command is the one the base branch declares (found by `discover` in the base branch's own
 *   tree, checked out by the kitchen), by name, never the task branch's: a cook that rewrote
 *   `"test"` in its branch does not choose what runs. A named test command is a name among them.
 * - It goes through the destructive gate (`judgeRecipeCall`), as the base branch has it and as the
 *   task branch has it (the runner reads the task branch's manifest when it runs): a body that
 *   deletes or overwrites what is not build output, publishes or deploys is not run; the answer
 *   says it needs a person.
 * - It runs in the task's clone with the cook's own sandbox (workspace-write with the clone as the
 *   workspace: the clone writable, nothing else), through the harness's shell, so a suite that
 *   writes build output works and one that reaches outside is refused by the kernel.
 * - Only on a clean clone whose HEAD is the task branch as the kitchen brought it back: changes not
 *   committed are reported, never verified as if they were.
 */
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-shell'
import type { ShellExecRequest, ShellRunResult } from '@deepseek-ai/dsh-shell'
import { judgeRecipeCall } from '../book/risk/index.js'
import { discover } from '../book/discover.js'
import { DEFAULT_STREAM_LIMIT } from '../book/execute.js'
import { verifyNotRunText, verifyText, type Kitchen, type ResultView } from '../kitchen/index.js'
import { findTest } from './project-commands.js'

export interface Verified {
  ok: boolean
  command: string
  exitCode: number | null
}

const TAIL_LINES = 20

/** The lines verify adds to a result, and what ran (when something did). */
export async function verifyTask(ctx: Context, kitchen: Kitchen, r: ResultView, options: { named?: string; timeoutMs: number; signal?: AbortSignal }): Promise<{ lines: string[]; verified?: Verified }> {
  const not = (why: string) => ({ lines: [verifyNotRunText(why)] })
  const s = r.state
  if (s.kind === 'cooking') return not('the cook is still working; verify once it reports')
  if (!r.worktreeExists) return not(`the clone ${r.worktree} is gone`)
  if (r.backProblem) return not(`the branch was not brought back from the clone (${r.backProblem})`)
  if (r.head !== r.branch) return not(`the clone's HEAD is ${r.head ? `on ${r.head}` : 'detached'}, not on ${r.branch}, so what is checked out is not the task's work`)
  if (r.dirty) return not(`the clone has uncommitted changes (${(r.changes ?? []).slice(0, 5).join(', ') || 'files'}); verify runs only on what is committed: ask the cook to commit them, or look at the clone`)
  const shell = ctx.get('shell') as Context['shell'] | undefined
  if (!shell) return not('no shell executor is mounted in this dsh (ctx.shell)')
  if (shell.sandboxMode === undefined) return not('this dsh runs shell commands without a sandbox, so the test can\'t be confined to the clone; mount @deepseek-ai/dsh-bash-sandbox')

  const base = await kitchen.baseTree(r.task)
  let recipe
  try {
    const found = discover(base.dir, {}, { cache: false, checkRunners: false })
    recipe = findTest(found.book.entries(), options.named)
    if (!recipe) {
      return not(options.named
        ? `the project's test command "${options.named}" names none of the commands ${r.baseBranch} declares`
        : `${r.baseBranch} declares no test command (no test, check or tests target in its Makefile, package.json scripts, justfile, ...); name one with chef_add_project's testCommand`)
    }
    const verdict = judgeRecipeCall(recipe, [], { root: base.dir, book: found.book })
    if (verdict.destructive) return not(`${r.baseBranch}'s \`${recipe.command}\` needs a person: ${verdict.reason ?? 'it is destructive'}; run it yourself if it is safe`)
  } finally {
    base.done()
  }
  // What the runner will read is the task branch's manifest: its body of the same command is judged too.
  const own = discover(r.worktree, {}, { cache: false, checkRunners: false })
  const mine = own.book.entries().find((x) => x.id === recipe.id)
  if (mine) {
    const verdict = judgeRecipeCall(mine, [], { root: r.worktree, book: own.book })
    if (verdict.destructive) return not(`${r.branch}'s own \`${mine.command}\` needs a person: ${verdict.reason ?? 'it is destructive'}; look at what the cook changed in ${mine.file}`)
  }

  let clone = r.worktree
  try {
    clone = realpathSync(r.worktree)
  } catch {
    // judged on the path as it is
  }
  const request: ShellExecRequest = {
    command: recipe.command,
    workdir: join(clone, recipe.cwd),
    timeoutMs: options.timeoutMs,
    stdoutMaxBytes: DEFAULT_STREAM_LIMIT,
    ...(options.signal ? { signal: options.signal } : {}),
  }
  // The cook's sandbox: the clone is the workspace, writable; nothing else is.
  request.sandboxPolicy = { mode: 'workspace-write', workspaceRoot: clone } as ShellExecRequest['sandboxPolicy']
  const started = performance.now()
  let run: ShellRunResult
  try {
    run = await shell.run(shell.resolve(request))
  } catch (error) {
    if (options.signal?.aborted) throw error
    return not(`the test command could not start in the sandbox: ${(error as Error)?.message ?? String(error)}`)
  }
  const seconds = (performance.now() - started) / 1000
  const killed = run.timedOut || run.aborted
  const ok = run.exitCode === 0 && !killed
  const output = `${run.stdout.text}${run.stdout.text && run.stderr.text ? '\n' : ''}${run.stderr.text}`.trimEnd()
  const lines = verifyText({
    command: recipe.command,
    from: recipe.line ? `${recipe.file}:${recipe.line}` : recipe.file,
    baseBranch: r.baseBranch,
    clone,
    outcome: ok ? 'passed' : run.timedOut ? 'timed-out' : killed ? 'killed' : 'failed',
    exitCode: run.exitCode,
    timeoutMs: options.timeoutMs,
    seconds,
    denied: run.sandbox?.denied === true,
    tail: output.split('\n').slice(-TAIL_LINES),
  })
  return { lines, verified: { ok, command: recipe.command, exitCode: run.exitCode } }
}
