// The python collector on a synthetic pyproject.toml (100, 200 and 400 tasks for each of poe, pdm,
// hatch and rye, plus entry points), against each runner's own listing in the same run:
// `poe _list_tasks`, `pdm run --json` and `hatch env show --json` (all pinned, test/setup/40-tools.sh).
// Usage: node bench/python.bench.mjs (after npm run build), or npm run bench.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { oracleBench } from './oracle.mjs'

function makeProject(dir, n) {
  mkdirSync(dir, { recursive: true })
  const lines = ['[project]', 'name = "bench"', 'version = "1.0.0"', '', '[project.scripts]']
  for (let i = 0; i < 10; i++) lines.push(`tool${i} = "bench.cli:main${i}"`)
  lines.push('', '[tool.poe.tasks]')
  for (let i = 0; i < n; i++) lines.push(i % 2 ? `t${i} = "pytest -k case${i}"` : `t${i} = { cmd = "ruff check src/m${i}", help = "Lint module ${i}" }`)
  lines.push('', '[tool.pdm.scripts]')
  for (let i = 0; i < n; i++) lines.push(i % 2 ? `s${i} = "flask run -p ${5000 + i}"` : `s${i} = { shell = "make part${i}", help = "Part ${i}" }`)
  lines.push('', '[tool.hatch.envs.default.scripts]')
  for (let i = 0; i < n / 2; i++) lines.push(`h${i} = ["pytest tests/t${i}", "coverage report"]`)
  lines.push('', '[tool.hatch.envs.docs.scripts]')
  for (let i = 0; i < n / 2; i++) lines.push(`d${i} = "mkdocs build -f m${i}.yml"`)
  lines.push('', '[tool.rye.scripts]')
  for (let i = 0; i < n; i++) lines.push(`r${i} = "python -m bench.r${i}"`)
  writeFileSync(join(dir, 'pyproject.toml'), `${lines.join('\n')}\n`)
}

const { pythonCollector } = await import(new URL('../dist/src/collectors/python/collect.js', import.meta.url))
const common = {
  unit: 'tasks per runner',
  sizes: [100, 200, 400],
  make: makeProject,
  collect: (dir) => pythonCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== 4 * n + 10 || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes`) },
  runs: 15,
}
const env = (base) => ({ HOME: base, PDM_CHECK_UPDATE: 'false', HATCH_DATA_DIR: join(base, '.hatch'), NO_COLOR: '1', HTTP_PROXY: 'http://127.0.0.1:9/', HTTPS_PROXY: 'http://127.0.0.1:9/' })
await oracleBench({ ...common, title: 'python collector vs poe', oracle: { bin: 'poe', args: ['_list_tasks'], env } })
await oracleBench({ ...common, title: 'python collector vs pdm', oracle: { bin: 'pdm', args: ['run', '--json'], env } })
await oracleBench({ ...common, title: 'python collector vs hatch', oracle: { bin: 'hatch', args: ['env', 'show', '--json'], env }, oracleRuns: 3 })
