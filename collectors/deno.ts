/** The deno collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const denoCollector: Collector = {
  source: 'deno',
  configKey: 'deno',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
