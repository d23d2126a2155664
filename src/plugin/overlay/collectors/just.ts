/** Overlay entry for the just collector row (see ../adapter.ts). */
import { shareHostPeers } from '../host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../../collectors/just.js')
export default plugin
