/** `dsh-command-scout/collectors/cmake`: the cmake collector as a plugin row. */
import { cmakeCollector } from '../../collectors/cmake/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(cmakeCollector)
