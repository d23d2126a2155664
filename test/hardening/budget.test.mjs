// No hang on hostile input: a directory chain 2,100 deep (each real-path call of it costs the
// square of its depth) is scanned within the budget, with a diagnostic naming the depth bound; and
// a collector that never returns (a loop, a regular expression that backtracks) is stopped by the
// wall clock at its budget, wherever it is.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// The same copies of the modules as the helpers imported beside it (the package main gives its bundle's).
import { discover } from '../../dist/src/book/discover.js'
import { readText } from '../../dist/src/collectors/shared/fs.js'
import { MAX_DEPTH } from '../../dist/src/collectors/shared/guard.js'
import { tempDir } from '../support/temp.mjs'

const BUDGET_MS = 10_000

/**
 * `root/d/d/.../d`, `depth` levels. Its deep end is longer than PATH_MAX, so it is made by a
 * process that walks down with chdir, and removed with `rm -rf`, which walks down by descriptor.
 */
function deepChain(t, depth) {
  const root = mkdtempSync(join(tmpdir(), 'cs-deep-'))
  t.after(() => spawnSync('rm', ['-rf', root]))
  const make = spawnSync(process.execPath, ['-e', `process.chdir(${JSON.stringify(root)}); const fs = require('node:fs'); for (let i = 0; i < ${depth}; i++) { fs.mkdirSync('d'); process.chdir('d') }`])
  assert.equal(make.status, 0, String(make.stderr))
  return root
}

test(`a directory chain 2,100 deep is scanned within its budget, with a diagnostic for the depth bound (MAX_DEPTH ${MAX_DEPTH})`, { timeout: 120_000 }, (t) => {
  const root = deepChain(t, 2_100)
  writeFileSync(join(root, 'Cargo.toml'), '[workspace]\nmembers = ["**"]\n')
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'deep', workspaces: ['**'], scripts: { build: 'true' } }))
  writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - "**"\n')
  writeFileSync(join(root, 'go.mod'), 'module example.com/deep\n\ngo 1.22\n')
  writeFileSync(join(root, 'nx.json'), '{}')
  const started = performance.now()
  const r = discover(root, {}, { cache: false, budgetMs: BUDGET_MS })
  const took = performance.now() - started
  assert.ok(took < BUDGET_MS, `the scan took ${Math.round(took)} ms`)
  const messages = r.diagnostics.map((d) => `${d.source}: ${d.message}`)
  assert.ok(messages.some((m) => /^cargo: \. has directories more than \d+ levels deep \(MAX_DEPTH\)/.test(m)), messages.join('\n').slice(0, 2000))
  assert.ok(!messages.some((m) => /time budget/.test(m)), 'no collector ran out of time')
  assert.ok(r.book.entries().some((x) => x.command === 'npm run build'))
  // Messages about members of the chain stay short.
  for (const d of r.diagnostics) assert.ok(d.message.length < 1000, `${d.message.length} characters`)
})

test('a collector that never returns on its input is stopped by the wall clock at its budget', { timeout: 120_000 }, (t) => {
  const root = tempDir(t, 'cs-stuck-')
  writeFileSync(join(root, 'build.gradle'), `${'a'.repeat(64)}b\n`)
  // Collectors written against the helper API, as a new one would be: each reads its manifest, then works on it.
  const stuck = (source, work) => ({ source, manifestNames: ['build.gradle'], collect: ({ root: dir }) => (work(readText(join(dir, 'build.gradle'))), { recipes: [], diagnostics: [], files: [] }) })
  const collectors = [
    stuck('loop', () => { for (;;) {} }),
    // Catastrophic backtracking inside the regular expression engine: no step of the collector's own in between.
    stuck('regex', (text) => /^(a+)+$/.test(text.trim())),
    stuck('quick', () => {}),
  ]
  const started = performance.now()
  const r = discover(root, {}, { collectors, budgetMs: 300 })
  const took = performance.now() - started
  assert.ok(took < 2 * 300 + 5_000, `took ${Math.round(took)} ms`)
  const messages = r.diagnostics.map((d) => d.message)
  assert.ok(messages.some((m) => /^the loop collector ran past the scan's time budget of 300 ms; it was stopped there/.test(m)), messages.join('\n'))
  assert.ok(messages.some((m) => /^the regex collector ran past the scan's time budget of 300 ms; it was stopped there/.test(m)))
  assert.ok(!messages.some((m) => /quick/.test(m)))
})
