/**
 * The merge queue's test runner in dsh (`KitchenDeps.mergeTest`): the project's test command on a
 * task branch brought onto its base, with verify's policy (verify.ts) and nothing else. The command
 * is the one the base branch declares at the commit the branch was brought onto (its tree checked
 * out by the kitchen), by name when the project names one; it is judged by the destructive gate
 * there and in the result's tree; it runs through dsh's shell in the queue's work clone with the
 * cook's sandbox (that clone writable, nothing else). What it could not run is said, and nothing
 * lands then.
 */
import type { Context } from '@deepseek-ai/cordis'
import { mergeTestNotRunText, mergeTestText, type MergeTest, type MergeTestVerdict } from '../kitchen/index.js'
import { pickTest, runConfined, shellProblem } from './verify.js'

/** The runner on this plugin's context; `timeoutMs` is read at each run (the row's verify budget, live). */
export function mergeTester(ctx: Context, timeoutMs: () => number): MergeTest {
  return async (run): Promise<MergeTestVerdict> => {
    const not = (why: string): MergeTestVerdict => ({ ran: false, ok: false, lines: [mergeTestNotRunText(why)] })
    const problem = shellProblem(ctx)
    if (problem) return not(problem)
    const named = run.testCommand ? { named: run.testCommand } : {}
    const picked = pickTest(run.baseDir, run.workDir, { baseBranch: run.baseBranch, branch: run.branch, ...named })
    if ('why' in picked) return not(picked.why)
    const budget = timeoutMs()
    const done = await runConfined(ctx, picked.recipe, run.workDir, { timeoutMs: budget, ...(run.signal ? { signal: run.signal } : {}) })
    if ('why' in done) return not(done.why)
    const lines = mergeTestText({
      command: done.command, from: done.from, baseBranch: run.baseBranch, branch: run.branch, outcome: done.outcome,
      exitCode: done.exitCode, timeoutMs: budget, seconds: done.seconds, denied: done.denied, tail: done.tail,
    })
    return { ran: true, ok: done.ok, lines, command: done.command, exitCode: done.exitCode }
  }
}
