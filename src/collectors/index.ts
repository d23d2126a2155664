/**
 * The built-in collectors, all loaded, in the book's source order (the collector table's). The
 * scan path needs every one, and the CLI bundle (scripts/bundle-cli.mjs) holds only what is
 * imported statically, so the readers are imported here by name; the map is keyed by source so
 * that the compiler asks for a new row's reader. For one collector alone, use ./load.ts.
 */
import { BUILTIN_SOURCES, type BuiltinSource } from '../base/collector-table.js'
import type { Collector } from './types.js'
import { makeCollector } from './make/collect.js'
import { scriptsCollector } from './scripts/collect.js'
import { justCollector } from './just/collect.js'
import { denoCollector } from './deno/collect.js'
import { cargoCollector } from './cargo/collect.js'
import { taskCollector } from './task/collect.js'
import { goCollector } from './go/collect.js'
import { pythonCollector } from './python/collect.js'
import { composerCollector } from './composer/collect.js'
import { vscodeCollector } from './vscode/collect.js'
import { cmakeCollector } from './cmake/collect.js'
import { miseCollector } from './mise/collect.js'
import { nxCollector } from './nx/collect.js'

export type { Collector, CollectContext, CollectorResult } from './types.js'

const BY_SOURCE: { readonly [S in BuiltinSource]: Collector<any> } = {
  make: makeCollector,
  scripts: scriptsCollector,
  just: justCollector,
  deno: denoCollector,
  cargo: cargoCollector,
  task: taskCollector,
  go: goCollector,
  python: pythonCollector,
  composer: composerCollector,
  vscode: vscodeCollector,
  cmake: cmakeCollector,
  mise: miseCollector,
  nx: nxCollector,
}

export const BUILTIN_COLLECTORS: readonly Collector<any>[] = BUILTIN_SOURCES.map((source) => BY_SOURCE[source])
