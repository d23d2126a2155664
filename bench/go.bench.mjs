// The go collector on a synthetic Go module (250, 500 and 1,000 packages, one in five a main
// package under cmd/, one in ten with a //go:generate line, three files each), against
// `go list -json ./...` in the same run (no network, local toolchain, a warm build cache).
// Usage: node bench/go.bench.mjs (after npm run build), or npm run bench.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { oracleBench } from './oracle.mjs'

function makeModule(dir, count) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'go.mod'), 'module example.com/bench\n\ngo 1.22\n')
  for (let i = 0; i < count; i++) {
    const main = i % 5 === 0
    const pdir = join(dir, main ? `cmd/tool${i}` : `internal/area${i % 13}/pkg${i}`)
    mkdirSync(pdir, { recursive: true })
    const name = main ? 'main' : `pkg${i}`
    for (let f = 0; f < 3; f++) {
      const gen = i % 10 === 0 && f === 0 ? '//go:generate stringer -type=Kind\n' : ''
      writeFileSync(join(pdir, `file${f}.go`), `// Package ${name} is synthetic.\npackage ${name}\n\n${gen}type T${f} struct{ A, B int }\n\nfunc F${f}(x int) int { return x * ${f} }\n${main && f === 0 ? 'func main() {}\n' : ''}`)
    }
    writeFileSync(join(pdir, 'file_test.go'), `package ${name}\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n`)
  }
}

const { goCollector } = await import(new URL('../dist/src/collectors/go/collect.js', import.meta.url))
await oracleBench({
  title: 'go collector vs go list -json ./...',
  unit: 'packages',
  sizes: [250, 500, 1000],
  make: makeModule,
  collect: (dir) => goCollector.collect({ root: dir, options: { enabled: true } }),
  check: (result, n) => { if (result.recipes.length !== 4 + n / 5 || result.diagnostics.length) throw new Error(`unexpected: ${result.recipes.length} recipes, ${JSON.stringify(result.diagnostics)}`) },
  oracle: { bin: 'go', args: ['list', '-json', './...'], env: (base) => ({ GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(base, '.gocache'), GOPATH: join(base, '.gopath') }) },
  runs: 9,
})
