// The nx collector on a synthetic Nx workspace (100, 200 and 400 projects: project.json and
// package.json "nx" projects, 4 targets each), against `nx show projects --json` in the same run
// (pinned nx, test/setup/40-tools.sh, linked into the workspace's node_modules; no daemon, no
// cloud). Usage: node bench/nx.bench.mjs (after npm run build), or npm run bench.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { findBin } from './scripts.bench.mjs'
import { oracleBench } from './oracle.mjs'

function makeWorkspace(dir, n) {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  writeFileSync(join(dir, 'nx.json'), JSON.stringify({ targetDefaults: { build: { cache: true } } }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench', private: true, workspaces: ['packages/*'] }))
  for (let i = 0; i < n; i++) {
    const targets = { build: { executor: 'nx:run-commands', options: { command: `tsc -p p${i}` } }, test: { command: `vitest run p${i}`, dependsOn: ['build'] }, lint: { command: 'eslint .' }, serve: { command: 'vite', metadata: { description: `Serve ${i}` } } }
    const pdir = join(dir, i % 2 ? 'apps' : 'packages', `p${i}`)
    mkdirSync(pdir, { recursive: true })
    if (i % 2) writeFileSync(join(pdir, 'project.json'), JSON.stringify({ name: `p${i}`, targets }, null, 2))
    else writeFileSync(join(pdir, 'package.json'), JSON.stringify({ name: `p${i}`, scripts: { dev: 'vite' }, nx: { targets } }, null, 2))
  }
}

const { nxCollector } = await import(new URL('../dist/src/collectors/nx/collect.js', import.meta.url))
const nxBin = findBin('nx')
await oracleBench({
  title: 'nx collector vs nx show projects --json',
  unit: 'projects',
  sizes: [100, 200, 400],
  make: makeWorkspace,
  collect: (dir) => nxCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== 4 * n || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics.slice(0, 2))}`) },
  oracle: {
    bin: 'nx', args: ['show', 'projects', '--json'],
    setup: (dir) => { if (nxBin) symlinkSync(dirname(dirname(realpathSync(nxBin))), join(dir, 'node_modules', 'nx')) },
    env: (base) => ({ NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_ISOLATE_PLUGINS: 'false', NX_TUI: 'false', NX_WORKSPACE_DATA_DIRECTORY: join(base, '.nx-data'), NX_CACHE_DIRECTORY: join(base, '.nx-cache'), NX_SKIP_NX_CACHE: 'true' }),
  },
  runs: 9,
  oracleRuns: 3,
})
