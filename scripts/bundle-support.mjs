// What the build's bundles share (scripts/bundle-cli.mjs: the CLI and its libraries;
// scripts/bundle-rows.mjs: the harness rows and the package main): each is one CommonJS function
// expression that a launcher compiles with V8's code cache, made by esbuild with these options, and
// each module of ours in it finds the files beside it as its compiled file in dist/src/ would.
import { relative } from 'node:path'

/** esbuild's options for one script (each bundle adds its entry, banner and plugins). */
export const SCRIPT_OPTIONS = {
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // A package's ES module build before its `main`: jsonc-parser's main is a UMD file whose factory
  // requires its parts through a parameter esbuild can't follow, so bundled it can't find them.
  mainFields: ['module', 'main'],
  footer: { js: '})' },
  logLevel: 'warning',
  legalComments: 'none',
}

/**
 * A module's text with `import.meta.url` as the URL of its own compiled file in dist/src/ (`src` is
 * the source folder), where the bundle lives too: modules find files next to them (package.json,
 * recipes/, web/) that way. The bundle's banner defines `__bundleUrl`.
 */
export function ownModuleUrl(src, path, contents) {
  if (!contents.includes('import.meta.url')) return contents
  const own = `./${relative(src, path).replace(/\.ts$/, '.js')}`
  return contents.split('import.meta.url').join(`new URL(${JSON.stringify(own)}, __bundleUrl).href`)
}
