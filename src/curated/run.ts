/**
 * Running a rendered recipe: its steps in order, stopping at the first that fails, then (only when
 * every step succeeded) its verification checks. The command runner is injected, so the harness
 * passes its shell seam and tests can pass anything that runs a command line.
 */
import type { RunResult } from '../book/execute.js'
import type { RenderedRecipe } from './render.js'
import type { Platform, Risk } from './schema.js'
import { undoHeading } from './view.js'

export type RunCommandLine = (command: string) => Promise<RunResult>

/** A step's run: the runner's result (copied field by field, so nothing else leaks into the tool value) plus what the step is. */
export interface StepOutcome extends RunResult {
  purpose: string
  risk: Risk
}

export interface CheckOutcome {
  command: string
  expect: string
  ok: boolean
  exitCode: number | null
  stdout: string
  stderr: string
  durationMs: number
}

export interface RecipeRunValue {
  id: string
  title: string
  platform: Platform
  risk: Risk
  /** Every step and every verification command exited 0. */
  ok: boolean
  steps: StepOutcome[]
  /** Steps not run because an earlier one failed. */
  skipped: string[]
  verification: CheckOutcome[]
  undo: RenderedRecipe['undo']
}

export async function runRendered(rendered: RenderedRecipe, meta: { title: string; platform: Platform }, run: RunCommandLine): Promise<RecipeRunValue> {
  const steps: StepOutcome[] = []
  const skipped: string[] = []
  for (const step of rendered.commands) {
    if (steps.length && !steps[steps.length - 1]!.ok) {
      skipped.push(step.command)
      continue
    }
    const r = await run(step.command)
    steps.push({
      command: step.command, purpose: step.purpose, risk: step.risk, ok: r.ok, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr,
      killed: r.killed, timedOut: r.timedOut, durationMs: r.durationMs,
    })
  }
  const stepsOk = steps.every((s) => s.ok) && skipped.length === 0
  const verification: CheckOutcome[] = []
  if (stepsOk) {
    for (const check of rendered.verification) {
      const r = await run(check.command)
      verification.push({
        command: check.command, expect: check.expect, ok: r.ok, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, durationMs: r.durationMs,
      })
    }
  }
  return {
    id: rendered.id,
    title: meta.title,
    platform: meta.platform,
    risk: rendered.risk,
    ok: stepsOk && verification.every((v) => v.ok),
    steps,
    skipped,
    verification,
    undo: rendered.undo,
  }
}

const TAIL = 8_000

function tail(text: string): string {
  const t = text.replace(/\n$/, '')
  return t.length <= TAIL ? t : `[... ${t.length - TAIL} earlier characters not shown ...]\n${t.slice(-TAIL)}`
}

/** What the model reads: each step with its exit status and output, then each check with what to expect. */
export function renderRunText(v: RecipeRunValue): string {
  const out = [`${v.title} (${v.id}, ${v.platform}, risk ${v.risk}): ${v.ok ? 'done, verified' : 'FAILED'}`]
  v.steps.forEach((s, i) => {
    const status = s.timedOut ? 'timed out' : s.killed ? 'cancelled' : s.exitCode === null ? 'killed by signal' : `exit ${s.exitCode}`
    out.push('', `step ${i + 1}: ${s.purpose}`, `$ ${s.command}`, `[${status}, ${(s.durationMs / 1000).toFixed(1)} s]`)
    if (s.stdout) out.push(tail(s.stdout))
    if (s.stderr) out.push(`stderr:\n${tail(s.stderr)}`)
  })
  for (const c of v.skipped) out.push('', `not run (an earlier step failed): ${c}`)
  if (v.verification.length) out.push('', 'verification:')
  for (const c of v.verification) {
    out.push(`$ ${c.command}`, `[exit ${c.exitCode ?? 'signal'}] expect: ${c.expect}`)
    if (c.stdout) out.push(tail(c.stdout))
    if (c.stderr) out.push(`stderr:\n${tail(c.stderr)}`)
  }
  if (!v.ok) {
    const heading = undoHeading(v.risk, v.undo.possible).replace(/^Undo:/, 'undo:')
    out.push('', v.undo.possible ? `undo: ${v.undo.commands.join(' && ')}` : `${heading}${v.undo.note ? ` (${v.undo.note})` : ''}`)
  }
  return out.join('\n')
}
