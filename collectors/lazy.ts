/**
 * The parsing libraries, each loaded on first use: a scan usually needs few of them (no YAML
 * without a pnpm-workspace.yaml, no glob crawl for `packages/*`), and loading them all is a good
 * part of a CLI start (bench/scan.bench.mjs).
 */
import { createRequire } from 'node:module'
import type picomatchFn from 'picomatch'

const require = createRequire(import.meta.url)

function lazy<T>(name: string): () => T {
  let loaded: T | undefined
  return () => (loaded ??= require(name) as T)
}

export const jsoncParser = lazy<typeof import('jsonc-parser')>('jsonc-parser')
export const yaml = lazy<typeof import('yaml')>('yaml')
export const tinyglobby = lazy<typeof import('tinyglobby')>('tinyglobby')
export const picomatch = lazy<typeof picomatchFn>('picomatch')
export const shellQuote = lazy<typeof import('shell-quote')>('shell-quote')
export const smolToml = lazy<typeof import('smol-toml')>('smol-toml')
