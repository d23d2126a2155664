/**
 * A built-in collector as a Cordis plugin: its own row in the patch layer, its own config, and
 * a contribution to `ctx.recipes` that re-scans when its manifests change.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Collector } from '../collectors/types.js'
import { bookCollector } from './book-service.js'
import { collectorConfigSchema, normalizeCollectorConfig } from './schema.js'

export function collectorPlugin(collector: Collector<any>) {
  return {
    name: `command-scout-${collector.source}`,
    inject: ['recipes'],
    Config: collectorConfigSchema(collector.configKey),
    apply(ctx: Context, config: unknown) {
      const options = normalizeCollectorConfig(collector.configKey, config)
      if (!options.enabled) return
      ctx.recipes.addCollector(bookCollector(collector, options))
    },
  }
}
