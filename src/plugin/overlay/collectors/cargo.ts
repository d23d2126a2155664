/** Overlay entry for the cargo collector row (see ../adapter.ts). */
import { shareHostPeers } from '../host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../../collectors/cargo.js')
export default plugin
