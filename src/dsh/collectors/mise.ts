/** `dsh-command-scout/collectors/mise`: the mise collector as a plugin row. */
import { miseCollector } from '../../collectors/mise/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(miseCollector)
