/**
 * A built-in collector as a Cordis plugin: its own row in the patch layer, its own config, and
 * a contribution to `ctx.recipes` that re-scans when its manifests change. The row modules
 * (`dsh-command-scout/collectors/<source>`) are written from the collector table at build time
 * (scripts/collector-rows.mjs), each loading only its own collector.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { BuiltinSource } from '../book/recipe.js'
import type { Collector } from '../collectors/types.js'
import { loadCollector } from '../collectors/load.js'
import { bookCollector } from './book-service.js'
import { collectorConfigSchema, normalizeCollectorConfig } from './schema.js'

export function collectorPlugin(collector: Collector<any>) {
  // A built-in collector's config is its section under its source (the table's one name).
  const source = collector.source as BuiltinSource
  return {
    name: `command-scout-${source}`,
    inject: ['recipes'],
    Config: collectorConfigSchema(source),
    apply(ctx: Context, config: unknown) {
      const options = normalizeCollectorConfig(source, config)
      if (!options.enabled) return
      ctx.recipes.addCollector(bookCollector(collector, options))
    },
  }
}

export type CollectorPlugin = ReturnType<typeof collectorPlugin>

/** The plugin of the built-in collector `source`, loading that collector's reader only. */
export async function builtinCollectorPlugin(source: BuiltinSource): Promise<CollectorPlugin> {
  return collectorPlugin(await loadCollector(source))
}
