/**
 * `dsh-command-scout/adapter`, the entry the harness loads (by package subpath, or by path in a
 * `--patch` overlay). It takes the module from the harness bundle, or, without one, imports it once
 * the rows' loader has made this package share the harness's `@deepseek-ai/*` (a static import
 * would be resolved before that hook exists).
 */
import { harnessBundle } from '../rows-loader.js'

const adapter: typeof import('../adapter.js') = await ((await harnessBundle())?.adapter() ?? import('../adapter.js'))
export const name = adapter.name
export const CommandScout = adapter.CommandScout
export default adapter.default
