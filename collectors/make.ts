/** The make collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const makeCollector: Collector = {
  source: 'make',
  configKey: 'makefile',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
