// Fuzzes the vscode collector (.vscode/tasks.json, JSONC, versions 2.0.0 and 0.1.0, npm tasks with a
// package.json and .vscode/settings.json) with random and mutated files (seeded;
// FUZZ_SEED replays): 0 crashes, 0 hangs (see ../support/manifest-fuzz.mjs).
import { isMainThread } from 'node:worker_threads'
import { fuzzTest, fuzzWorker } from '../support/manifest-fuzz.mjs'

const CASES = 1500
const TOKENS = ['{', '}', '[', ']', ',', ':', '"', '//', '/*', '*/', '"version": "2.0.0"', '"tasks"', '"label": "a"', '"type": "shell"', '"type": "process"', '"type": "npm"', '"command": "x"', '"args": ["a"]',
  '"dependsOn": ["a"]', '"dependsOn": "a"', '"options": {"cwd": "${workspaceFolder}/x"}', '"linux": {"command": "y"}', '"${input:x}"', '"${env:HOME}"', '"${workspaceFolder}/../.."', '{"value": "v", "quoting": "strong"}', 'null', '\n', '\ufeff',
  '"version": "0.1.0"', '"taskName": "a"', '"isShellCommand": true', '"suppressTaskName": true', '"taskSelector": "/t:"', '"script": "build"', '"path": "pkg/"', '"path": "../x"', '"hide": true', '"scripts": {"build": "x"}', '"npm.scriptRunner": "pnpm"']
const MUTATIONS = {
  tokens: TOKENS,
  maxSteps: 4,
  stressors: [
    (pick) => `${'['.repeat(pick(3000))}`,
    (pick) => `"tasks": [${Array.from({ length: pick(300) }, (_, i) => `{"label": "t${i}", "dependsOn": ["t${i + 1}"]}`).join(',')}]`,
    (pick) => `"command": "${'${'.repeat(pick(500))}x"`,
  ],
}

if (isMainThread) await fuzzTest({ url: import.meta.url, label: 'vscode collector (.vscode/tasks.json)', cases: CASES })
else {
  const { vscodeCollector } = await import('../../dist/src/collectors/vscode/collect.js')
  await fuzzWorker({ collector: vscodeCollector, fixtures: new URL('../fixtures/vscode/', import.meta.url).pathname, cases: CASES, mutations: MUTATIONS, files: (text, pick, another) => ({ '.vscode/tasks.json': text, ...(pick(4) === 0 ? { 'package.json': another() } : {}), ...(pick(6) === 0 ? { '.vscode/settings.json': another() } : {}) }) })
}
