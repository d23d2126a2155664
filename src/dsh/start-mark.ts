/**
 * The moment a session has started, as far as this package goes: the adapter's first tool plan is
 * registered. The harness bundle (rows-loader.ts) makes its code cache a little after it, so that
 * the cache holds the start's code (what the next start runs) rather than all a long session ran.
 */
const waiting: Array<() => void> = []
let started = false

/** Runs `fn` once the session has started (at once if it has). */
export function whenStarted(fn: () => void): void {
  if (started) fn()
  else waiting.push(fn)
}

/** Called by the adapter after its first tool plan; later calls do nothing. */
export function markStarted(): void {
  if (started) return
  started = true
  for (const fn of waiting.splice(0)) fn()
}
