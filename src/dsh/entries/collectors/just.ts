/** `dsh-command-scout/collectors/just`: the just collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/just.js')
export default collector.default
