/** Overlay entry for the deno collector row (see ../adapter.ts). */
import { shareHostPeers } from '../host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../../collectors/deno.js')
export default plugin
