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
