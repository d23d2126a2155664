// Timing helpers shared by the benchmarks.

/** Median wall time in ms of `runs` calls of `fn`, after `warmups` calls (JIT, page cache). */
export function timeMedian(fn, runs, warmups = 2) {
  for (let k = 0; k < warmups; k++) fn()
  const times = []
  for (let k = 0; k < runs; k++) {
    const t = process.hrtime.bigint()
    fn()
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]
}

/** The median of a list of numbers (NaN for none). */
export function median(xs) {
  return xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
}

/** Milliseconds for a table cell; 'n/a' for a figure that wasn't measured. */
export const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a')

/** A difference in milliseconds, signed: on a busy machine a small one can come out below zero. */
export const signedMs = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)} ms` : 'n/a')

/** The model the kitchen benches give their cooks (the fake model answers for any name). */
export const FLASH = 'deepseek-official/deepseek-v4-flash'

/** Wall time in ms of one call of `fn`. */
export function wall(fn) {
  const t = process.hrtime.bigint()
  fn()
  return Number(process.hrtime.bigint() - t) / 1e6
}
