/** `dsh-command-scout/collectors/make`: the make collector as a plugin row. */
import { makeCollector } from '../../collectors/make/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(makeCollector)
