// The reader of every built-in collector, by source.
// Written by scripts/collector-rows.mjs from the collector table (src/base/collector-table.ts); edit the table, not this file.
import type { BuiltinSource } from '../base/collector-table.js'
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

export const READERS: { readonly [S in BuiltinSource]: Collector<any> } = {
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
