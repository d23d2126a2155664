// Temporary folders that a test removes whether it passes or fails, and waiting for a state
// (never for a time) with a deadline that only bounds a failure.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh folder under the system temp folder, removed after the test `t` (or suite hook) ends. */
export function tempDir(t, prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Resolves once `check()` is true, polling; rejects with `what` after `timeoutMs`, which is only
 * the budget of a failing run (a passing one returns as soon as the state is there).
 */
export async function waitUntil(check, { what = 'the condition', timeoutMs = 30_000, everyMs = 20 } = {}) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
