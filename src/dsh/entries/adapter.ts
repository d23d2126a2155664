/**
 * `dsh-command-scout/adapter`, the entry the harness loads (by package subpath, or by path in a
 * `--patch` overlay). It makes this package share the harness's `@deepseek-ai/*` first, then
 * loads the real module: a static import would be resolved before the hook exists.
 */
import { shareHostPeers } from '../host-peers.js'
import { harnessBundle } from '../rows-loader.js'

shareHostPeers()
const adapter: typeof import('../adapter.js') = await ((await harnessBundle())?.adapter() ?? import('../adapter.js'))
export const name = adapter.name
export const CommandScout = adapter.CommandScout
export default adapter.default
