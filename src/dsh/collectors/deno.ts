/** `dsh-command-scout/collectors/deno`: the deno collector as a plugin row. */
import { denoCollector } from '../../collectors/deno/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(denoCollector)
