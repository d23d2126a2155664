/** The cook overlay's startup row entry: shares the harness's `@deepseek-ai/*`, then loads the plugin. */
import { shareHostPeers } from '../../dsh/host-peers.js'

shareHostPeers()
const startup = await import('../startup.js')
export const name = startup.name
export const inject = startup.inject
export const apply = startup.apply
