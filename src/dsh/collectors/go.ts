/** `dsh-command-scout/collectors/go`: the go collector as a plugin row. */
import { goCollector } from '../../collectors/go/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(goCollector)
