/**
 * Overlay entry for the curated tools: a `dsh --patch` row names this file in a checkout. Like the
 * adapter's overlay entry, it makes the package share the harness's `@deepseek-ai/*` first, then
 * loads the real plugin module (a static import would resolve before the hook exists).
 */
import { shareHostPeers } from '../plugin/overlay/host-peers.js'

shareHostPeers()
const plugin = await import('./plugin.js')
export const { name, inject, Config, apply } = plugin
export default plugin.default
