/** The scripts collector. */
import type { Collector, CollectContext, CollectorResult } from './types.js'

export const scriptsCollector: Collector = {
  source: 'scripts',
  configKey: 'scripts',
  manifestNames: [],
  collect(_ctx: CollectContext): CollectorResult {
    return { recipes: [], diagnostics: [], files: [] }
  },
}
