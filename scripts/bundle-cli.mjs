// Bundles the CLI into one CommonJS file (dist/src/cli.bundle.cjs) with esbuild: one script to
// read and compile at start instead of about 40 modules, and one that bin/command-scout can
// compile with V8's code cache (vm.Script and cachedData, which Node offers for scripts, not for
// ES modules before module.enableCompileCache in 22.1). The collectors come in through
// src/collectors/index.ts like any import, so a new collector needs no change here; the parsing
// libraries are inside but load on first use (src/base/lazy.ts).
//
// Left outside, as the compiled modules in dist/: every module our code loads with import() (run,
// recipes, mcp, serve, watch, dsh and any subcommand added to the table in src/cli/main.ts) except the
// scan path (scan, docs, the terminal table). A script compiled by vm.Script can't import(), so
// those calls become `__bundleImport(...)`, which the launcher passes in (a real import relative
// to dist/src/). The errors the CLI tells apart are then made by two copies of their modules (the
// bundle's and dist/'s); src/base/error-kind.ts keeps `instanceof` true across both.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { replaceIfChanged } from './replace-if-changed.mjs'

const root = new URL('..', import.meta.url).pathname
const src = resolve(root, 'src')
const outfile = `${root}dist/src/cli.bundle.cjs`
// The ES module bundle of earlier builds: never leave it beside the new one.
rmSync(`${root}dist/src/cli.bundle.mjs`, { force: true })
let build
try {
  ;({ build } = await import('esbuild'))
} catch {
  // Without esbuild (a dev dependency) the launcher uses dist/src/cli/main.js; never leave a stale bundle.
  rmSync(outfile, { force: true })
  rmSync(`${root}dist/src/launcher.cjs`, { force: true })
  console.warn('command-scout: esbuild is not installed, so the CLI is not bundled (it runs from dist/src/cli/main.js, a little slower to start)')
  process.exit(0)
}

/** Lazily imported modules that belong to the scan path, so inside the bundle. */
const BUNDLED_LAZY = new Set(['cli/scan.js', 'cli/docs.js', 'table.js'].map((p) => resolve(src, p)))
const outside = new Set()

const result = await build({
  entryPoints: [`${root}src/cli/main.ts`],
  outfile,
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // A package's ES module build before its `main`: jsonc-parser's main is a UMD file whose factory
  // requires its parts through a parameter esbuild can't follow, so bundled it can't find them.
  mainFields: ['module', 'main'],
  // The file is one function expression, the wrapper Node gives a CommonJS module plus the
  // import() a script can't make: the launcher compiles the text as it is, without a copy.
  banner: { js: "(function (exports, require, module, __filename, __dirname, __bundleImport) {'use strict';const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '})' },
  logLevel: 'warning',
  legalComments: 'none',
  // Half the text to read and hash at every start (the bytecode comes from the code cache). A
  // stack under COMMAND_SCOUT_DEBUG=1 then names minified functions; dist/src/cli/main.js has the real ones.
  minify: true,
  plugins: [{
    name: 'keep-outside',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer.includes('/node_modules/')) return undefined
        // Our sources import each other by their compiled name (`./x.js` for x.ts).
        const target = resolve(dirname(args.importer), args.path)
        if (args.kind !== 'dynamic-import' || BUNDLED_LAZY.has(target)) return undefined
        // The same module as dist/ holds it, addressed from the bundle's directory (dist/src/).
        const fromBundle = relative(src, target)
        const path = fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`
        outside.add(path)
        return { path, external: true }
      })
      // Modules find files next to them (package.json, recipes/, web/) by import.meta.url: in the
      // bundle, the URL of the module's own compiled file in dist/src/, where the bundle lives too.
      // lazy.ts makes its own `require` for the unbundled build; without it, esbuild sees the
      // literal require() calls and bundles the libraries behind them.
      b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
        if (args.path.includes('/node_modules/')) return undefined
        let contents = readFileSync(args.path, 'utf8')
        if (args.path.endsWith('/base/lazy.ts')) contents = contents.replace(/^const require = createRequire\(import\.meta\.url\)$/m, '')
        if (!contents.includes('import.meta.url')) return { contents, loader: 'ts' }
        const own = `./${relative(src, args.path).replace(/\.ts$/, '.js')}`
        return { contents: contents.split('import.meta.url').join(`new URL(${JSON.stringify(own)}, __bundleUrl).href`), loader: 'ts' }
      })
    },
  }],
})
let text = result.outputFiles[0].text
for (const path of outside) {
  const call = `import(${JSON.stringify(path)})`
  if (!text.includes(call)) throw new Error(`bundle-cli: expected ${call} in the bundle`)
  text = text.split(call).join(`__bundleImport(${JSON.stringify(path)})`)
}
if (/\bimport\(/.test(text.replace(/__bundleImport\(/g, ''))) {
  const at = text.search(/\bimport\(/)
  throw new Error(`bundle-cli: an import() is left in the bundle, which a vm.Script can't run: ${text.slice(at, at + 80)}`)
}
// What the launcher loads before the CLI (src/cli/launcher.ts): the cache directory rule and the
// replay of a remembered scan, small enough to load in a millisecond.
const replay = await build({
  entryPoints: [`${root}src/cli/launcher.ts`],
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  minify: true,
})
const replayText = replay.outputFiles[0].text
// The build's identity, first in the file: the launcher names its code caches by it, so that a
// cache is only ever offered to the very text it was made from (V8's own check compares lengths),
// and a remembered scan is keyed by it, so that only the same code's output is replayed. The
// launcher is in it too: it decides V8's flags, which a code cache must have been made under.
const id = createHash('sha256').update(text).update(replayText).update(readFileSync(`${root}bin/command-scout`)).digest('hex').slice(0, 24)
const bundled = `/*command-scout build ${id}*/${text}`

replaceIfChanged(`${root}dist/src/launcher.cjs`, replayText)
replaceIfChanged(outfile, bundled)
