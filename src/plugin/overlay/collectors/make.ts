/** Overlay entry for the make collector row (see ../adapter.ts). */
import { shareHostPeers } from '../host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../../collectors/make.js')
export default plugin
