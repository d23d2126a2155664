// No command-line tool lists VS Code tasks, so the vscode collector is checked against the
// format's published schemas (version 2.0.0: test/support/vscode-tasks.schema.json, transcribed from
// the interfaces VS Code documents; version 0.1.0: V1_SCHEMA below, transcribed from VS Code's
// jsonSchema_v1.ts and jsonSchemaCommon.ts; validated with ajv) on every fixture and on generated
// tasks.json files:
// - a file the schema accepts gets no error diagnostic, and every task that runs a command (shell,
//   process, a 0.1.0 task, an npm script) is either listed under its label or named in a diagnostic
//   saying why not (an editor-only variable, a cwd outside the root, a duplicate label, a missing
//   script), except a task with "hide": true, which is never listed;
// - a file the schema rejects (or that is no JSONC) gets at least one diagnostic.
import { describe, it as test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { parse } from 'jsonc-parser'
import { vscodeCollector } from '../../dist/src/collectors/vscode/collect.js'
import { rng } from '../support/random.mjs'

const require = createRequire(import.meta.url)
const Ajv = require('ajv')
const schema = JSON.parse(readFileSync(new URL('../support/vscode-tasks.schema.json', import.meta.url), 'utf8'))
// Version 0.1.0 (VS Code's jsonSchema_v1.ts over jsonSchemaCommon.ts), the parts the collector reads.
const STRINGS = { type: 'array', items: { type: 'string' } }
const V1_SCHEMA = {
  type: 'object',
  required: ['version'],
  properties: {
    version: { const: '0.1.0' },
    runner: { enum: ['process', 'terminal'] },
    windows: { $ref: '#/definitions/taskRunnerConfiguration' },
    osx: { $ref: '#/definitions/taskRunnerConfiguration' },
    linux: { $ref: '#/definitions/taskRunnerConfiguration' },
  },
  allOf: [{ $ref: '#/definitions/taskRunnerConfiguration' }],
  definitions: {
    options: { type: 'object', properties: { cwd: { type: 'string' }, env: { type: 'object', additionalProperties: { type: 'string' } } } },
    commandConfiguration: { type: 'object', additionalProperties: false, properties: { command: { type: 'string' }, args: STRINGS, options: { $ref: '#/definitions/options' }, isShellCommand: { type: 'boolean' } } },
    taskDescription: {
      type: 'object',
      required: ['taskName'],
      additionalProperties: false,
      properties: {
        taskName: { type: 'string' }, command: { type: 'string' }, args: STRINGS, options: { $ref: '#/definitions/options' },
        windows: { anyOf: [{ $ref: '#/definitions/commandConfiguration' }, { properties: { problemMatcher: {} } }] },
        osx: { anyOf: [{ $ref: '#/definitions/commandConfiguration' }, { properties: { problemMatcher: {} } }] },
        linux: { anyOf: [{ $ref: '#/definitions/commandConfiguration' }, { properties: { problemMatcher: {} } }] },
        suppressTaskName: { type: 'boolean' }, showOutput: { enum: ['always', 'silent', 'never'] }, echoCommand: { type: 'boolean' }, isWatching: { type: 'boolean' }, isBackground: { type: 'boolean' },
        promptOnClose: { type: 'boolean' }, isBuildCommand: { type: 'boolean' }, isTestCommand: { type: 'boolean' }, problemMatcher: {}, isShellCommand: { type: 'boolean' },
      },
    },
    taskRunnerConfiguration: {
      type: 'object',
      properties: {
        command: { type: 'string' }, args: STRINGS, options: { $ref: '#/definitions/options' }, showOutput: { enum: ['always', 'silent', 'never'] }, isWatching: { type: 'boolean' }, isBackground: { type: 'boolean' },
        promptOnClose: { type: 'boolean' }, echoCommand: { type: 'boolean' }, suppressTaskName: { type: 'boolean' }, taskSelector: { type: 'string' }, problemMatcher: {},
        tasks: { type: 'array', items: { $ref: '#/definitions/taskDescription' } }, isShellCommand: { type: 'boolean' },
      },
    },
  },
}
const ajv = new Ajv({ allErrors: true, strict: false })
const validate = ajv.compile(schema)
const validateV1 = ajv.compile(V1_SCHEMA)
const FIXTURES = new URL('../fixtures/vscode/', import.meta.url).pathname

/** The label VS Code shows for a task of the file, or undefined for one that runs no command of its own. */
function labelOf(task, legacy) {
  if (task.type === 'npm' && typeof task.script === 'string') return (legacy ? task.taskName : task.label) ?? `npm: ${task.script}${task.path ? ` - ${task.path.replace(/\/+$/, '')}` : ''}`
  if (legacy) return task.type === undefined || ['shell', 'process'].includes(task.type) ? task.taskName : undefined
  return ['shell', 'process'].includes(task.type) ? task.label : undefined
}

function check(root, label) {
  const text = readFileSync(join(root, '.vscode', 'tasks.json'), 'utf8')
  const errors = []
  const doc = parse(text, errors, { allowTrailingComma: true })
  const result = vscodeCollector.collect({ root, options: { enabled: true } })
  const legacy = doc?.version === '0.1.0'
  const validator = legacy ? validateV1 : validate
  const valid = errors.length === 0 && validator(doc)
  if (!valid) {
    assert.ok(result.diagnostics.length > 0, `${label}: the schema rejects it (${JSON.stringify(validator.errors?.[0] ?? errors[0])}), the collector must say something`)
    return result
  }
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), [], `${label}: the schema accepts it, so no error`)
  for (const task of doc.tasks ?? []) {
    const name = labelOf(task, legacy)
    if (name === undefined) continue
    const listed = result.recipes.some((r) => r.name === name)
    if (task.hide === true) assert.ok(!listed, `${label}: task "${name}" is hidden, and listed`)
    else assert.ok(listed || result.diagnostics.some((d) => d.message.includes(`"${name}"`)), `${label}: task "${name}" is neither listed nor explained`)
  }
  // 0.1.0 without tasks: the global command is the one task.
  if (legacy && !(doc.tasks ?? []).length && typeof doc.command === 'string') assert.ok(result.recipes.some((r) => r.name === doc.command), `${label}: the global command ${doc.command} is not listed`)
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
        // npm scripts of the root or pkg/ package.json, named by their label or as VS Code names them.
        const scripts = { build: 'tsc', 'test:unit': 'vitest run' }
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'gen', scripts }))
        writeFileSync(join(dir, 'pkg', 'package.json'), JSON.stringify({ name: 'pkg', scripts }))
        for (let i = pick(3); i > 0; i--) {
          const script = Object.keys(scripts)[pick(2)]
          const task = { type: 'npm', script, ...(pick(2) ? { path: pick(2) ? 'pkg' : 'pkg/' } : {}), ...(pick(2) ? { label: `npm task ${tasks.length}` } : {}) }
          if (!tasks.some((t) => labelOf(t, false) === labelOf(task, false))) tasks.push(task)
        }
        if (pick(3) === 0) tasks.push({ label: 'compound', dependsOn: tasks.map((t) => labelOf(t, false)), dependsOrder: pick(2) ? 'sequence' : 'parallel' })
        // Hidden tasks: never listed, though a compound task may still run them.
        for (const t of tasks) if (pick(5) === 0) t.hide = true
        const body = JSON.stringify({ version: '2.0.0', tasks }, null, 2)
        writeFileSync(join(dir, '.vscode', 'tasks.json'), pick(2) ? `// generated\n${body.replace(/\n(\s*)\}/g, ',\n$1}')}` : body)
        const result = check(dir, `generated case ${k}`)
        assert.deepEqual(result.recipes.map((x) => x.name), tasks.filter((t) => !t.hide).map((t) => labelOf(t, false) ?? t.label), `generated case ${k}: every task not hidden, in order`)
        assert.deepEqual(result.diagnostics, [], `generated case ${k}`)
        for (const t of tasks.filter((x) => x.type === 'npm' && !x.hide)) {
          const r = result.recipes.find((x) => x.name === labelOf(t, false))
          assert.equal(r.command, `npm run ${t.script}`, `generated case ${k}: ${r.name}`)
          assert.equal(r.cwd, t.path ? 'pkg' : '.', `generated case ${k}: cwd of ${r.name}`)
        }
      }
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })

  test('200 generated version 0.1.0 files: the schema accepts each, the collector lists every task with the global command filled in', () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261201) + 1)
    const pick = (n) => Math.floor(r() * n)
    const base = mkdtempSync(join(tmpdir(), 'scout-vscode-v1-'))
    try {
      for (let k = 0; k < 200; k++) {
        const dir = join(base, String(k))
        mkdirSync(join(dir, '.vscode'), { recursive: true })
        const doc = { version: '0.1.0', command: ['gulp', 'npm', 'make', 'msbuild'][pick(4)] }
        if (pick(2)) doc.isShellCommand = true
        if (pick(2)) doc.args = pick(2) ? ['run'] : ['--no-color', 'x y']
        if (pick(3) === 0) doc.suppressTaskName = true
        if (pick(4) === 0) doc.taskSelector = '/t:'
        if (pick(4) === 0) doc.linux = { args: ['--linux'] }
        const tasks = []
        for (let i = pick(5); i > 0; i--) {
          const task = { taskName: `${['build', 'test', 'lint', 'watch'][pick(4)]}${tasks.length}` }
          if (pick(4) === 0) task.command = 'eslint'
          if (pick(2)) task.args = ['--a', 'b c']
          if (pick(4) === 0) task.suppressTaskName = !doc.suppressTaskName
          if (pick(5) === 0) task.linux = { args: ['--more'] }
          if (pick(3) === 0) task.isBuildCommand = true
          tasks.push(task)
        }
        if (tasks.length) doc.tasks = tasks
        writeFileSync(join(dir, '.vscode', 'tasks.json'), JSON.stringify(doc, null, 2))
        const result = check(dir, `generated 0.1.0 case ${k}`)
        assert.deepEqual(result.diagnostics, [], `generated 0.1.0 case ${k}`)
        assert.deepEqual(result.recipes.map((x) => x.name), tasks.length ? tasks.map((t) => t.taskName) : [doc.command], `generated 0.1.0 case ${k}: every task, in order`)
        for (const t of tasks) {
          const got = result.recipes.find((x) => x.name === t.taskName).command
          const suppress = t.suppressTaskName ?? doc.suppressTaskName ?? false
          if (t.command) assert.ok(got.startsWith('eslint') && !got.includes(doc.command) && !got.includes(t.taskName), `generated 0.1.0 case ${k}: ${got} is the task's own command, without the global one or the task name`)
          else {
            assert.ok(got.startsWith(`${doc.command} `) || got === doc.command, `generated 0.1.0 case ${k}: ${got} starts with the global command`)
            assert.equal(got.includes(`${doc.taskSelector ?? ''}${t.taskName}`), !suppress, `generated 0.1.0 case ${k}: ${got} has the task name unless suppressed`)
            if (doc.args) assert.ok(got.includes(doc.args[0]), `generated 0.1.0 case ${k}: ${got} has the global args`)
          }
          if (t.linux) assert.ok(got.endsWith('--more'), `generated 0.1.0 case ${k}: ${got} ends with the host's args, added to the task's`)
        }
      }
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })
})
