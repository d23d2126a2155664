/** `dsh-command-scout/collectors/scripts`: the scripts collector as a plugin row. */
import { scriptsCollector } from '../../collectors/scripts/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(scriptsCollector)
