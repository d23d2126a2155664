// The mise collector on a synthetic repository (250, 500 and 1,000 tasks: string, list and table
// tasks in mise.toml and .mise.toml, a fifth of them as executable file tasks with #MISE comments),
// against `mise tasks ls --json` in the same run (pinned mise, test/setup/40-tools.sh; throwaway
// mise directories, the repository trusted, offline). Usage: node bench/mise.bench.mjs, or npm run bench.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { oracleBench } from './oracle.mjs'

function makeRepo(dir, n) {
  mkdirSync(join(dir, 'mise-tasks', 'ops'), { recursive: true })
  const main = ['[tasks]']
  const tables = []
  const dot = ['[tasks]']
  for (let i = 0; i < n; i++) {
    if (i % 5 === 4) {
      const file = join(dir, 'mise-tasks', i % 2 ? 'ops' : '', `f${i}`)
      writeFileSync(file, `#!/bin/sh\n#MISE description="File task ${i}"\n#MISE depends=["t${i - 1}"]\necho ${i}\n`)
      chmodSync(file, 0o755)
    } else if (i % 5 === 0) tables.push(`[tasks.t${i}]`, `run = "cargo test -p c${i}"`, `description = "Test crate ${i}"`, `depends = ["t${i + 1}"]`, `alias = "a${i}"`, '')
    else if (i % 5 === 3) dot.push(`t${i} = ["echo ${i}", "echo done"]`)
    else main.push(`t${i} = "make part${i}"`)
  }
  writeFileSync(join(dir, 'mise.toml'), `${main.join('\n')}\n\n${tables.join('\n')}`)
  writeFileSync(join(dir, '.mise.toml'), `${dot.join('\n')}\n`)
}

const { miseCollector } = await import(new URL('../dist/src/collectors/mise/collect.js', import.meta.url))
await oracleBench({
  title: 'mise collector vs mise tasks ls --json',
  unit: 'tasks',
  sizes: [250, 500, 1000],
  make: makeRepo,
  collect: (dir) => miseCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== n || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics.slice(0, 2))}`) },
  oracle: {
    bin: 'mise', args: ['tasks', 'ls', '--json'],
    env: (base) => ({ HOME: base, MISE_DATA_DIR: join(base, '.mise-data'), MISE_CACHE_DIR: join(base, '.mise-cache'), MISE_STATE_DIR: join(base, '.mise-state'), MISE_CONFIG_DIR: join(base, '.mise-config'), MISE_TRUSTED_CONFIG_PATHS: base, MISE_YES: '1', MISE_OFFLINE: '1' }),
  },
})
