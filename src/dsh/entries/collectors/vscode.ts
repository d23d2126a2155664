/** `dsh-command-scout/collectors/vscode`: the vscode collector's row entry (see ../adapter.ts). */
import { shareHostPeers } from '../../host-peers.js'

shareHostPeers()
const collector = await import('../../collectors/vscode.js')
export default collector.default
