/** `dsh-command-scout/collectors/python`: the python collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/python.js')
export default collector.default
