// Bundles the CLI's scan path into one file (dist/src/cli.bundle.mjs) with esbuild: one module to
// read and compile at start instead of about 40, the main cost of a scan above Node's own start
// (bench/shapes.bench.mjs). The collectors come in through collectors/index.ts like any import, so
// a new collector needs no change here; the parsing libraries are inside but load on first use
// (collectors/lazy.ts).
//
// Left outside, as the compiled modules in dist/:
// - every module our code loads with import() (run, recipes, mcp, serve, dsh and any subcommand
//   added to the table in src/cli.ts, the terminal table, execa), except the scan and docs
//   subcommands: they stay separate and load only when called, and the ones that find files by
//   their own import.meta.url (package.json, recipes/, web/) find them where they are;
// - the modules whose classes the subcommands and the bundle must share (`instanceof` in
//   src/cli/errors.ts): src/cli/io.ts (UsageError, CliFailure) and src/config.ts (ConfigError).
// The bundle sits in dist/src/ so that its relative URLs (package.json) and those outside imports
// resolve as they do from dist/src/cli.js.
import { readFileSync, rmSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const src = resolve(root, 'src')
let build
try {
  ;({ build } = await import('esbuild'))
} catch {
  // Without esbuild (a dev dependency) the launcher uses dist/src/cli.js; never leave a stale bundle.
  rmSync(`${root}dist/src/cli.bundle.mjs`, { force: true })
  console.warn('command-scout: esbuild is not installed, so the CLI is not bundled (it runs from dist/src/cli.js, a little slower to start)')
  process.exit(0)
}

/** Lazily imported modules that belong to the scan path, so inside the bundle. */
const BUNDLED_LAZY = new Set(['cli/scan.js', 'cli/docs.js'].map((p) => resolve(src, p)))
/** Modules with classes both sides must share. */
const SHARED = new Set(['cli/io.js', 'config.js'].map((p) => resolve(src, p)))

await build({
  entryPoints: [`${root}src/cli.ts`],
  outfile: `${root}dist/src/cli.bundle.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // A package's ES module build before its `main`: jsonc-parser's main is a UMD file whose factory
  // requires its parts through a parameter esbuild can't follow, so bundled it can't find them.
  mainFields: ['module', 'main'],
  // The bundle requires the CommonJS libraries through a `require` of its own.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [{
    name: 'keep-outside',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer.includes('/node_modules/')) return undefined
        // Our sources import each other by their compiled name (`./x.js` for x.ts).
        const target = resolve(dirname(args.importer), args.path)
        const outside = SHARED.has(target) || (args.kind === 'dynamic-import' && !BUNDLED_LAZY.has(target))
        if (!outside) return undefined
        // The same module as dist/ holds it, addressed from the bundle's directory (dist/src/).
        const fromBundle = relative(src, target)
        return { path: fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`, external: true }
      })
      // lazy.ts makes its own `require` for the unbundled build; without it, esbuild sees the
      // literal require() calls and bundles the libraries behind them.
      b.onLoad({ filter: /collectors\/lazy\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replace(/^const require = createRequire\(import\.meta\.url\)$/m, ''),
        loader: 'ts',
      }))
    },
  }],
})
