/** `dsh-command-scout/collectors/cargo`: the cargo collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/cargo.js')
export default collector.default
