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
 *
 * - What ran is recorded on the task as a `verified` event (the kitchen's, so the live board shows
 *   it); the merge queue's test runs are recorded by the kitchen as they come back.
 *
 * The merge queue's test (merge-test.ts) is the same policy on a branch brought onto its base:
 * `pickTest` (the base's command, gated on both trees) and `runConfined` (the shell, confined to
 * the tree it runs in) are shared.
 */
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-shell'
import type { Recipe } from '../book/recipe.js'
import type { ShellExecRequest, ShellRunResult } from '@deepseek-ai/dsh-shell'
import { judgeRecipeCall } from '../book/risk/index.js'
import { discover } from '../book/discover.js'
import { DEFAULT_STREAM_LIMIT } from '../book/stream-limit.js'
import { declaredAt, findTest, noTestCommandText, verifyNotRunText, verifyText, type Kitchen, type ResultView, type VerifyVerdict } from '../kitchen/index.js'
import { verifyNotRecordedText } from '../kitchen/derive/texts.js'

export type Verified = VerifyVerdict

const TAIL_LINES = 20

/** Why dsh's shell can't run a test confined to a tree of the kitchen's here; undefined when it can. */
export function shellProblem(ctx: Context): string | undefined {
  const shell = ctx.get('shell') as Context['shell'] | undefined
  if (!shell) return 'no shell executor is mounted in this dsh (ctx.shell)'
  if (shell.sandboxMode === undefined) {
    return 'this dsh runs shell commands without a sandbox, so the test can\'t be confined to the clone; mount @deepseek-ai/dsh-bash-sandbox'
  }
  return undefined
}

/**
 * The test command `baseDir` (the base branch's own tree) declares, by name when `named`, judged
 * by the destructive gate there and, as `workDir` declares the same command (what the runner will
 * read), there too; or why it is not run.
 */
export function pickTest(
  baseDir: string, workDir: string, o: { baseBranch: string; branch: string; named?: string },
): { recipe: Recipe } | { why: string } {
  const found = discover(baseDir, {}, { cache: false, checkRunners: false })
  const recipe = findTest(found.book.entries(), o.named)
  if (!recipe) return { why: noTestCommandText(o.baseBranch, o.named) }
  const verdict = judgeRecipeCall(recipe, [], { root: baseDir, book: found.book })
  if (verdict.destructive) return { why: `${o.baseBranch}'s \`${recipe.command}\` needs a person: ${verdict.reason ?? 'it is destructive'}; run it yourself if it is safe` }
  const own = discover(workDir, {}, { cache: false, checkRunners: false })
  const mine = own.book.entries().find((x) => x.id === recipe.id)
  if (mine) {
    const v = judgeRecipeCall(mine, [], { root: workDir, book: own.book })
    if (v.destructive) return { why: `${o.branch}'s own \`${mine.command}\` needs a person: ${v.reason ?? 'it is destructive'}; look at what the cook changed in ${mine.file}` }
  }
  return { recipe }
}

/** How a confined run ended. */
export interface ConfinedRun {
  command: string
  from: string
  /** The tree it ran in, as the kernel names it. */
  workDir: string
  outcome: 'passed' | 'failed' | 'timed-out' | 'killed'
  ok: boolean
  exitCode: number | null
  seconds: number
  denied: boolean
  tail: string[]
}

/** `recipe` run through dsh's shell in `workDir`, with the cook's sandbox: that tree writable, nothing else. */
export async function runConfined(
  ctx: Context, recipe: Recipe, workDir: string, options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ConfinedRun | { why: string }> {
  const shell = ctx.get('shell') as Context['shell']
  let root = workDir
  try {
    root = realpathSync(workDir)
  } catch {
    // judged on the path as it is
  }
  const request: ShellExecRequest = {
    command: recipe.command,
    workdir: join(root, recipe.cwd),
    timeoutMs: options.timeoutMs,
    stdoutMaxBytes: DEFAULT_STREAM_LIMIT,
    ...(options.signal ? { signal: options.signal } : {}),
  }
  // The cook's sandbox: the tree is the workspace, writable; nothing else is.
  request.sandboxPolicy = { mode: 'workspace-write', workspaceRoot: root } as ShellExecRequest['sandboxPolicy']
  const started = performance.now()
  let run: ShellRunResult
  try {
    run = await shell.run(shell.resolve(request))
  } catch (error) {
    if (options.signal?.aborted) throw error
    return { why: `the test command could not start in the sandbox: ${(error as Error)?.message ?? String(error)}` }
  }
  const seconds = (performance.now() - started) / 1000
  const killed = run.timedOut || run.aborted
  const ok = run.exitCode === 0 && !killed
  const output = `${run.stdout.text}${run.stdout.text && run.stderr.text ? '\n' : ''}${run.stderr.text}`.trimEnd()
  const outcome = ok ? 'passed' : run.timedOut ? 'timed-out' : killed ? 'killed' : 'failed'
  return {
    command: recipe.command, from: declaredAt(recipe), workDir: root, outcome, ok, exitCode: run.exitCode, seconds,
    denied: run.sandbox?.denied === true, tail: output.split('\n').slice(-TAIL_LINES),
  }
}

/** The lines verify adds to a result, and what ran (when something did). */
export async function verifyTask(
  ctx: Context,
  kitchen: Kitchen,
  r: ResultView,
  options: { named?: string; timeoutMs: number; signal?: AbortSignal },
): Promise<{ lines: string[]; verified?: Verified }> {
  const not = (why: string) => ({ lines: [verifyNotRunText(why)] })
  const s = r.state
  if (s.kind === 'cooking') return not('the cook is still working; verify once it reports')
  if (!r.worktreeExists) return not(`the clone ${r.worktree} is gone`)
  if (r.backProblem) return not(`the branch was not brought back from the clone (${r.backProblem})`)
  if (r.head !== r.branch) return not(`the clone's HEAD is ${r.head ? `on ${r.head}` : 'detached'}, not on ${r.branch}, so what is checked out is not the task's work`)
  if (r.dirty) return not(`the clone has uncommitted changes (${(r.changes ?? []).slice(0, 5).join(', ') || 'files'}); verify runs only on what is committed: ask the cook to commit them, or look at the clone`)
  const problem = shellProblem(ctx)
  if (problem) return not(problem)

  const base = await kitchen.baseTree(r.task)
  let picked
  try {
    picked = pickTest(base.dir, r.worktree, { baseBranch: r.baseBranch, branch: r.branch, ...(options.named ? { named: options.named } : {}) })
  } finally {
    base.done()
  }
  if ('why' in picked) return not(picked.why)
  const run = await runConfined(ctx, picked.recipe, r.worktree, { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) })
  if ('why' in run) return not(run.why)
  const lines = verifyText({
    command: run.command,
    from: run.from,
    baseBranch: r.baseBranch,
    clone: run.workDir,
    outcome: run.outcome,
    exitCode: run.exitCode,
    timeoutMs: options.timeoutMs,
    seconds: run.seconds,
    denied: run.denied,
    tail: run.tail,
  })
  const recorded = await record(kitchen, r, run)
  return { lines: recorded ? [...lines, recorded] : lines, verified: { ok: run.ok, command: run.command, exitCode: run.exitCode, outcome: run.outcome } }
}

/** The run as a `verified` event on the task (the board shows it); a line saying why when it could not be recorded. */
async function record(kitchen: Kitchen, r: ResultView, run: ConfinedRun): Promise<string | undefined> {
  try {
    await kitchen.recordVerified(r.task, {
      by: 'result', passed: run.ok, command: run.command, ...(r.tipCommit ? { tip: r.tipCommit } : {}), exitCode: run.exitCode,
    })
    return undefined
  } catch (error) {
    return verifyNotRecordedText((error as Error)?.message ?? String(error))
  }
}
