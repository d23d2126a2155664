/** `dsh-command-scout/collectors/python`: the python collector as a plugin row. */
import { pythonCollector } from '../../collectors/python/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(pythonCollector)
