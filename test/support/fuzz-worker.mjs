// Runs a fuzz file's cases in a worker thread and watches it: the worker posts
// { type: 'case', index, preview } before each case and { type: 'done', ... } at the end. No progress
// for `hangMs` fails with the seed and the case; a crash fails with the seed. Returns the done message.
import assert from 'node:assert/strict'
import { Worker } from 'node:worker_threads'

export async function runWatchedWorker(url, seed, hangMs) {
  const worker = new Worker(url, { workerData: { seed } })
  let last = { index: -1 }
  const outcome = await new Promise((resolve) => {
    let timer
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(() => { worker.terminate(); resolve({ hang: true }) }, hangMs)
    }
    arm()
    worker.on('message', (m) => {
      if (m.type === 'case') { last = m; arm() } else { clearTimeout(timer); resolve(m) }
    })
    worker.on('error', (error) => { clearTimeout(timer); resolve({ type: 'error', error: String(error?.stack ?? error) }) })
  })
  if (outcome.hang) assert.fail(`case ${last.index} did not finish within ${hangMs} ms (replay with FUZZ_SEED=${seed}); input starts: ${JSON.stringify(last.preview)}`)
  if (outcome.type === 'error') assert.fail(`seed ${seed} (replay with FUZZ_SEED=${seed}): ${outcome.error}`)
  assert.equal(outcome.type, 'done')
  return outcome
}
