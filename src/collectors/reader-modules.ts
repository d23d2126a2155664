// The module of every built-in collector's reader, by source, imported on first use.
// Written by scripts/collector-rows.mjs from the collector table (src/base/collector-table.ts); edit the table, not this file.
import type { BuiltinSource } from '../base/collector-table.js'

export const READER_MODULES: { readonly [S in BuiltinSource]: () => Promise<Record<string, unknown>> } = {
  make: () => import('./make/collect.js'),
  scripts: () => import('./scripts/collect.js'),
  just: () => import('./just/collect.js'),
  deno: () => import('./deno/collect.js'),
  cargo: () => import('./cargo/collect.js'),
  task: () => import('./task/collect.js'),
  go: () => import('./go/collect.js'),
  python: () => import('./python/collect.js'),
  composer: () => import('./composer/collect.js'),
  vscode: () => import('./vscode/collect.js'),
  cmake: () => import('./cmake/collect.js'),
  mise: () => import('./mise/collect.js'),
  nx: () => import('./nx/collect.js'),
}
