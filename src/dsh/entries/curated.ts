/**
 * `dsh-command-scout/curated/plugin`, the entry the harness loads (by package subpath, or by path in a
 * `--patch` overlay). Like the adapter's entry, it makes this package share the harness's
 * `@deepseek-ai/*` first, then loads the real plugin module (a static import would resolve before
 * the hook exists).
 */
import { harnessBundle } from '../rows-loader.js'

const plugin: typeof import('../curated-tools.js') = await ((await harnessBundle())?.curated() ?? import('../curated-tools.js'))
export const { name, inject, Config, apply, TOOL_NAMES } = plugin
export default plugin.default
