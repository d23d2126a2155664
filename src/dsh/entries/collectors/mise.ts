/** `dsh-command-scout/collectors/mise`: the mise collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/mise.js')
export default collector.default
