/**
 * The harness bundle's entry (scripts/bundle-rows.mjs bundles it into dist/src/rows.bundle.cjs;
 * src/dsh/rows-loader.ts compiles that with V8's code cache): every row this package gives dsh,
 * each a module loaded the first time its entry asks for it, so that a session loads only the rows
 * its layers enable, and each row only its own code.
 */
import type { BuiltinSource } from '../base/collector-table.js'

/** For the loader: when the session has started (the adapter's first tool plan), it makes its code cache. */
export { whenStarted } from '../dsh/start-mark.js'

export const adapter = () => import('../dsh/adapter.js')
export const curated = () => import('../dsh/curated-tools.js')
export const skills = () => import('../dsh/skills.js')
export const kitchen = () => import('../chef/provider.js')
export const rulebookCraft = () => import('../chef/rulebooks/craft.js')
export const cookRunner = () => import('../cook/runner.js')
export const cookStartup = () => import('../cook/startup.js')

/** The built-in collector `source` as its plugin row (loading that collector's reader only). */
export const collector = async (source: BuiltinSource) => (await import('../dsh/collector-plugin.js')).builtinCollectorPlugin(source)
