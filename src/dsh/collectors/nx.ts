/** `dsh-command-scout/collectors/nx`: the nx collector as a plugin row. */
import { nxCollector } from '../../collectors/nx/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(nxCollector)
