// The cmake collector on synthetic presets (250, 500 and 1,000 configure presets, each with a
// build and a test preset, inheriting from hidden bases, with conditions, spread over an included
// file and CMakeUserPresets.json), against `cmake --list-presets=all` in the same run.
// Usage: node bench/cmake.bench.mjs (after npm run build), or npm run bench.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { oracleBench } from './oracle.mjs'

function makePresets(dir, n) {
  mkdirSync(join(dir, 'cmake'), { recursive: true })
  writeFileSync(join(dir, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.20)\nproject(bench NONE)\n')
  const bases = Array.from({ length: 5 }, (_, i) => ({ name: `base${i}`, hidden: true, generator: 'Ninja', binaryDir: '${sourceDir}/build/${presetName}', condition: { type: 'notEquals', lhs: '${hostSystemName}', rhs: 'Haiku' } }))
  const configure = Array.from({ length: n }, (_, i) => ({ name: `c${i}`, inherits: `base${i % 5}`, displayName: `Config ${i}`, cacheVariables: { CMAKE_BUILD_TYPE: i % 2 ? 'Debug' : 'Release' } }))
  const half = Math.floor(n / 2)
  writeFileSync(join(dir, 'cmake', 'bases.json'), JSON.stringify({ version: 6, configurePresets: bases }, null, 2))
  writeFileSync(join(dir, 'CMakePresets.json'), JSON.stringify({
    version: 6, include: ['cmake/bases.json'],
    configurePresets: configure.slice(0, half),
    buildPresets: configure.slice(0, half).map((c) => ({ name: c.name, configurePreset: c.name })),
    testPresets: configure.slice(0, half).map((c) => ({ name: c.name, configurePreset: c.name, output: { outputOnFailure: true } })),
  }, null, 2))
  writeFileSync(join(dir, 'CMakeUserPresets.json'), JSON.stringify({
    version: 6,
    configurePresets: configure.slice(half),
    buildPresets: configure.slice(half).map((c) => ({ name: c.name, configurePreset: c.name })),
    testPresets: configure.slice(half).map((c) => ({ name: c.name, configurePreset: c.name })),
  }, null, 2))
}

const { cmakeCollector } = await import(new URL('../dist/src/collectors/cmake/collect.js', import.meta.url))
await oracleBench({
  title: 'cmake collector vs cmake --list-presets=all',
  unit: 'configure presets',
  sizes: [250, 500, 1000],
  make: makePresets,
  collect: (dir) => cmakeCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== 3 * n || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics.slice(0, 2))}`) },
  oracle: { bin: 'cmake', args: ['--list-presets=all'] },
})
