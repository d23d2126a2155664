/** The cargo collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const cargoCollector: Collector = {
  source: 'cargo',
  configKey: 'cargo',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
