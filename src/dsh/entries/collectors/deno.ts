/** `dsh-command-scout/collectors/deno`: the deno collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/deno.js')
export default collector.default
