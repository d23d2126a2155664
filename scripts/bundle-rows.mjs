// Bundles every row this package gives dsh into one script, dist/src/rows.bundle.cjs (the harness
// bundle; src/rows/index.ts is its entry, src/dsh/rows-loader.ts runs it), and the package main's API
// into dist/src/main.bundle.cjs (src/api.ts; src/index.ts runs it), each run with V8's code cache
// (src/base/bundle-script.ts): one file to read and one code cache to deserialize when a dsh session,
// a cook or an embedding starts, instead of 70 to 160 modules to parse and compile. Each row's code
// loads the first time its entry asks for it (esbuild keeps an import() of a bundled module lazy),
// and the parsing libraries on first use.
//
// The file is one function expression, a CommonJS module's wrapper, which the loader compiles as
// it is. `@deepseek-ai/*` stays outside: the harness's own copies, reached through the loader's
// `require` and the resolve hook (src/dsh/host-peers.ts). A module that finds files beside it
// (import.meta.url) is given the URL of its own compiled file in dist/src/, where the bundle lives
// too; a module's `createRequire(import.meta.url)` for its own modules is given the bundled ones, and
// a module's own `const require = createRequire(...)` goes, so that the libraries it requires are bundled.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { ownModuleUrl, SCRIPT_OPTIONS } from './bundle-support.mjs'
import { replaceIfChanged } from './replace-if-changed.mjs'

const root = new URL('..', import.meta.url).pathname
const src = resolve(root, 'src')
const outfile = `${root}dist/src/rows.bundle.cjs`
const mainFile = `${root}dist/src/main.bundle.cjs`
let build
try {
  ;({ build } = await import('esbuild'))
} catch {
  // Without esbuild (a dev dependency) each row loads its compiled modules; never leave a stale bundle.
  rmSync(outfile, { force: true })
  rmSync(mainFile, { force: true })
  console.warn('command-scout: esbuild is not installed, so the harness rows and the package main are not bundled (each loads its modules from dist/src/, a little slower to start)')
  process.exit(0)
}

const RELATIVE = /(['"])(\.\.?\/[^'"\n]+\.js)\1/g

/**
 * A module's `createRequire(import.meta.url)` as a function that gives the bundled module for each
 * relative specifier the file names (esbuild follows a literal require), and Node's require for
 * anything else (node: builtins).
 */
function ownRequire(contents) {
  const specifiers = [...new Set([...contents.matchAll(RELATIVE)].map((m) => m[2]))]
  const cases = specifiers.map((s) => `case ${JSON.stringify(s)}: return require(${JSON.stringify(s)});`).join(' ')
  return `((specifier) => { switch (specifier) { ${cases} default: return __nodeRequire(specifier) } })`
}

/** One bundle of `entry`: the ASCII text of its function expression, and the harness packages it requires. */
async function bundle(entry) {
  const result = await build({
    ...SCRIPT_OPTIONS,
    entryPoints: [entry],
    external: ['@deepseek-ai/*'],
    banner: { js: "(function (exports, require, module, __filename, __dirname) {'use strict';const __nodeRequire = require;const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    minify: process.env.COMMAND_SCOUT_BUNDLE_MINIFY !== '0',
    plugins: [{
      name: 'own-modules',
      setup(b) {
        b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
          if (args.path.includes('/node_modules/')) return undefined
          let contents = readFileSync(args.path, 'utf8')
          // A module that makes its own `require` (lazy.ts, the search): without it, esbuild sees its literal require() calls and bundles the libraries.
          contents = contents.replace(/^const require = createRequire\(import\.meta\.url\)$/m, '')
          if (contents.includes('createRequire(import.meta.url)')) contents = contents.split('createRequire(import.meta.url)').join(ownRequire(contents))
          return { contents: ownModuleUrl(src, args.path, contents), loader: 'ts' }
        })
      },
    }],
  })
  const raw = result.outputFiles[0].text
  // ASCII only, so that the loader reads it as latin1 (a copy, where UTF-8 is decoded: 0.4 against 3-6
  // ms): esbuild escapes strings and names but keeps regular expressions as written, where a UTF-16
  // code unit and its \\u escape mean the same (a surrogate pair is escaped as its two units).
  if (/\\[\u0080-\uffff]/.test(raw)) throw new Error(`bundle-rows: a non-ASCII character is escaped with a backslash in ${entry}'s bundle; write it as \\u in the source`)
  const text = raw.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const peers = [...new Set([...text.matchAll(/\brequire\("(@deepseek-ai\/[^"]+)"\)/g)].map((m) => m[1]))].sort()
  return { text, peers }
}

/** The build's identity, first in the file: the loader names its code caches by it, so that a cache is only ever offered to the very text it was made from. */
function buildId(text) {
  return createHash('sha256').update(text).update(readFileSync(`${root}src/base/bundle-script.ts`)).digest('hex').slice(0, 24)
}

// The harness rows, with the harness packages they require (the loader imports them first).
const rows = await bundle(`${src}/rows/index.ts`)
replaceIfChanged(outfile, `/*command-scout build ${buildId(rows.text)} peers ${rows.peers.join(',')}*/${rows.text}`)

// The package main's API: no harness package at all (the embedding API runs without dsh).
const main = await bundle(`${src}/api.ts`)
if (main.peers.length) throw new Error(`bundle-rows: the package main's bundle requires ${main.peers.join(', ')}; the embedding API must import no harness package`)
replaceIfChanged(mainFile, `/*command-scout build ${buildId(main.text)}*/${main.text}`)
