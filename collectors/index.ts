/** The built-in collectors, in the book's source order. */
import type { Collector } from './types.js'
import { makeCollector } from './make.js'
import { scriptsCollector } from './scripts.js'
import { justCollector } from './just.js'
import { denoCollector } from './deno.js'
import { cargoCollector } from './cargo.js'
import { taskCollector } from './task.js'
import { goCollector } from './go.js'
import { pythonCollector } from './python.js'
import { composerCollector } from './composer.js'
import { vscodeCollector } from './vscode.js'
import { cmakeCollector } from './cmake.js'
import { miseCollector } from './mise.js'
import { nxCollector } from './nx.js'

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
