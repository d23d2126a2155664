/** `dsh-command-scout/collectors/composer`: the composer collector as a plugin row. */
import { composerCollector } from '../../collectors/composer/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(composerCollector)
