/** `dsh-command-scout/collectors/go`: the go collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/go.js')
export default collector.default
