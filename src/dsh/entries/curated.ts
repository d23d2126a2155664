/**
 * `dsh-command-scout/curated/plugin`, the entry the harness loads (by package subpath, or by path in a
 * `--patch` overlay). Like the adapter's entry, it takes the plugin from the harness bundle, or
 * imports the compiled module once the rows' loader has made this package share the harness's
 * `@deepseek-ai/*` (a static import would resolve before that hook exists).
 */
import { harnessBundle } from '../rows-loader.js'

const plugin: typeof import('../curated-tools.js') = await ((await harnessBundle())?.curated() ?? import('../curated-tools.js'))
export const { name, inject, Config, apply, TOOL_NAMES } = plugin
export default plugin.default
