/** `dsh-command-scout/collectors/cmake`: the cmake collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/cmake.js')
export default collector.default
