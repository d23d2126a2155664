/** `dsh-command-scout/collectors/cargo`: the cargo collector as a plugin row. */
import { cargoCollector } from '../../collectors/cargo/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(cargoCollector)
