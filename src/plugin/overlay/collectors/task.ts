/** Overlay entry for the task collector row (see ../adapter.ts). */
import { shareHostPeers } from '../host-peers.js'

shareHostPeers()
const { default: plugin } = await import('../../collectors/task.js')
export default plugin
