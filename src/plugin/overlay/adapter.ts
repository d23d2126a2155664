/**
 * Overlay entry for the adapter: `dsh --patch` rows name this file in a checkout. It makes the
 * package share the harness's `@deepseek-ai/*` first, then loads the real module (a static
 * import would resolve before the hook exists).
 */
import { shareHostPeers } from './host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../adapter.js')
export default plugin
