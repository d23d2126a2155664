/** `dsh-command-scout/collectors/task`: the task collector as a plugin row. */
import { taskCollector } from '../../collectors/task/collect.js'
import { collectorPlugin } from '../collector-plugin.js'

export default collectorPlugin(taskCollector)
