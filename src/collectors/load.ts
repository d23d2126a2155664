/**
 * One built-in collector at a time, by its source: the reader its table row names, imported on
 * first use, so that a process that needs a few collectors (a harness row, a scan worker) loads
 * only their code. `BUILTIN_COLLECTORS` (./index.ts) is the eager list for callers that need all.
 */
import { collectorRow, type BuiltinSource } from '../base/collector-table.js'
import { READER_MODULES } from './reader-modules.js'
import type { Collector } from './types.js'

/** The built-in collector of `source`; its module is imported the first time (import() keeps it after). */
export async function loadCollector(source: BuiltinSource): Promise<Collector<any>> {
  const row = collectorRow(source)
  if (!row) throw new Error(`no built-in collector named ${source}`)
  const module = await READER_MODULES[source]()
  const collector = module[row.reader.export] as Collector<any> | undefined
  if (collector?.source !== source) throw new Error(`./${row.reader.module} exports no ${row.reader.export} for the ${source} collector`)
  return collector
}
