/** `dsh-command-scout/collectors/just`: the just collector as a plugin row. */
import { justCollector } from '../../collectors/just/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(justCollector)
