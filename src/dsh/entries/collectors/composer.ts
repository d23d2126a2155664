/** `dsh-command-scout/collectors/composer`: the composer collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/composer.js')
export default collector.default
