/** `dsh-command-scout/collectors/composer`: the composer collector as a plugin row. */
import { composerCollector } from '../../../collectors/composer.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(composerCollector)
