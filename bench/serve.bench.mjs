// `command-scout serve` under a bounded local load (autocannon on 127.0.0.1): requests per second and
// p99 latency of the render and search endpoints, beside a bare node:http handler answering a body of
// the same size, measured in the same run. The servers run in their own process (serve-target.mjs).
// SECONDS of load per case over CONNECTIONS connections (defaults 4 and 8). On a shared machine the
// load generator itself may cap the rate: compare the ratios, and read p99 beside them.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

const SECONDS = Number(process.env.SECONDS ?? 4)
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8)

const target = spawn(process.execPath, [new URL('./serve-target.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] })
const urls = await new Promise((resolve, reject) => {
  target.once('exit', (code) => reject(new Error(`serve-target exited with ${code}`)))
  createInterface({ input: target.stdout }).once('line', (line) => resolve(JSON.parse(line)))
})

function load(name, url, init = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: SECONDS, connections: CONNECTIONS, ...init }, (error, result) => {
      if (error) return reject(error)
      const bad = result.non2xx + result.errors + result.timeouts
      if (bad) return reject(new Error(`${name}: ${bad} failed requests`))
      resolve({ name, rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99 })
    })
  })
}

const render = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'linux', params: { port: '5432' } }) }
try {
  // Warm every path (JIT, the library's first parse) before measuring.
  await load('warm-up', urls.bare, { ...render, duration: 1 })
  await load('warm-up', `${urls.recipes}api/v1/recipes/network.find_process_on_port/render`, { ...render, duration: 1 })
  await load('warm-up', `${urls.recipes}api/v1/recipes?q=port`, { duration: 1 })
  const rows = [
    await load('bare node:http (baseline)', urls.bare, render),
    await load('POST /api/v1/recipes/{id}/render', `${urls.recipes}api/v1/recipes/network.find_process_on_port/render`, render),
    await load('GET /api/v1/recipes?q=port+in+use', `${urls.recipes}api/v1/recipes?q=port+in+use`),
    await load('GET /api/v1/recipes?category=git&risk=destructive', `${urls.recipes}api/v1/recipes?category=git&risk=destructive`),
  ]
  const base = rows[0]
  console.log(`${SECONDS} s of load per case, ${CONNECTIONS} connections, 127.0.0.1`)
  console.log(`${'case'.padEnd(52)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs bare'.padStart(8)}`)
  for (const r of rows) console.log(`${r.name.padEnd(52)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${`${(r.rps / base.rps).toFixed(2)}x`.padStart(8)}`)
} finally {
  target.kill()
}
