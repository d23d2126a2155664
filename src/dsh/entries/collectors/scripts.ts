/** `dsh-command-scout/collectors/scripts`: the scripts collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/scripts.js')
export default collector.default
