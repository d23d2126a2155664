/** `dsh-command-scout/collectors/nx`: the nx collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/nx.js')
export default collector.default
