// The vscode collector on a synthetic .vscode/tasks.json (250, 500 and 1,000 tasks: shell and
// process, args, cwd, OS overrides, compound tasks), against its oracle in the same run: parsing
// the file with jsonc-parser and validating it with ajv against the tasks.json schema the tests use
// (no command-line tool lists VS Code tasks). Usage: node bench/vscode.bench.mjs, or npm run bench.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { oracleBench } from './oracle.mjs'

const require = createRequire(import.meta.url)
const Ajv = require('ajv')
const { parse } = require('jsonc-parser')
const validate = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(new URL('../test/support/vscode-tasks.schema.json', import.meta.url), 'utf8')))

function makeTasks(dir, n) {
  mkdirSync(join(dir, '.vscode'), { recursive: true })
  mkdirSync(join(dir, 'pkg'), { recursive: true })
  const tasks = []
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9) tasks.push({ label: `all ${i}`, dependsOn: [`t ${i - 1}`, `t ${i - 2}`], dependsOrder: 'sequence' })
    else tasks.push({ label: `t ${i}`, type: i % 2 ? 'shell' : 'process', command: i % 2 ? `make part${i}` : 'node', args: ['scripts/run.js', `--part=${i}`, { value: 'a b', quoting: 'strong' }], ...(i % 3 ? { options: { cwd: '${workspaceFolder}/pkg' } } : {}), ...(i % 5 ? {} : { linux: { command: 'echo linux' }, windows: { command: 'cmd' } }), detail: `Part ${i}` })
  }
  writeFileSync(join(dir, '.vscode', 'tasks.json'), `// tasks\n${JSON.stringify({ version: '2.0.0', tasks }, null, 4)}`)
}

const { vscodeCollector } = await import(new URL('../dist/src/collectors/vscode/collect.js', import.meta.url))
await oracleBench({
  title: 'vscode collector vs jsonc-parser + ajv schema validation',
  unit: 'tasks',
  sizes: [250, 500, 1000],
  make: makeTasks,
  collect: (dir) => vscodeCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== n || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics.slice(0, 2))}`) },
  oracle: { label: 'parse + schema validation', run: (dir) => { if (!validate(parse(readFileSync(join(dir, '.vscode', 'tasks.json'), 'utf8')))) throw new Error('invalid') } },
})
