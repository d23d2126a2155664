// Bundles the CLI's scan path into one file (dist/src/cli.bundle.mjs) with esbuild: one module to
// read and compile at start instead of about 40, the main cost of a scan above Node's own start
// (bench/shapes.bench.mjs). The collectors come in through collectors/index.ts like any import, so
// a new collector needs no change here. Left outside, loaded only when used: node_modules (the
// parsing libraries load on first use, collectors/lazy.ts), `run` (execa), the terminal table
// (string-width) and `recipes` (the
// curated library). The bundle sits in dist/src/ so that its relative URLs (package.json) and
// those external imports resolve as they do from dist/src/cli.js.
import { readFileSync, rmSync } from 'node:fs'

const root = new URL('..', import.meta.url).pathname
let build
try {
  ;({ build } = await import('esbuild'))
} catch {
  // Without esbuild (a dev dependency) the launcher uses dist/src/cli.js; never leave a stale bundle.
  rmSync(`${root}dist/src/cli.bundle.mjs`, { force: true })
  console.warn('command-scout: esbuild is not installed, so the CLI is not bundled (it runs from dist/src/cli.js, a little slower to start)')
  process.exit(0)
}
const KEEP_OUTSIDE = /^\.\/(execute|table|curated\/cli)\.js$/

await build({
  entryPoints: [`${root}src/cli.ts`],
  outfile: `${root}dist/src/cli.bundle.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The bundle requires the CommonJS libraries through a `require` of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [{
    name: 'keep-outside',
    setup(b) {
      b.onResolve({ filter: KEEP_OUTSIDE }, (args) => (args.importer.endsWith('/src/cli.ts') ? { path: args.path, external: true } : undefined))
      // lazy.ts makes its own `require` for the unbundled build; without it, esbuild sees the
      // literal require() calls and bundles the libraries behind them.
      b.onLoad({ filter: /collectors\/lazy\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(/^const require = createRequire\(import\.meta\.url\)$/m, ''),
        loader: 'ts',
      }))
    },
  }],
})
