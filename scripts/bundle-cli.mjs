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
//
// The parsing libraries src/base/lazy.ts loads on first use are each a script of their own
// (dist/src/cli-libs/), with a code cache of its own: a scan compiles, and V8 deserializes at every
// start, only the libraries the repository needs (a Makefile needs none), instead of a bundle and a
// cache that hold them all (40% of the bundle's text). lazy.ts's `require('x')` becomes
// `__bundleRequire('x')`, which the launcher passes in. A library the bundle's code also imports
// directly stays inside.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { ownModuleUrl, SCRIPT_OPTIONS } from './bundle-support.mjs'
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
  rmSync(`${root}dist/src/cli-libs`, { recursive: true, force: true })
  rmSync(`${root}dist/src/launcher.cjs`, { force: true })
  rmSync(`${root}dist/src/launcher-start.cjs`, { force: true })
  console.warn('command-scout: esbuild is not installed, so the CLI is not bundled (it runs from dist/src/cli/main.js, a little slower to start)')
  process.exit(0)
}

/** Lazily imported modules that belong to the scan path, so inside the bundle. */
const BUNDLED_LAZY = new Set(['cli/scan.js', 'cli/docs.js', 'cli/table.js'].map((p) => resolve(src, p)))
// A module that moved would silently go outside, and its import() start Node's ES module loader (20 ms) in every scan.
for (const p of BUNDLED_LAZY) {
  if (!existsSync(p.replace(/\.js$/, '.ts'))) throw new Error(`bundle-cli: ${relative(root, p)} is not a source file; update BUNDLED_LAZY`)
}
const outside = new Set()
const LAZY_FILE = resolve(src, 'base/lazy.ts')
/** The libraries lazy.ts requires, each by its literal name. */
const LIBRARIES = [...new Set([...readFileSync(LAZY_FILE, 'utf8').matchAll(/\brequire\('([^']+)'\)/g)].map((m) => m[1]))]
const libDir = `${root}dist/src/cli-libs`
/** A library's file in dist/src/cli-libs/ (the launcher names it the same way). */
const libFile = (name) => `${name.replace(/[^\w.-]/g, '_')}.cjs`
/** The wrapper every script the launcher compiles is: a CommonJS module's, plus what the bundle gets from the launcher. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname, __bundleImport, __bundleRequire) {'

/** The CLI bundle, with the libraries in `split` left to __bundleRequire. */
const bundleMain = (split) => build({
  ...SCRIPT_OPTIONS,
  entryPoints: [`${root}src/cli/main.ts`],
  outfile,
  // The file is one function expression, the wrapper Node gives a CommonJS module plus the
  // import() a script can't make: the launcher compiles the text as it is, without a copy.
  banner: { js: `${WRAPPER}'use strict';const __bundleUrl = require('node:url').pathToFileURL(__filename).href;` },
  // Half the text to read and hash at every start (the bytecode comes from the code cache). A
  // stack under COMMAND_SCOUT_DEBUG=1 then names minified functions; dist/src/cli/main.js has the real ones.
  minify: true,
  metafile: true,
  plugins: [{
    name: 'keep-outside',
    setup(b) {
      // lazy.ts's libraries: outside, each its own script (see the header).
      b.onResolve({ filter: /^[^./]/ }, (args) => (args.importer === LAZY_FILE && split.includes(args.path) ? { path: args.path, external: true } : undefined))
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
      // Each module's import.meta.url is its compiled file's (bundle-support.mjs). lazy.ts makes its
      // own `require` for the unbundled build; without it, esbuild sees the literal require() calls
      // and bundles the libraries behind them.
      b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
        if (args.path.includes('/node_modules/')) return undefined
        let contents = readFileSync(args.path, 'utf8')
        if (args.path.endsWith('/base/lazy.ts')) contents = contents.replace(/^const require = createRequire\(import\.meta\.url\)$/m, '')
        return { contents: ownModuleUrl(src, args.path, contents), loader: 'ts' }
      })
    },
  }],
})

let result = await bundleMain(LIBRARIES)
/** The libraries the bundle holds anyway (imported directly by some module): lazy.ts takes those from inside too. */
const inside = LIBRARIES.filter((name) => Object.keys(result.metafile.inputs).some((f) => f.includes(`node_modules/${name}/`)))
if (inside.length) result = await bundleMain(LIBRARIES.filter((name) => !inside.includes(name)))
const split = LIBRARIES.filter((name) => !inside.includes(name))
let text = result.outputFiles[0].text
for (const name of split) {
  const call = `require(${JSON.stringify(name)})`
  if (!text.includes(call)) throw new Error(`bundle-cli: expected ${call} in the bundle`)
  text = text.split(call).join(`__bundleRequire(${JSON.stringify(name)})`)
}
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
// The two questions every scan asks the launcher first (src/cli/launcher-start.ts), in a file of their own.
const start = await build({ ...SCRIPT_OPTIONS, footer: undefined, entryPoints: [`${root}src/cli/launcher-start.ts`], minify: true })
const startText = start.outputFiles[0].text

/**
 * One library as a script of the launcher's wrapper, as the bundle would have held it (the same
 * interop); another of the split libraries it uses (tinyglobby uses picomatch) is that one's script.
 */
async function libraryText(name) {
  const others = split.filter((n) => n !== name)
  const lib = await build({
    ...SCRIPT_OPTIONS,
    external: others,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)})`, resolveDir: root, loader: 'js' },
    banner: { js: `${WRAPPER}'use strict';` },
    minify: true,
  })
  let out = lib.outputFiles[0].text
  for (const other of others) out = out.split(`require(${JSON.stringify(other)})`).join(`__bundleRequire(${JSON.stringify(other)})`)
  return out
}
const libraries = await Promise.all(split.map(async (name) => [name, await libraryText(name)]))
// The build's identity, first in the file: the launcher names its code caches by it, so that a
// cache is only ever offered to the very text it was made from (V8's own check compares lengths),
// and a remembered scan is keyed by it, so that only the same code's output is replayed. The
// launcher is in it too: it decides V8's flags, which a code cache must have been made under.
const hash = createHash('sha256').update(text).update(replayText).update(startText).update(readFileSync(`${root}bin/command-scout`))
for (const [name, lib] of libraries) hash.update(`\0${name}\0`).update(lib)
const id = hash.digest('hex').slice(0, 24)
const bundled = `/*command-scout build ${id}*/${text}`
// The launcher reads the bundle as Latin-1, one byte a character, without a UTF-8 decoding at every
// start: esbuild writes ASCII (its default charset escapes the rest), which this keeps true.
if (/[^\x00-\x7f]/.test(bundled)) throw new Error('bundle-cli: the bundle has a non-ASCII character, which the launcher would read as Latin-1')

replaceIfChanged(`${root}dist/src/launcher.cjs`, replayText)
replaceIfChanged(`${root}dist/src/launcher-start.cjs`, startText)
// Each library starts with the build id too: the launcher uses a library only with the bundle it was built with.
mkdirSync(libDir, { recursive: true })
for (const [name, lib] of libraries) {
  const file = `/*command-scout build ${id}*/${lib}`
  if (/[^\x00-\x7f]/.test(file)) throw new Error(`bundle-cli: ${name} has a non-ASCII character, which the launcher would read as Latin-1`)
  replaceIfChanged(`${libDir}/${libFile(name)}`, file)
}
const kept = new Set(libraries.map(([name]) => libFile(name)))
for (const name of readdirSync(libDir)) if (!kept.has(name)) rmSync(`${libDir}/${name}`, { force: true })
replaceIfChanged(outfile, bundled)
