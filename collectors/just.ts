/** The just collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const justCollector: Collector = {
  source: 'just',
  configKey: 'justfile',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
