// The least any Node program pays to list a repository's commands, whatever its design: it lists
// every directory (a workspace's members must be found), reads every manifest (every file but
// Rust sources, which the cargo collector only lists), parses the JSON ones and splits the rest
// into lines (less than any real parser does), and writes as many bytes as the scan's output.
// No parsing library, no module beyond node:fs. The shapes bench runs it beside the scan, so
// that "scan - node" can be read against "floor - node" on the same machine in the same run.
// Usage: node bench/floor.cjs DIR OUTPUT_BYTES; with FLOOR_TIME=1 it also writes the milliseconds
// its own work took (the walk, the reads, the parses) to stderr, the in-process floor of discover().
'use strict'
const { readdirSync, readFileSync, writeSync } = require('node:fs')

const [dir, bytes] = process.argv.slice(2)
const started = process.hrtime.bigint()
let kept = 0
function walk(path) {
  for (const e of readdirSync(path, { withFileTypes: true })) {
    const p = `${path}/${e.name}`
    if (e.isDirectory()) walk(p)
    else if (!e.name.endsWith('.rs')) {
      const text = readFileSync(p, 'utf8')
      kept += e.name.endsWith('.json') ? Object.keys(JSON.parse(text)).length : text.split('\n').length
    }
  }
}
walk(dir)
if (process.env.FLOOR_TIME === '1') writeSync(2, String(Number(process.hrtime.bigint() - started) / 1e6))
writeSync(1, 'x'.repeat(Math.max(0, Number(bytes) - String(kept).length)) + kept)
