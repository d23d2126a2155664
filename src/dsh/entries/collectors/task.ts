/** `dsh-command-scout/collectors/task`: the task collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/task.js')
export default collector.default
