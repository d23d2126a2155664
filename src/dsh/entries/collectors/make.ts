/** `dsh-command-scout/collectors/make`: the make collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/make.js')
export default collector.default
