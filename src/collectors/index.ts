/** The built-in collectors, in the book's source order. */
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

export const BUILTIN_COLLECTORS: readonly Collector<any>[] = [
  makeCollector,
  scriptsCollector,
  justCollector,
  denoCollector,
  cargoCollector,
  taskCollector,
  goCollector,
  pythonCollector,
  composerCollector,
  vscodeCollector,
  cmakeCollector,
  miseCollector,
  nxCollector,
]
