// The composer collector on a synthetic composer.json (250, 500 and 1,000 scripts: strings, lists
// with @-references, descriptions, aliases), against `composer run-script --list` in the same run
// (Debian's composer, test/setup/40-tools.sh; no network, a throwaway COMPOSER_HOME).
// Usage: node bench/composer.bench.mjs (after npm run build), or npm run bench.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { oracleBench } from './oracle.mjs'

function makeComposer(dir, n) {
  mkdirSync(dir, { recursive: true })
  const scripts = {}
  const descriptions = {}
  const aliases = {}
  for (let i = 0; i < n; i++) {
    scripts[`s${i}`] = i % 3 === 0 ? [`phpunit --filter T${i}`, ...(i ? [`@s${i - 1}`] : [])] : `php bin/console task:${i}`
    if (i % 2) descriptions[`s${i}`] = `Task number ${i}`
    if (i % 10 === 0) aliases[`s${i}`] = [`a${i}`]
  }
  writeFileSync(join(dir, 'composer.json'), JSON.stringify({ name: 'bench/app', type: 'project', require: { php: '>=8.1' }, scripts, 'scripts-descriptions': descriptions, 'scripts-aliases': aliases }, null, 4))
}

const { composerCollector } = await import(new URL('../dist/src/collectors/composer/collect.js', import.meta.url))
await oracleBench({
  title: 'composer collector vs composer run-script --list',
  unit: 'scripts',
  sizes: [250, 500, 1000],
  make: makeComposer,
  collect: (dir) => composerCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== n || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics.slice(0, 2))}`) },
  oracle: { bin: 'composer', args: ['run-script', '--list', '--no-ansi'], env: (base) => ({ COMPOSER_HOME: join(base, '.composer'), COMPOSER_NO_INTERACTION: '1', COMPOSER_DISABLE_NETWORK: '1', COMPOSER_ALLOW_SUPERUSER: '1' }) },
})
