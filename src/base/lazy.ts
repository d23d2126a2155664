/**
 * The parsing libraries, each loaded on first use: a scan usually needs few of them (no YAML
 * without a pnpm-workspace.yaml, no glob crawl for `packages/*`), and loading them all is a good
 * part of a CLI start (bench/shapes.bench.mjs). Each `require` names its package literally so
 * that the CLI build (scripts/bundle-cli.mjs) finds it: in the CLI, each is a script of its own
 * beside the bundle, with a code cache of its own, compiled only when called.
 */
import { createRequire } from 'node:module'
import type picomatchFn from 'picomatch'

const require = createRequire(import.meta.url)

function lazy<T>(load: () => unknown): () => T {
  let loaded: T | undefined
  return () => (loaded ??= load() as T)
}

export const jsoncParser = lazy<typeof import('jsonc-parser')>(() => require('jsonc-parser'))
export const yamlEvents = lazy<typeof import('js-yaml')>(() => require('js-yaml'))
export const tinyglobby = lazy<typeof import('tinyglobby')>(() => require('tinyglobby'))
export const picomatch = lazy<typeof picomatchFn>(() => require('picomatch'))
export const shellQuote = lazy<typeof import('shell-quote')>(() => require('shell-quote'))
export const smolToml = lazy<typeof import('smol-toml')>(() => require('smol-toml'))
/** Display widths in terminal columns (the table of a scan; the package main exports it too). */
export const stringWidth = lazy<typeof import('string-width').default>(() => (require('string-width') as typeof import('string-width')).default)
/** The ignore library's factory (a .gitignore matcher). */
export const ignoreRules = lazy<(options?: { allowRelativePaths?: boolean }) => import('ignore').Ignore>(() => require('ignore'))

let execaModule: Promise<typeof import('execa')> | undefined
/** execa, loaded with the first command that needs it (ES modules only: imported, not required). */
export function loadExeca(): Promise<typeof import('execa')> {
  return (execaModule ??= import('execa'))
}
