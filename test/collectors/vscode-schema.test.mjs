// No command-line tool lists VS Code tasks, so the vscode collector is checked against the
// format's published schema (test/support/vscode-tasks.schema.json, transcribed from the interfaces
// VS Code documents, validated with ajv) on every fixture and on generated tasks.json files:
// - a file the schema accepts gets no error diagnostic, and every shell/process task in it is
//   either listed under its label or named in a diagnostic saying why not (an editor-only
//   variable, a cwd outside the root, a duplicate label);
// - a file the schema rejects (or that is no JSONC) gets at least one diagnostic.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { parse } from 'jsonc-parser'
import { vscodeCollector } from '../../dist/collectors/vscode.js'
import { rng } from '../support/random.mjs'

const require = createRequire(import.meta.url)
const Ajv = require('ajv')
const schema = JSON.parse(readFileSync(new URL('../support/vscode-tasks.schema.json', import.meta.url), 'utf8'))
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)
const FIXTURES = new URL('../fixtures/vscode/', import.meta.url).pathname

function check(root, label) {
  const text = readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8')
  const errors = []
  const doc = parse(text, errors, { allowTrailingComma: true })
  const result = vscodeCollector.collect({ root, options: { enabled: true } })
  const valid = errors.length === 0 && validate(doc)
  if (!valid) {
    assert.ok(result.diagnostics.length > 0, `${label}: the schema rejects it (${JSON.stringify(validate.errors?.[0] ?? errors[0])}), the collector must say something`)
    return result
  }
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], `${label}: the schema accepts it, so no error`)
  for (const task of doc.tasks ?? []) {
    if (!['shell', 'process'].includes(task.type)) continue
    const listed = result.recipes.some((r) => r.name === task.label)
    assert.ok(listed || result.diagnostics.some((d) => d.message.includes(`"${task.label}"`)), `${label}: task "${task.label}" is neither listed nor explained`)
  }
  return result
}

describe('the vscode collector against the tasks.json schema', () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    test(`schema and collector agree: ${name}`, () => { check(join(FIXTURES, name), name) })
  }

  test('200 generated tasks.json files: the schema accepts each, the collector lists every task', () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201))
    const pick = (n) => Math.floor(r() * n)
    const base = mkdtempSync(join(tmpdir(), 'scout-vscode-gen-'))
    try {
      for (let k = 0; k < 200; k++) {
        const dir = join(base, String(k))
        mkdirSync(join(dir, '.vscode'), { recursive: true })
        mkdirSync(join(dir, 'pkg'), { recursive: true })
        const tasks = []
        const n = 1 + pick(8)
        for (let i = 0; i < n; i++) {
          const type = pick(2) ? 'shell' : 'process'
          const task = { label: `${['build', 'test', 'lint', 'run dev', 'Ünïcode', 'a:b'][pick(6)]} ${i}`, type, command: type === 'shell' ? ['make build', 'npm test', 'echo "${workspaceFolder}"', 'cargo test --all'][pick(4)] : ['node', 'python3', '${workspaceFolder}/bin/x'][pick(3)] }
          if (pick(2)) task.args = Array.from({ length: pick(4) }, (_, j) => (pick(3) ? `--a${j}` : { value: `v ${j}`, quoting: ['escape', 'strong', 'weak'][pick(3)] }))
          if (pick(3) === 0) task.options = { cwd: pick(2) ? '${workspaceFolder}/pkg' : 'pkg' }
          if (pick(4) === 0) task.detail = `Detail ${i}`
          if (pick(4) === 0) task.linux = { command: 'echo linux' }
          if (i > 0 && pick(4) === 0) task.dependsOn = tasks[pick(tasks.length)].label
          tasks.push(task)
        }
        if (pick(3) === 0) tasks.push({ label: 'compound', dependsOn: tasks.map((t) => t.label), dependsOrder: pick(2) ? 'sequence' : 'parallel' })
        const body = JSON.stringify({ version: '2.0.0', tasks }, null, 2)
        writeFileSync(join(dir, '.vscode', 'tasks.json'), pick(2) ? `// generated\n${body.replace(/\n(\s*)\}/g, ',\n$1}')}` : body)
        const result = check(dir, `generated case ${k}`)
        assert.deepEqual(result.recipes.map((x) => x.name), tasks.map((t) => t.label), `generated case ${k}: every task, in order`)
        assert.deepEqual(result.diagnostics, [], `generated case ${k}`)
      }
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })
})
