/** The task collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const taskCollector: Collector = {
  source: 'task',
  configKey: 'taskfile',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
