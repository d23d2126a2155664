/**
 * The built-in collectors, all loaded, in the book's source order (the collector table's). The
 * scan path needs every one, and the CLI bundle (scripts/bundle-cli.mjs) holds only what is
 * imported statically, so the readers come from ./readers.ts, which scripts/collector-rows.mjs
 * writes from the table's rows. For one collector alone, use ./load.ts.
 */
import { BUILTIN_SOURCES } from '../base/collector-table.js'
import type { Collector } from './types.js'
import { READERS } from './readers.js'

export type { Collector, CollectContext, CollectorResult } from './types.js'

export const BUILTIN_COLLECTORS: readonly Collector<any>[] = BUILTIN_SOURCES.map((source) => READERS[source])
